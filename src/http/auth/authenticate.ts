/**
 * Authentication as Hono middleware, mounted only when access control is configured (so a
 * handler without it pays nothing per request): each request's principal, stored on its context
 * (`principal`) for the rules to come. The app's own `authenticate(request)` first, when given;
 * then the `Authorization: Bearer` token; without credentials, the anonymous role. Bad credentials
 * are a 401 whatever the path. No rule exists yet: every principal may do everything.
 */
import type { Principal, ResolvedAccess } from "../../config/access.ts";
import { InvalidTokenError } from "../../errors/auth-errors.ts";
import { TokenVerifier } from "./verify-token.ts";

const BEARER = /^Bearer +([^\s]+) *$/i;

export class Authenticator {
  readonly verifier: TokenVerifier | undefined;
  private readonly anonymous: Principal;

  constructor(private readonly access: ResolvedAccess) {
    this.verifier = access.secret || access.jwks ? new TokenVerifier(access) : undefined;
    this.anonymous = Object.freeze({ roles: Object.freeze(access.anonymousRole ? [access.anonymousRole] : []), claims: Object.freeze({}), anonymous: true });
  }

  /** The principal of `request`; an InvalidTokenError when its credentials are refused. */
  async principal(request: Request): Promise<Principal> {
    if (this.access.authenticate) {
      const given = await this.access.authenticate(request);
      if (given) return given;
    }
    const header = request.headers.get("authorization");
    if (header === null) return this.anonymous;
    const token = BEARER.exec(header)?.[1];
    if (!token) throw new InvalidTokenError("the Authorization header is not a Bearer token");
    if (!this.verifier) throw new InvalidTokenError("this server verifies no tokens");
    return this.verifier.principal(token);
  }
}
