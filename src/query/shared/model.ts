/**
 * The query model: what a query means, with every name resolved against the metadata and every
 * expression typed. JDOQL and JPQL are two front ends that produce it; one SQL generator
 * (`sql/generate.ts`) consumes it. Where the languages differ in meaning (null comparison,
 * string positions, navigation through null), the difference is a property of a node here,
 * decided by the front end, never a second code path in the generator.
 */
import type { ClassMeta, FieldMeta, ValueType } from "../../metadata/model.ts";
import type { Pos } from "./pos.ts";

export type { Pos };

export type NumericKind = "byte" | "short" | "int" | "long" | "biginteger" | "float" | "double" | "decimal";

export type QType =
  | { kind: "null" }
  | { kind: "boolean" }
  | { kind: "number"; numeric: NumericKind }
  | { kind: "string"; char?: boolean }
  /** Dates and times: stored as epoch milliseconds (LocalTime: since midnight). */
  | { kind: "temporal"; basic: "date" | "sql-date" | "timestamp" | "local-date" | "local-date-time" | "local-time" | "instant" }
  | { kind: "uuid" }
  | { kind: "bytes" }
  | { kind: "enum"; type: Extract<ValueType, { kind: "enum" }>; ordinal: boolean }
  | { kind: "entity"; meta: ClassMeta }
  | { kind: "embedded"; meta: ClassMeta }
  /** The key class (ancestor keys), stored as canonical JSON text. */
  | { kind: "key"; meta: ClassMeta }
  /** `ordered`: a List (or array), whose elements have positions. */
  | { kind: "collection"; element: QType; ordered?: boolean }
  | { kind: "map"; key: QType; value: QType }
  /** A parameter whose type nothing determines: bound as given. */
  | { kind: "unknown" };

/** Something rows range over: the candidate, a variable, a JPQL identification variable. */
export interface Binding {
  name: string;
  /** Entity bindings range over a class extent; value bindings over a collection's elements. */
  type: QType;
  /** The collection whose elements this binding ranges over (`coll.contains(v)`, JPQL `JOIN`/`IN`). */
  source?: QExpr;
  /** Candidate extent only: leave out subclasses. */
  excludeSubclasses?: boolean;
  /** JPQL LEFT JOIN: a candidate row stays when the collection is empty. */
  optional?: boolean;
  /** JPQL JOIN ... ON: a condition of the join itself (for LEFT JOIN, it does not remove rows). */
  on?: QExpr;
  pos: Pos;
}

export interface ParamRef {
  /** `name` for named (`:name`, declared), a number for positional (`?1`) and implicit-in-order. */
  key: string | number;
  pos: Pos;
}

export type CompareOp = "=" | "<>" | "<" | "<=" | ">" | ">=";
export type ArithOp = "+" | "-" | "*" | "/" | "%";

export type QExpr =
  /** `text`: a number's digits as written, which a BigDecimal compares with exactly (a double may round them). */
  (
    | { kind: "literal"; value: unknown; text?: string }
    | { kind: "param"; ref: ParamRef }
    /** A binding itself (`this`, a variable): an entity or a value. */
    | { kind: "binding"; binding: Binding }
    /** One step of navigation from an entity or an embedded object. */
    | { kind: "field"; from: QExpr; field: FieldMeta; owner: ClassMeta }
    /**
     * Comparison. `nullEquals` (JDOQL): null == null is true and null != x is true; otherwise SQL's
     * three-valued logic (JPQL).
     */
    | { kind: "compare"; op: CompareOp; left: QExpr; right: QExpr; nullEquals: boolean }
    | { kind: "and"; items: QExpr[] }
    | { kind: "or"; items: QExpr[] }
    | { kind: "not"; operand: QExpr }
    | { kind: "isNull"; operand: QExpr; negated: boolean }
    | { kind: "arith"; op: ArithOp; left: QExpr; right: QExpr; integer: boolean }
    | { kind: "negate"; operand: QExpr }
    | { kind: "bitnot"; operand: QExpr }
    | { kind: "concat"; items: QExpr[] }
    /**
     * Scalar functions, with JDOQL's and JPQL's position conventions already normalized to 0-based.
     * `javaBounds` (JDOQL's substring and charAt): an index outside the string, where Java throws,
     * makes the value null, as a failed navigation does; without it (JPQL), SQL's clamping.
     */
    | { kind: "fn"; name: FnName; args: QExpr[]; javaBounds?: boolean; database?: string }
    | { kind: "contains"; collection: QExpr; element: QExpr }
    | { kind: "isEmpty"; collection: QExpr }
    | { kind: "size"; collection: QExpr }
    | { kind: "mapGet"; map: QExpr; key: QExpr }
    /** `list.get(i)`, 0-based. */
    | { kind: "listGet"; list: QExpr; index: QExpr }
    | { kind: "containsKey"; map: QExpr; key: QExpr }
    | { kind: "containsValue"; map: QExpr; value: QExpr }
    | { kind: "instanceOf"; operand: QExpr; classes: ClassMeta[] }
    /** A cast to a class narrows an entity (null when it is not one); a numeric cast converts. */
    | { kind: "cast"; operand: QExpr }
    | { kind: "aggregate"; fn: "count" | "sum" | "avg" | "min" | "max"; distinct: boolean; arg: QExpr }
    | { kind: "case"; whens: { when: QExpr; then: QExpr }[]; otherwise: QExpr }
    | { kind: "subquery"; query: QQuery }
    | { kind: "exists"; query: QQuery }
    /** `JDOHelper.getObjectId(x)`: the key of an entity. */
    | { kind: "objectId"; operand: QExpr }
    /** `nullWhenUnversioned`: JDOQL's JDOHelper.getVersion is null for an unversioned class; JPQL's VERSION refuses it. */
    | { kind: "version"; operand: QExpr; nullWhenUnversioned?: boolean }
    /** JPQL KEY(v): the key of the map entry a variable ranges over (VALUE(v) is the variable itself). */
    | { kind: "entryKey"; operand: QExpr }
    /** JPQL INDEX(v): the position (0-based) of the list element a variable ranges over. */
    | { kind: "listIndex"; operand: QExpr }
    /** JPQL TYPE(e) as a value: the runtime class name. */
    | { kind: "classOf"; operand: QExpr }
    /** A list of values (`{a, b}`, a collection parameter) used with contains. */
    | { kind: "list"; items: QExpr[] }
  ) & { type: QType; pos: Pos };

