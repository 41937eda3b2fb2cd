/**
 * Java type names, as metadata writes them, mapped to Extent's basic kinds.
 * Unqualified wrapper names (`String`, `Integer`) are accepted as JDO metadata writes them.
 */
import type { CollectionKind } from "./declarations.ts";
import type { BasicKind } from "./model.ts";

interface BasicName {
  basic: BasicKind;
  primitive: boolean;
}

const primitive = (basic: BasicKind): BasicName => ({ basic, primitive: true });
const wrapper = (basic: BasicKind): BasicName => ({ basic, primitive: false });

const BASIC: Record<string, BasicName> = {
  boolean: primitive("boolean"),
  byte: primitive("byte"),
  short: primitive("short"),
  int: primitive("int"),
  long: primitive("long"),
  float: primitive("float"),
  double: primitive("double"),
  char: primitive("char"),
  "java.lang.Boolean": wrapper("boolean"),
  "java.lang.Byte": wrapper("byte"),
  "java.lang.Short": wrapper("short"),
  "java.lang.Integer": wrapper("int"),
  "java.lang.Long": wrapper("long"),
  "java.lang.Float": wrapper("float"),
  "java.lang.Double": wrapper("double"),
  "java.lang.Character": wrapper("char"),
  "java.lang.String": wrapper("string"),
  "java.math.BigDecimal": wrapper("decimal"),
  "java.math.BigInteger": wrapper("biginteger"),
  "java.util.Date": wrapper("date"),
  "java.sql.Date": wrapper("sql-date"),
  "java.sql.Timestamp": wrapper("timestamp"),
  "java.time.LocalDate": wrapper("local-date"),
  "java.time.LocalDateTime": wrapper("local-date-time"),
  "java.time.LocalTime": wrapper("local-time"),
  "java.time.Instant": wrapper("instant"),
  "java.util.UUID": wrapper("uuid"),
  "byte[]": wrapper("bytes"),
  "java.lang.Byte[]": wrapper("bytes"),
};

const JAVA_LANG = ["Boolean", "Byte", "Short", "Integer", "Long", "Float", "Double", "Character", "String"];

/** `Integer` → `java.lang.Integer`; everything else unchanged. */
export function canonicalTypeName(name: string): string {
  const trimmed = name.trim();
  return JAVA_LANG.includes(trimmed) ? `java.lang.${trimmed}` : trimmed;
}

export function basicType(name: string): BasicName | undefined {
  return BASIC[canonicalTypeName(name)];
}

const COLLECTIONS: Record<string, CollectionKind> = {
  "java.util.Set": "set",
  "java.util.HashSet": "set",
  "java.util.TreeSet": "set",
  "java.util.LinkedHashSet": "set",
  "java.util.SortedSet": "set",
  "java.util.List": "list",
  "java.util.ArrayList": "list",
  "java.util.LinkedList": "list",
  "java.util.Collection": "collection",
};

const MAPS = new Set(["java.util.Map", "java.util.HashMap", "java.util.TreeMap", "java.util.LinkedHashMap", "java.util.SortedMap"]);

/** `java.util.List<X>` and `X[]` are accepted too: the generic or array part names the element. */
export function collectionKind(name: string): { kind: CollectionKind; element?: string } | undefined {
  const trimmed = name.trim();
  const generic = /^([\w.$]+)\s*<\s*([\w.$]+)\s*>$/.exec(trimmed);
  if (generic && COLLECTIONS[generic[1]!]) return { kind: COLLECTIONS[generic[1]!]!, element: generic[2] };
  if (COLLECTIONS[trimmed]) return { kind: COLLECTIONS[trimmed]! };
  if (trimmed.endsWith("[]") && !basicType(trimmed)) return { kind: "array", element: trimmed.slice(0, -2) };
  return undefined;
}

export function isMapType(name: string): { key?: string; value?: string } | undefined {
  const trimmed = name.trim();
  const generic = /^([\w.$]+)\s*<\s*([\w.$]+)\s*,\s*([\w.$]+)\s*>$/.exec(trimmed);
  if (generic && MAPS.has(generic[1]!)) return { key: generic[2], value: generic[3] };
  return MAPS.has(trimmed) ? {} : undefined;
}

// Names as metadata writes them, qualified against the package they are written in.

const PRIMITIVE_NAMES = new Set(["boolean", "byte", "short", "int", "long", "float", "double", "char"]);
/** java.lang names that Java code (and so JDO metadata) may write unqualified. */
const JAVA_LANG_NAMES = new Set(["String", "Boolean", "Byte", "Short", "Integer", "Long", "Float", "Double", "Character", "Number", "Object"]);

/** A class name as JDO resolves it: unqualified names belong to the enclosing package (JDO `<package>`, JPA `<package>`). */
export function qualifyClass(name: string, pkg: string): string {
  return name.includes(".") || !pkg ? name : `${pkg}.${name}`;
}

/**
 * A type name as written in `field-type`, `element-type`, `key-type`, `value-type`: primitives and
 * qualified names stay, java.lang names get `java.lang.`, other simple names are package classes.
 * Array (`X[]`) and generic (`java.util.List<X>`) forms qualify their parts.
 */
export function qualifyType(name: string, pkg: string): string {
  const t = name.trim();
  if (t.endsWith("[]")) return qualifyType(t.slice(0, -2), pkg) + "[]";
  const generic = /^([^<]+)<(.*)>$/.exec(t);
  if (generic) {
    const args = generic[2]!.split(",").map((a) => qualifyType(a, pkg));
    return `${qualifyType(generic[1]!, pkg)}<${args.join(",")}>`;
  }
  if (PRIMITIVE_NAMES.has(t) || t.includes(".") || t === "") return t;
  if (JAVA_LANG_NAMES.has(t)) return `java.lang.${t}`;
  return qualifyClass(t, pkg);
}
