/** How the query compiler reports a query it cannot run: a `QueryError` at the offending text, or its own bug. */
import { QueryError } from "../../errors/query-error.ts";
import type { Pos } from "./model.ts";

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
