/**
 * The JDOQL parse tree: what `grammar/jdoql.peggy` produces, before any name is resolved.
 * Names stay names here (a bare identifier may turn out to be a field, a variable, a parameter
 * or a class); the binder resolves them against the metadata model into the shared query model.
 * Every node carries the position of its first character, for error messages.
 */

import type { Pos } from "../shared/pos.ts";

export type { Pos };

export type LiteralKind = "int" | "long" | "biginteger" | "float" | "double" | "string" | "boolean" | "null";

export type SExpr =
  | { type: "Literal"; kind: LiteralKind; value: unknown; raw: string; pos: Pos }
  /** A bare identifier: field, variable, explicit parameter, or the first part of a class name. */
  | { type: "Name"; name: string; pos: Pos }
  | { type: "This"; pos: Pos }
  /** `:name` (implicit parameter). */
  | { type: "Param"; name: string; pos: Pos }
  /** `?1` (positional parameter, DataNucleus extension). */
  | { type: "PositionalParam"; index: number; pos: Pos }
  /** `object.name`: navigation, or a part of a qualified name. */
  | { type: "Member"; object: SExpr; name: string; pos: Pos }
  /** `object.name(args)`; `object` is null for a call with no receiver. */
  | { type: "Call"; object: SExpr | null; name: string; args: SExpr[]; pos: Pos }
  /** `count(x)`, `sum(distinct x)`, ...; `fn` is lower-case. */
  | { type: "Aggregate"; fn: "count" | "sum" | "avg" | "min" | "max"; distinct: boolean; arg: SExpr; pos: Pos }
  | { type: "Unary"; op: "-" | "+" | "!" | "~"; operand: SExpr; pos: Pos }
  | { type: "Binary"; op: BinaryOp; left: SExpr; right: SExpr; pos: Pos }
  | { type: "InstanceOf"; operand: SExpr; typeName: string; pos: Pos }
  | { type: "Cast"; typeName: string; operand: SExpr; pos: Pos }
  /** `IF (test) a ELSE b` (also `else if` chains, nested in `alternate`). */
  | { type: "Conditional"; test: SExpr; consequent: SExpr; alternate: SExpr; pos: Pos }
  | { type: "Subquery"; query: SQuery; pos: Pos }
  /** `new pkg.Cls(a AS x, ...)` in a result clause. */
  | { type: "New"; className: string; args: ResultItem[]; pos: Pos }
  /** `{a, b}` (DataNucleus array literal). */
  | { type: "ArrayLiteral"; elements: SExpr[]; pos: Pos };

export type BinaryOp = "*" | "/" | "%" | "+" | "-" | "<" | "<=" | ">" | ">=" | "==" | "!=" | "&" | "^" | "|" | "&&" | "||";

export interface ResultItem {
  expr: SExpr;
  alias?: string;
  pos: Pos;
}

export interface Declaration {
  typeName: string;
  name: string;
  pos: Pos;
}

export interface OrderItem {
  expr: SExpr;
  descending: boolean;
  nulls?: "first" | "last";
  pos: Pos;
}

export type FromClause =
  | { kind: "class"; className: string; alias?: string; excludeSubclasses: boolean; pos: Pos }
  /** Subqueries only: `FROM this.department.employees e`. */
  | { kind: "path"; path: SExpr; alias?: string; pos: Pos };

export interface SQuery {
  type: "Query";
  unique: boolean;
  distinct: boolean;
  /** The result clause; null when absent (the default result: the candidates). */
  result: ResultItem[] | null;
  into?: string;
  from?: FromClause;
  where?: SExpr;
  variables: Declaration[];
  parameters: Declaration[];
  /** As written, e.g. `java.util.Date` or `org.example.*`. */
  imports: string[];
  groupBy: SExpr[];
  having?: SExpr;
  orderBy: OrderItem[];
  range?: { from: SExpr; to: SExpr };
  pos: Pos;
}

/** DataNucleus's bulk forms: parsed so that GET can refuse them precisely. */
export interface SBulk {
  type: "Delete" | "Update";
  className: string;
  pos: Pos;
}

/** What the `Query` start rule returns. */
export type SStatement = SQuery | SBulk;
