/**
 * The JPQL parse tree: what `grammar/jpql.peggy` produces, before any name is resolved.
 * Names stay names here: a lone identifier may turn out to be an identification variable, a
 * result variable, a field of the implicit `this` (3.2), an entity type literal or the first part
 * of an enum literal; the binder resolves them against the metadata model into the shared query
 * model. Keywords are case-insensitive in JPQL, so every keyword-derived value here (function
 * names, operators, quantifiers, fields) is canonical upper-case; names keep the case they were
 * written in. Every node carries the position of its first character, for error messages.
 */

import type { Pos } from "../shared/pos.ts";

export type { Pos };

// =============================================================================================
// Expressions
// =============================================================================================

/**
 * `int` (unsuffixed, fits in 32 bits), `long` (`L` suffix, or too big for an int), `biginteger`
 * (`BI` suffix or too big for a long; value: decimal digits), `float` (`F`), `double` (`D` or no
 * suffix), `decimal` (`BD`; value: the digits as written), `date`/`time`/`timestamp` (JDBC escapes;
 * value: ISO `yyyy-mm-dd`, `hh:mm:ss`, `yyyy-mm-ddThh:mm:ss[.f...]`).
 */
export type LiteralKind = "int" | "long" | "biginteger" | "float" | "double" | "decimal" | "string" | "boolean" | "null" | "date" | "time" | "timestamp";

export interface JLiteral {
  type: "Literal";
  kind: LiteralKind;
  value: number | string | boolean | null;
  /** The literal as written, e.g. `10L`, `'O''Brien'`, `{d '2024-01-01'}`. */
  raw: string;
  pos: Pos;
}

/**
 * `e.department.name`, `org.x.Status.ACTIVE`, `TREAT(e AS Exempt).vacationDays`, `KEY(m).code`.
 * `head` is the identifier the path starts from, or the TREAT/KEY/VALUE/ENTRY it navigates from
 * (then `names` is never empty: a lone `TREAT(...)` or `KEY(m)` is that node itself).
 * A lone identifier is a Path without names.
 */
export interface JPath {
  type: "Path";
  head: string | JTreat | JKeyValueEntry;
  names: string[];
  pos: Pos;
}

/** The expressions that denote a path: what JOIN, IN (...), MEMBER OF, IS EMPTY, TYPE and TREAT take. */
export type JPathExpr = JPath | JTreat | JKeyValueEntry;

/** `:name` (case-sensitive). */
export interface JNamedParam {
  type: "NamedParam";
  name: string;
  pos: Pos;
}

/** `?1` (numbered from 1). */
export interface JPositionalParam {
  type: "PositionalParam";
  index: number;
  pos: Pos;
}

export type JParam = JNamedParam | JPositionalParam;

export type ArithmeticOp = "+" | "-" | "*" | "/";
export type ComparisonOp = "=" | "<>" | "<" | "<=" | ">" | ">=";
export type BinaryOp = ArithmeticOp | "||" | ComparisonOp | "AND" | "OR";

export interface JBinary {
  type: "Binary";
  op: BinaryOp;
  left: JExpr;
  /** A Quantified node only as the right side of a comparison. */
  right: JExpr;
  pos: Pos;
}

export interface JUnary {
  type: "Unary";
  op: "-" | "+" | "NOT";
  operand: JExpr;
  pos: Pos;
}

/** `x [NOT] BETWEEN low AND high`. */
export interface JBetween {
  type: "Between";
  not: boolean;
  operand: JExpr;
  low: JExpr;
  high: JExpr;
  pos: Pos;
}

/** What follows IN: `(item, ...)`, `(subquery)`, or a collection-valued parameter (`IN :ids`). */
export type JInSource = { kind: "list"; items: JExpr[] } | { kind: "subquery"; subquery: JSubquery } | { kind: "param"; param: JParam };

/** `x [NOT] IN ...`. */
export interface JIn {
  type: "In";
  not: boolean;
  operand: JExpr;
  source: JInSource;
  pos: Pos;
}

/** `s [NOT] LIKE pattern [ESCAPE c]`. */
export interface JLike {
  type: "Like";
  not: boolean;
  operand: JExpr;
  pattern: JExpr;
  escape?: JExpr;
  pos: Pos;
}

/** `x IS [NOT] NULL`. */
export interface JIsNull {
  type: "IsNull";
  not: boolean;
  operand: JExpr;
  pos: Pos;
}

/** `collection IS [NOT] EMPTY` (the collection is whatever was written; the binder checks it is a path). */
export interface JIsEmpty {
  type: "IsEmpty";
  not: boolean;
  collection: JExpr;
  pos: Pos;
}

/** `element [NOT] MEMBER [OF] collection`. */
export interface JMemberOf {
  type: "MemberOf";
  not: boolean;
  element: JExpr;
  collection: JPathExpr;
  pos: Pos;
}

