/** Types of query expressions: from metadata field types, and the rules that combine them. */
import { type FieldMeta, type FieldType, type Model, type ValueType, classOf, isAncestor } from "../../metadata/model.ts";
import type { FnName, NumericKind, QType } from "./model.ts";

export const BOOLEAN: QType = { kind: "boolean" };
export const STRING: QType = { kind: "string" };
export const INT: QType = { kind: "number", numeric: "int" };
export const LONG: QType = { kind: "number", numeric: "long" };
export const DOUBLE: QType = { kind: "number", numeric: "double" };
export const NULL: QType = { kind: "null" };
export const UNKNOWN: QType = { kind: "unknown" };

function valueQType(model: Model, t: ValueType, ordinal: boolean): QType {
  switch (t.kind) {
    case "enum":
      return { kind: "enum", type: t, ordinal };
    case "ref":
      return { kind: "entity", meta: classOf(model, t.class) };
    case "embedded":
      return { kind: "embedded", meta: classOf(model, t.class) };
    case "key":
      return { kind: "key", meta: classOf(model, t.class) };
    case "basic":
      switch (t.basic) {
        case "boolean":
          return BOOLEAN;
        case "char":
          return { kind: "string", char: true };
        case "string":
          return STRING;
        case "uuid":
          return { kind: "uuid" };
        case "bytes":
          return { kind: "bytes" };
        case "byte":
        case "short":
        case "int":
        case "long":
        case "biginteger":
        case "float":
        case "double":
        case "decimal":
          return { kind: "number", numeric: t.basic };
        default:
          return { kind: "temporal", basic: t.basic };
      }
  }
}

export function fieldQType(model: Model, field: FieldMeta): QType {
  const t: FieldType = field.type;
  if (t.kind === "collection")
    return { kind: "collection", element: valueQType(model, t.element, field.enumOrdinal), ordered: t.collection === "list" || t.collection === "array" };
  if (t.kind === "map") return { kind: "map", key: valueQType(model, t.key, false), value: valueQType(model, t.value, false) };
  return valueQType(model, t, field.enumOrdinal);
}

/**
 * A long value as the query model holds it: a number when a double holds it exactly, else a
 * BigInt, which is bound exactly. Beyond 64 bits it wraps around, as Java's long does.
 */
export function longValue(v: bigint): number | bigint {
  const wrapped = BigInt.asIntN(64, v);
  return Number.isSafeInteger(Number(wrapped)) ? Number(wrapped) : wrapped;
}

const NUMERIC_RANK: NumericKind[] = ["byte", "short", "int", "long", "biginteger", "float", "double", "decimal"];

/** Java's binary numeric promotion, extended with BigInteger and BigDecimal. */
export function promote(a: NumericKind, b: NumericKind): NumericKind {
  if (a === "decimal" || b === "decimal") return "decimal";
  if ((a === "biginteger" && (b === "float" || b === "double")) || (b === "biginteger" && (a === "float" || a === "double"))) return "decimal";
  const r = Math.max(NUMERIC_RANK.indexOf(a), NUMERIC_RANK.indexOf(b), NUMERIC_RANK.indexOf("int"));
  return NUMERIC_RANK[r]!;
}

export const isIntegral = (n: NumericKind) => n === "byte" || n === "short" || n === "int" || n === "long" || n === "biginteger";
export const isNumber = (t: QType) => t.kind === "number" || (t.kind === "string" && t.char === true);

export function describeType(t: QType): string {
  switch (t.kind) {
    case "number":
      return t.numeric;
    case "entity":
    case "embedded":
    case "key":
      return t.meta.name;
    case "enum":
      return t.type.name;
    case "temporal":
      return TEMPORAL_NAMES[t.basic];
    case "collection":
      return `collection of ${describeType(t.element)}`;
    case "map":
      return `map of ${describeType(t.key)} to ${describeType(t.value)}`;
    case "string":
      return t.char ? "char" : "String";
    // A parameter nothing gives a type: any value, as Java's Object.
    case "unknown":
      return "Object";
    default:
      return t.kind;
  }
}

type TemporalKind = Extract<QType, { kind: "temporal" }>["basic"];

const TEMPORAL_NAMES: Record<TemporalKind, string> = {
  date: "java.util.Date",
  "sql-date": "java.sql.Date",
  timestamp: "java.sql.Timestamp",
  instant: "Instant",
  "local-date": "LocalDate",
  "local-date-time": "LocalDateTime",
  "local-time": "LocalTime",
};

const TIME_OF_DAY: ReadonlySet<FnName> = new Set<FnName>(["hour", "minute", "second", "timePart"]);

/**
 * Whether a date or time type has the part a date function reads (both languages): a LocalTime
 * has no date (no year, month, day, week...), a LocalDate or java.sql.Date no time of day. Java has
 * no such getter there, or throws.
 */
export function hasPart(basic: TemporalKind, part: FnName): boolean {
  return TIME_OF_DAY.has(part) ? basic !== "local-date" && basic !== "sql-date" : basic !== "local-time";
}

/** Whether values of the two types can be compared with == / !=. */
export function comparable(model: Model, a: QType, b: QType): boolean {
  if (a.kind === "null" || b.kind === "null" || a.kind === "unknown" || b.kind === "unknown") return true;
  if (isNumber(a) && isNumber(b)) return true;
  if (a.kind === "entity" && b.kind === "entity") return isAncestor(model, a.meta.name, b.meta.name) || isAncestor(model, b.meta.name, a.meta.name);
  if (a.kind === "enum" && b.kind === "string") return true;
  if (b.kind === "enum" && a.kind === "string") return true;
  if (a.kind === "enum" && b.kind === "enum") return a.type.name === b.type.name;
  return a.kind === b.kind;
}

/** Whether values of the type can be ordered with < and friends. */
export function orderable(t: QType): boolean {
  return ["number", "string", "temporal", "unknown", "null", "enum", "boolean", "uuid"].includes(t.kind);
}
