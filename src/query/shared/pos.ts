/** A position in a query's text (both grammars give every node the position of its first character), for error messages. */
export interface Pos {
  offset: number;
  line: number;
  column: number;
}
