/** Query errors carry the position of the offending text, so the answer names line and column. */

/** A place in a query's text (1-based line and column, 0-based offset). */
export interface TextPosition {
  line: number;
  column: number;
  offset: number;
}

/** A query that cannot be run as written (400), with what the parser expected where it applies. */
export class QueryError extends Error {
  constructor(
    message: string,
    readonly pos?: TextPosition,
    readonly expected?: string[],
  ) {
    super(pos ? `line ${pos.line}, column ${pos.column}: ${message}` : message);
    this.name = "QueryError";
  }
}

/** A statement that would change data (bulk DELETE or UPDATE) where queries only read (405, Allow: GET). */
export class ModifyingQueryError extends QueryError {
  constructor(message: string, pos?: TextPosition) {
    super(message, pos);
    this.name = "ModifyingQueryError";
  }
}
