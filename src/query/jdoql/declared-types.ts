/**
 * JDOQL's declared types (parameters, variables, casts, INTO): primitives, Java wrappers and
 * library types, persistent classes, enums (known through the fields that use them), and the
 * wrappers' MIN_VALUE/MAX_VALUE constants.
 */
import type { Model } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import type { Pos, QType } from "../shared/model.ts";
import { BOOLEAN, DOUBLE, INT, LONG, STRING, UNKNOWN } from "../shared/types.ts";
import { type TypeNames, isJavaTypeName, packageOf, resolveClass } from "./names.ts";

export interface TypeScope {
  model: Model;
  names: TypeNames;
}

export function primitiveTypeOf(typeName: string): QType | undefined {
  const map: Record<string, QType> = {
    boolean: BOOLEAN,
    byte: { kind: "number", numeric: "byte" },
    short: { kind: "number", numeric: "short" },
    int: INT,
    long: LONG,
    float: { kind: "number", numeric: "float" },
    double: DOUBLE,
    char: { kind: "string", char: true },
  };
  return map[typeName];
}

/** The type a declared type name stands for (parameters, variables, casts). */
export function declaredType(scope: TypeScope, typeName: string, pos: Pos): QType {
  const primitive = primitiveTypeOf(typeName);
  if (primitive) return primitive;
  const cls = resolveClass(scope.model, scope.names, typeName, pos);
  if (cls) return { kind: "entity", meta: cls };
  // A parameter declared Optional is its value, or null for an empty Optional (JDO 3.2 §14.6.2).
  const optional = /^(?:java\.util\.)?Optional(?:<(.+)>)?$/.exec(typeName);
  if (optional) return optional[1] ? declaredType(scope, optional[1], pos) : UNKNOWN;
  const generic = /^(?:java\.util\.)?(Collection|List|Set|Map)(?:<(.+)>)?$/.exec(typeName);
  if (generic) {
    const parts = generic[2]?.split(",") ?? [];
    if (generic[1] === "Map")
      return { kind: "map", key: parts[0] ? declaredType(scope, parts[0], pos) : UNKNOWN, value: parts[1] ? declaredType(scope, parts[1], pos) : UNKNOWN };
    return { kind: "collection", element: parts[0] ? declaredType(scope, parts[0], pos) : UNKNOWN, ordered: generic[1] === "List" };
  }
  const wrappers: Record<string, QType> = {
    Boolean: BOOLEAN,
    Byte: { kind: "number", numeric: "byte" },
    Short: { kind: "number", numeric: "short" },
    Integer: INT,
    Long: LONG,
    Float: { kind: "number", numeric: "float" },
    Double: DOUBLE,
    Character: { kind: "string", char: true },
    String: STRING,
    BigDecimal: { kind: "number", numeric: "decimal" },
    BigInteger: { kind: "number", numeric: "biginteger" },
    Date: { kind: "temporal", basic: "date" },
    LocalDate: { kind: "temporal", basic: "local-date" },
    LocalDateTime: { kind: "temporal", basic: "local-date-time" },
    LocalTime: { kind: "temporal", basic: "local-time" },
    Instant: { kind: "temporal", basic: "instant" },
    Timestamp: { kind: "temporal", basic: "timestamp" },
    UUID: { kind: "uuid" },
    Object: UNKNOWN,
  };
  const simple = typeName.slice(typeName.lastIndexOf(".") + 1);
  if (wrappers[simple] && (typeName === simple || /^java\.(lang|util|math|time|sql)\./.test(typeName))) return wrappers[simple]!;
  const enumType = enumNamed(scope.model, typeName, scope.names);
  if (enumType) return enumType;
  if (isJavaTypeName(typeName)) return UNKNOWN;
  return fail(`unknown type "${typeName}"`, pos);
}

/** Enums are known through the fields that use them. */
export function enumNamed(model: Model, name: string, names: TypeNames): QType | undefined {
  for (const c of model.classes.values()) {
    for (const f of c.fields.values()) {
      const t = f.type.kind === "collection" ? f.type.element : f.type;
      if (t.kind !== "enum") continue;
      const simple = t.name.slice(t.name.lastIndexOf(".") + 1);
      if (
        t.name === name ||
        (simple === name && (packageOf(t.name) === names.packageName || names.imports.some((i) => i === t.name || i === `${packageOf(t.name)}.*`)))
      ) {
        return { kind: "enum", type: t, ordinal: f.enumOrdinal };
      }
    }
  }
  return undefined;
}

/** `Integer.MAX_VALUE` and friends. */
export function wrapperLimit(typeName: string, name: string): { value: number | bigint; type: QType } | undefined {
  const simple = typeName.replace(/^java\.lang\./, "");
  const limits: Record<string, [number | bigint, number | bigint, QType]> = {
    Byte: [-128, 127, { kind: "number", numeric: "byte" }],
    Short: [-32768, 32767, { kind: "number", numeric: "short" }],
    Integer: [-2147483648, 2147483647, INT],
    // Java's, exactly (BigInts are bound as 64-bit integers).
    Long: [-(2n ** 63n), 2n ** 63n - 1n, LONG],
    Float: [1.4e-45, 3.4028234663852886e38, { kind: "number", numeric: "float" }],
    Double: [Number.MIN_VALUE, Number.MAX_VALUE, DOUBLE],
  };
  const l = limits[simple];
  if (!l || (name !== "MIN_VALUE" && name !== "MAX_VALUE")) return undefined;
  return { value: name === "MIN_VALUE" ? l[0] : l[1], type: l[2] };
}
