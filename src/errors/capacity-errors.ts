/**
 * The server's limits met: a request that takes too long, an answer too large to build, a store
 * that is busy or short of memory. Nothing was changed; src/http/error-status.ts says which are
 * the client's to shrink (400) and which to retry (503, Retry-After).
 */

/** A request ran past its time limit before its answer started: nothing was changed (503). */
export class TimeLimitError extends Error {
  constructor(readonly limitMs: number) {
    super(`the request took longer than ${limitMs} ms`);
    this.name = "TimeLimitError";
  }
}

/** An answer over the `answerBytes` limit: 400, naming it and how to ask for less. */
export class AnswerTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit} bytes`);
    this.name = "AnswerTooLargeError";
  }
}

/** The database stayed locked by another writer past the wait: the request may be retried (503). */
export class StoreBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreBusyError";
  }
}

/** The engine refused to build a value past its length limit (SQLITE_TOOBIG): a JSON select's answer past answerBytes (400). */
export class StoreTooBigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreTooBigError";
  }
}

/** The engine could not get the memory a statement needed (SQLite's heap limit): the request may be retried, or ask for less (503). */
export class StoreMemoryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreMemoryError";
  }
}
