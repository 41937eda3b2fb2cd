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
    /** The request parameter whose text it is in, where a request has several (`filter`, `ordering`). */
    readonly parameter?: string,
  ) {
    super(`${parameter ? `${parameter}: ` : ""}${pos ? `line ${pos.line}, column ${pos.column}: ` : ""}${message}`);
    this.reason = message;
    this.name = "QueryError";
  }
  /** The message without its parameter and position. */
  readonly reason: string;

  /** The message with its position, without the parameter it is in (for a text that is not a request's). */
  get located(): string {
    return this.pos ? `line ${this.pos.line}, column ${this.pos.column}: ${this.reason}` : this.reason;
  }

  /** The same error, said to be in the text of request parameter `parameter`. */
  in(parameter: string): QueryError {
    return new QueryError(this.reason, this.pos, this.expected, parameter);
  }
}

/** A statement that would change data (bulk DELETE or UPDATE) where queries only read (405, Allow: GET). */
export class ModifyingQueryError extends QueryError {
  constructor(message: string, pos?: TextPosition) {
    super(message, pos);
    this.name = "ModifyingQueryError";
  }
}
