/** Query errors carry the position of the offending text, so a 400 names line and column. */
import type { Pos } from "./model.ts";

export class QueryError extends Error {
  constructor(
    message: string,
    readonly pos?: Pos,
    readonly expected?: string[],
    /** 405 for statements that would modify data (bulk DELETE/UPDATE on GET); 400 otherwise. */
    readonly status: 400 | 405 = 400,
  ) {
    super(pos ? `line ${pos.line}, column ${pos.column}: ${message}` : message);
    this.name = "QueryError";
  }
}

export function fail(message: string, pos?: Pos): never {
  throw new QueryError(message, pos);
}

/**
 * A state no query should reach: the compiler's bug, not the client's error. It answers 500 with a
 * logged request id (as every bug does), not a 400 whose detail would blame the query.
 */
export function internal(message: string): never {
  throw new Error(`internal: ${message}`);
}
