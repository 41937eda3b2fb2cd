/**
 * Credentials the server does not accept: a malformed, expired, not yet valid or wrongly signed
 * token, one for another issuer or audience, or one whose key cannot be found (401 with
 * `WWW-Authenticate: Bearer error="invalid_token"`, src/http/error-status.ts).
 */
export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidTokenError";
  }
}

/**
 * The principal has no grant for what the request asks (contract §8): 401 with
 * `WWW-Authenticate: Bearer` for a request without credentials, else 403.
 */
export class ForbiddenError extends Error {
  constructor(
    message: string,
    /** The request came without credentials: a token might be granted what the anonymous role is not. */
    readonly anonymous: boolean,
  ) {
    super(message);
    this.name = "ForbiddenError";
  }
}