export type FnName =
  | "lower"
  | "upper"
  | "length"
  | "trim"
  | "trimLeft"
  | "trimRight"
  /** (s, prefix[, from]) */
  | "startsWith"
  | "endsWith"
  /** 0-based: (s, search[, from]) → index or -1 */
  | "indexOf"
  /** 0-based, end exclusive: (s, begin[, end]) */
  | "substring"
  | "charAt"
  /** (s, pattern): a Java regex subset */
  | "matches"
  | "equalsIgnoreCase"
  | "abs"
  | "sqrt"
  | "ceil"
  | "floor"
  | "exp"
  | "log"
  | "sin"
  | "cos"
  | "tan"
  | "asin"
  | "acos"
  | "atan"
  | "round"
  | "sign"
  | "power"
  | "mod"
  | "year"
  | "month0"
  | "month1"
  | "day"
  | "hour"
  | "minute"
  | "second"
  | "dayOfWeek"
  | "quarter"
  | "isoWeek"
  | "datePart"
  | "timePart"
  | "ordinal"
  | "enumName"
  | "coalesce"
  | "nullif"
  /** JPQL: LIKE (case-sensitive: `%`, `_`, optional escape), LEFT, RIGHT, REPLACE, ROUND(x, n), current date/time. */
  | "like"
  | "left"
  | "right"
  | "replace"
  | "roundTo"
  | "currentDate"
  | "currentTime"
  | "currentTimestamp"
  /** JPQL FUNCTION('name', ...): the SQLite function `database` (one of src/query/jpql/database-functions.ts). */
  | "database";

export interface ResultItem {
  expr: QExpr;
  alias: string;
  /** An item answered as an object of these values (JPQL ENTRY(v): its key and value). */
  parts?: ResultPart[];
}

export interface ResultPart {
  name: string;
  expr: QExpr;
}

export interface OrderItem {
  expr: QExpr;
  descending: boolean;
  nulls?: "first" | "last";
}

/** A query of `candidate`'s objects that asks nothing yet: what each front end fills in as it binds. */
export function candidateQuery(candidate: Binding, outer: QQuery | undefined): QQuery {
  return { candidate, variables: [], result: null, shape: "candidates", distinct: false, unique: false, groupBy: [], orderBy: [], outer };
}

export interface QQuery {
  candidate: Binding;
  /** Variables, in declaration (or first use) order. */
  variables: Binding[];
  where?: QExpr;
  /** Null: the candidates themselves. */
  result: ResultItem[] | null;
  /** How rows become JSON: arrays of values, objects keyed by alias (INTO, constructors), or the single value. */
  shape: "candidates" | "value" | "row" | "object";
  distinct: boolean;
  unique: boolean;
  groupBy: QExpr[];
  having?: QExpr;
  orderBy: OrderItem[];
  range?: { from: QExpr; to: QExpr };
  /** Subqueries only: the outer query's bindings visible inside. */
  outer?: QQuery;
  /**
   * JPQL: every FROM variable is a join (rows multiply with its bindings); JDOQL scopes
   * variables the result does not use in EXISTS (a candidate appears once).
   */
  joinVariables?: boolean;
  /** JPQL JOIN FETCH: relation fields (`declaringClass.field`) added to the fetch plan of the results. */
  fetchFields?: string[];
  /** JPQL 3.2 UNION / INTERSECT / EXCEPT: this query's rows are `left op right` (the result is left's). */
  compound?: {
    op: "UNION" | "INTERSECT" | "EXCEPT";
    all: boolean;
    left: QQuery;
    right: QQuery;
    /** The trailing ORDER BY of the combined rows: by result item (0-based, of the first query's select list). */
    orderBy?: { item: number; descending: boolean; nulls?: "first" | "last" }[];
  };
  /**
   * A page of `GET /{class}` (src/query/prepare.ts prepareListing): with `orderingValues` the
   * candidate keys also carry their ordering values (`_o0`...), and with `keyset` only candidates
   * after the cursor's values (placeholders `c.o0`..., `c.k0`...) in the query's order are selected.
   */
  listing?: { keyset: boolean; orderingValues: boolean };
}

/** Parameters a query declares or uses, with the types their values must have. */
export interface ParamSpec {
  key: string | number;
  type: QType;
  /** Declared with a primitive type: null is refused. */
  primitive: boolean;
  /** Used as a `matches()` pattern: also bound as a GLOB pattern. */
  pattern?: boolean;
  /** Used as a JPQL LIKE pattern (with this escape character): also bound as a GLOB pattern. */
  like?: { escape?: string };
  pos: Pos;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Builds a query-model node at a position. */
export const node = (e: DistributiveOmit<QExpr, "pos">, pos: Pos): QExpr => ({ ...e, pos }) as QExpr;
