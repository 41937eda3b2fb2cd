/**
 * What a request asked for that cannot be done, said in the model's terms. The layers below HTTP
 * throw these; src/http/error-status.ts alone gives each its status and problem document.
 */

/** One problem of a body or key: where (a JSON pointer, or a parameter's name) and what. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** No object with the key (404). */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotFoundError";
  }
}

/** The change collides with what is stored: a duplicate key, an object changed meanwhile (409). */
export class ConflictError extends Error {
  constructor(
    message: string,
    /** What collides, where it helps (the required references a deletion would break). */
    readonly errors?: FieldProblem[],
  ) {
    super(message);
    this.name = "ConflictError";
  }
}

/** A version condition as the request stated it: the header and its value. */
export interface StatedCondition {
  header: "If-Match" | "If-None-Match";
  value: string;
  want: "match" | "none";
}

/** The object's version failed one of the write's `conditions` (412); `what` names the object. */
export class PreconditionFailedError extends Error {
  constructor(
    readonly conditions: readonly StatedCondition[],
    readonly what: string,
  ) {
    super(`a precondition failed on ${what}`);
    this.name = "PreconditionFailedError";
  }
}

/** The request asks for what cannot be done as asked (400); `errors` where a field is to blame. */
export class InvalidInputError extends Error {
  constructor(
    message: string,
    readonly errors?: FieldProblem[],
  ) {
    super(message);
    this.name = "InvalidInputError";
  }
}

/** A well-formed body that does not fit its class (422): each problem at its JSON pointer. */
export class UnfitBodyError extends Error {
  constructor(
    message: string,
    readonly errors: FieldProblem[],
  ) {
    super(message);
    this.name = "UnfitBodyError";
  }
}
