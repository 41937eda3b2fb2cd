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
