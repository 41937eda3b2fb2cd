/**
 * Every error as the answer a client gets, decided here and nowhere else: each domain error
 * (src/errors/) and the HTTP layer's own `HttpError` has its status and problem document; a 503
 * says when to retry. Anything else is a bug, answered 500 with a request id that the log
 * repeats, never with a stack trace or SQL text.
 */
import type { Limits } from "../config/limits.ts";
import { ForbiddenError, InvalidTokenError } from "../errors/auth-errors.ts";
import { AnswerTooLargeError, StoreBusyError, StoreMemoryError, StoreTooBigError, TimeLimitError } from "../errors/capacity-errors.ts";
import { ModifyingQueryError, QueryError } from "../errors/query-error.ts";
import { ConflictError, InvalidInputError, NotFoundError, PreconditionFailedError, UnfitBodyError } from "../errors/request-errors.ts";
import { preconditionFailedDetail } from "./conditional.ts";
import { HttpError, problem } from "./problem.ts";

/** What a 401 for refused credentials says (RFC 6750, section 3). */
const INVALID_TOKEN = { headers: { "www-authenticate": 'Bearer error="invalid_token"' } };

/** What a 401 for a request without credentials says: that a Bearer token is how to give them (RFC 6750, section 3). */
const NO_CREDENTIALS = { headers: { "www-authenticate": 'Bearer realm="extent"' } };

/** What a 503 asks of the client: to come back in a second (nothing was changed). */
const RETRY = { headers: { "retry-after": "1" } };

export function errorAnswer(error: unknown, limits: Limits): Response {
  if (error instanceof HttpError) return problem(error.status, error.detail, error.extras);
  if (error instanceof InvalidTokenError) return problem(401, error.message, INVALID_TOKEN);
  if (error instanceof ForbiddenError) return error.anonymous ? problem(401, error.message, NO_CREDENTIALS) : problem(403, error.message);
  if (error instanceof NotFoundError) return problem(404, error.message);
  if (error instanceof ConflictError) return problem(409, error.message, error.errors && { errors: error.errors });
  if (error instanceof PreconditionFailedError) return problem(412, preconditionFailedDetail(error.conditions, error.what));
  if (error instanceof InvalidInputError) return problem(400, error.message, error.errors && { errors: error.errors });
  if (error instanceof UnfitBodyError) return problem(422, error.message, { errors: error.errors });
  if (error instanceof QueryError) {
    const modifying = error instanceof ModifyingQueryError;
    return problem(modifying ? 405 : 400, error.message, {
      position: error.pos && { line: error.pos.line, column: error.pos.column, offset: error.pos.offset },
      expected: error.expected?.length ? error.expected : undefined,
      errors: error.parameter ? [{ path: error.parameter, message: error.reason }] : undefined,
      headers: modifying ? { allow: "GET" } : undefined,
    });
  }
  if (error instanceof TimeLimitError) {
    return problem(
      503,
      `the request took longer than this server allows (limit requestTimeMs: ${error.limitMs} ms); nothing was changed, retry later or ask for less`,
      RETRY,
    );
  }
  if (error instanceof AnswerTooLargeError || error instanceof StoreTooBigError) {
    return problem(
      400,
      `the answer would be larger than this server builds at once (limit answerBytes: ${limits.answerBytes} bytes); ask for less: a range (RANGE in a query), a smaller fetch group or a smaller maxFetchDepth`,
    );
  }
  if (error instanceof StoreMemoryError) {
    return problem(
      503,
      "the server cannot spare the memory this request needs now; nothing was changed: retry later, or ask for less (a range, a smaller maxFetchDepth)",
      RETRY,
    );
  }
  if (error instanceof StoreBusyError) return problem(503, "the database is busy with another writer; retry the request", RETRY);
  const id = crypto.randomUUID();
  console.error(`[extent] request ${id} failed:`, error);
  return problem(500, `an internal error occurred; it is logged as request ${id}`, {}, `urn:uuid:${id}`);
}