/** `[NOT] EXISTS (subquery)`. */
export interface JExists {
  type: "Exists";
  not: boolean;
  subquery: JSubquery;
  pos: Pos;
}

/** `ALL (subquery)`, `ANY (...)`, `SOME (...)`: only as the right side of a comparison. */
export interface JQuantified {
  type: "Quantified";
  quantifier: "ALL" | "ANY" | "SOME";
  subquery: JSubquery;
  pos: Pos;
}

/**
 * Functions with ordinary argument lists, by canonical name. The arities are checked by the
 * grammar: one argument for LOWER ... VERSION, two for MOD POWER ROUND LEFT RIGHT, three for
 * REPLACE, two or three for SUBSTRING and LOCATE, two or more for CONCAT, none for the current
 * date/time functions, and for FUNCTION the database function's name (a string literal) first.
 */
export type FunctionName =
  | "CONCAT"
  | "SUBSTRING"
  | "LOWER"
  | "UPPER"
  | "LENGTH"
  | "LOCATE"
  | "ABS"
  | "SQRT"
  | "MOD"
  | "SIZE"
  | "INDEX"
  | "CEILING"
  | "FLOOR"
  | "EXP"
  | "LN"
  | "POWER"
  | "ROUND"
  | "SIGN"
  | "LEFT"
  | "RIGHT"
  | "REPLACE"
  | "ID"
  | "VERSION"
  | "CURRENT_DATE"
  | "CURRENT_TIME"
  | "CURRENT_TIMESTAMP"
  | "LOCAL DATE"
  | "LOCAL TIME"
  | "LOCAL DATETIME"
  | "FUNCTION";

export interface JFunction {
  type: "Function";
  name: FunctionName;
  /** For FUNCTION, the first argument is the string literal naming the database function. */
  args: JExpr[];
  pos: Pos;
}

/** `TRIM([[LEADING|TRAILING|BOTH] [char] FROM] s)`; `spec` is BOTH when not written. */
export interface JTrim {
  type: "Trim";
  spec: "LEADING" | "TRAILING" | "BOTH";
  /** A string literal or a parameter; absent means a space. */
  char?: JExpr;
  from: JExpr;
  pos: Pos;
}

export interface JAggregate {
  type: "Aggregate";
  fn: "COUNT" | "SUM" | "AVG" | "MIN" | "MAX";
  distinct: boolean;
  arg: JExpr;
  pos: Pos;
}

export interface JWhen {
  when: JExpr;
  then: JExpr;
  pos: Pos;
}

/** `CASE WHEN cond THEN x ... ELSE y END`, or with `operand`: `CASE operand WHEN v THEN x ... ELSE y END`. */
export interface JCase {
  type: "Case";
  operand?: JExpr;
  whens: JWhen[];
  else: JExpr;
  pos: Pos;
}

/** `COALESCE(a, b, ...)`: two or more arguments. */
export interface JCoalesce {
  type: "Coalesce";
  args: JExpr[];
  pos: Pos;
}

/** `NULLIF(a, b)`. */
export interface JNullif {
  type: "Nullif";
  left: JExpr;
  right: JExpr;
  pos: Pos;
}

/** `TYPE(e)`, `TYPE(e.project)`, `TYPE(:p)`. */
export interface JType {
  type: "Type";
  arg: JPathExpr | JParam;
  pos: Pos;
}

/** `TREAT(path AS Entity)`; the entity name may be qualified. */
export interface JTreat {
  type: "Treat";
  path: JPathExpr;
  entity: string;
  pos: Pos;
}

export type ExtractField = "YEAR" | "QUARTER" | "MONTH" | "WEEK" | "DAY" | "HOUR" | "MINUTE" | "SECOND" | "DATE" | "TIME";

/** `EXTRACT(YEAR FROM d)` (3.1). */
export interface JExtract {
  type: "Extract";
  field: ExtractField;
  from: JExpr;
  pos: Pos;
}

export type CastTarget = "STRING" | "INTEGER" | "LONG" | "FLOAT" | "DOUBLE";

/** `CAST(x AS STRING)` (3.2). */
export interface JCast {
  type: "Cast";
  operand: JExpr;
  target: CastTarget;
  pos: Pos;
}

/** `KEY(m)`, `VALUE(m)`, `ENTRY(m)` over a map-valued identification variable. */
export interface JKeyValueEntry {
  type: "KeyValueEntry";
  fn: "KEY" | "VALUE" | "ENTRY";
  variable: string;
  pos: Pos;
}

/** `(SELECT ...)`: its query selects exactly one item, without a result variable, and has no ORDER BY. */
export interface JSubquery {
  type: "Subquery";
  query: JSelectQuery;
  pos: Pos;
}

export type JExpr =
  | JLiteral
  | JPath
  | JNamedParam
  | JPositionalParam
  | JBinary
  | JUnary
  | JBetween
  | JIn
  | JLike
  | JIsNull
  | JIsEmpty
  | JMemberOf
  | JExists
  | JQuantified
  | JFunction
  | JTrim
  | JAggregate
  | JCase
  | JCoalesce
  | JNullif
  | JType
  | JTreat
  | JExtract
  | JCast
  | JKeyValueEntry
  | JSubquery;

