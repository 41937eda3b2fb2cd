/**
 * A position in a query's text (both grammars give every node the position of its first character),
 * for error messages: the position a QueryError carries.
 */
export type { TextPosition as Pos } from "../../errors/query-error.ts";