// --- Select-clause-only expressions ------------------------------------------------------------

/** `OBJECT(e)`. */
export interface JObject {
  type: "Object";
  variable: string;
  pos: Pos;
}

/** `NEW pkg.Cls(a, b)`: at least one argument. */
export interface JNew {
  type: "New";
  className: string;
  /** Where the class name starts. */
  classPos: Pos;
  args: JExpr[];
  pos: Pos;
}

export type JSelectExpr = JExpr | JObject | JNew;

// =============================================================================================
// Statements
// =============================================================================================

export interface JSelectItem {
  expr: JSelectExpr;
  /** The result variable (`AS x` or just `x`). */
  variable?: string;
  pos: Pos;
}

export interface JOrderItem {
  /** A path, a result variable (a lone identifier), or (3.2) any scalar expression. */
  expr: JExpr;
  descending: boolean;
  nulls?: "first" | "last";
  pos: Pos;
}

/**
 * What a join reaches. A dotted name is a `path` (`o.lineItems`, `TREAT(e.projects AS Big)`); a
 * single name is an `entity` (the 3.2 join to another root, `JOIN Customer c ON ...`).
 * A dotted path whose head is no identification variable is a qualified entity name
 * (DataNucleus accepts class names): the binder decides.
 */
export type JJoinTarget = { kind: "path"; path: JPathExpr } | { kind: "entity"; entity: string };

/** `[INNER] JOIN`, `LEFT [OUTER] JOIN`, with FETCH: no variable and no ON (the grammar refuses them). */
export interface JJoin {
  kind: "inner" | "left";
  fetch: boolean;
  target: JJoinTarget;
  /** Always present unless `fetch`. */
  variable?: string;
  on?: JExpr;
  pos: Pos;
}

/**
 * `Entity [AS] e` and its joins. The entity name is as written (case-sensitive) and may be a
 * qualified class name. Without a variable only when it is the only declaration of its FROM
 * clause and has no joins (3.2: the implicit `this`).
 */
export interface JRangeDeclaration {
  kind: "range";
  entity: string;
  variable?: string;
  joins: JJoin[];
  pos: Pos;
}

/**
 * Subqueries only: `FROM e.projects p` (a path from an outer variable) and its joins.
 * A dotted name whose head is not an outer variable is a qualified entity name: the binder decides.
 */
export interface JDerivedDeclaration {
  kind: "derived";
  path: JPathExpr;
  variable: string;
  joins: JJoin[];
  pos: Pos;
}

/** `IN (o.lineItems) [AS] l`, and in subqueries also `IN o.lineItems l`. */
export interface JCollectionMember {
  kind: "member";
  path: JPathExpr;
  variable: string;
  pos: Pos;
}

export type JFromItem = JRangeDeclaration | JDerivedDeclaration | JCollectionMember;

/** A single select query (also the query of a subquery). */
export interface JSelectQuery {
  type: "Select";
  distinct: boolean;
  /** The select items; null when SELECT is omitted (3.2: the result is the single root). */
  select: JSelectItem[] | null;
  from: JFromItem[];
  where?: JExpr;
  groupBy: JExpr[];
  having?: JExpr;
  /**
   * ORDER BY of the whole statement when this query stands alone. In a set operation the
   * trailing ORDER BY belongs to the SetOperation; a parenthesised operand may have its own.
   */
  orderBy: JOrderItem[];
  pos: Pos;
}

/** `a UNION [ALL] b`, `a INTERSECT [ALL] b`, `a EXCEPT [ALL] b` (3.2); left-associative, INTERSECT binds tighter. */
export interface JSetOperation {
  type: "SetOperation";
  op: "UNION" | "INTERSECT" | "EXCEPT";
  all: boolean;
  left: JSelectStatement;
  right: JSelectStatement;
  orderBy: JOrderItem[];
  pos: Pos;
}

export type JSelectStatement = JSelectQuery | JSetOperation;

/** `path = value` in UPDATE ... SET (the value may be NULL). */
export interface JUpdateItem {
  path: JPath;
  value: JExpr;
  pos: Pos;
}

/** `UPDATE Entity [[AS] e] SET ... [WHERE ...]`: parsed so that GET can refuse it precisely. */
export interface JUpdate {
  type: "Update";
  entity: string;
  variable?: string;
  set: JUpdateItem[];
  where?: JExpr;
  pos: Pos;
}

/** `DELETE FROM Entity [[AS] e] [WHERE ...]`: parsed so that GET can refuse it precisely. */
export interface JDelete {
  type: "Delete";
  entity: string;
  variable?: string;
  where?: JExpr;
  pos: Pos;
}

/** What the `Statement` start rule returns. */
export type JStatement = JSelectStatement | JUpdate | JDelete;
