/**
 * Bearer JWTs verified with Hono's JWT utilities (WebCrypto underneath, so on every runtime):
 * HS* against the secret, RS*, PS*, ES* and EdDSA against the JWKS. `exp` and `nbf` hold with 60 s
 * of leeway (checked here: Hono's own checks have none), `iss` and `aud` when configured. A
 * verified token is kept (bounded LRU, keyed by its text) until its `exp`, so a client's repeated
 * requests do not pay for the signature again.
 */
import { decodeHeader, verify, verifyWithJwks } from "hono/utils/jwt/jwt";
import type { AsymmetricAlgorithm } from "hono/utils/jwt/jwa";
import type { JWTPayload } from "hono/utils/jwt/types";
import { BoundedCache } from "../../cache/bounded-cache.ts";
import type { Principal, ResolvedAccess } from "../../config/access.ts";
import { InvalidTokenError } from "../../errors/auth-errors.ts";
import { KeySet } from "./key-set.ts";

/** Seconds a clock may be off: `exp` and `nbf` hold this much later and earlier. */
export const LEEWAY_S = 60;
/** Verified tokens kept, and their total characters (a token weighs its text). */
export const VERIFIED_TOKEN_LIMIT = 10_000;
export const VERIFIED_TOKEN_WEIGHT = 10_000_000;

const HMAC = new Set(["HS256", "HS384", "HS512"]);
const ASYMMETRIC: readonly AsymmetricAlgorithm[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as AsymmetricAlgorithm[];

interface Verified {
  principal: Principal;
  /** `exp` in seconds, when the token has one. */
  exp: number | undefined;
}

export class TokenVerifier {
  private readonly verified = new BoundedCache<Promise<Verified>>(VERIFIED_TOKEN_LIMIT, { limit: VERIFIED_TOKEN_WEIGHT, weigh: (token) => token.length });
  private readonly keySet: KeySet | undefined;
  /** How many signatures were checked (tests: a cached token is not checked again). */
  verifications = 0;

  constructor(private readonly access: ResolvedAccess) {
    this.keySet = access.jwks && new KeySet(access.jwks.url, access.jwks.timeoutMs, access.jwks.refreshMs);
  }

  /** How many times the JWKS was fetched (tests). */
  get jwksFetches(): number {
    return this.keySet?.fetches ?? 0;
  }

  /** The principal of a valid token; an InvalidTokenError says why a token is not. */
  async principal(token: string): Promise<Principal> {
    let built: Promise<Verified> | undefined;
    const pending = this.verified.get(token, () => (built = this.verify(token)));
    // A refused token is not kept (concurrent requests with it share the one check meanwhile).
    if (built) built.catch(() => this.verified.delete(token));
    const { principal, exp } = await pending;
    if (exp !== undefined && exp + LEEWAY_S <= Date.now() / 1000) {
      this.verified.delete(token);
      throw new InvalidTokenError("the token has expired");
    }
    return principal;
  }

  private async verify(token: string): Promise<Verified> {
    let alg: string;
    let kid: string | undefined;
    try {
      ({ alg, kid } = decodeHeader(token));
    } catch {
      throw new InvalidTokenError("the token is not a JWT");
    }
    const { issuer, audience } = this.access;
    // exp, nbf and iat are checked below, with leeway.
    const verification = { exp: false, nbf: false, iat: false, ...(issuer ? { iss: issuer } : {}), ...(audience ? { aud: audience } : {}) };
    let payload: JWTPayload;
    this.verifications++;
    try {
      if (HMAC.has(alg) && this.access.secret) {
        payload = await verify(token, this.access.secret, { alg: alg as "HS256", ...verification });
      } else if (ASYMMETRIC.includes(alg as AsymmetricAlgorithm) && this.keySet) {
        const key = await this.keySet.key(kid);
        payload = await verifyWithJwks(token, { keys: [key], allowedAlgorithms: ASYMMETRIC, verification });
      } else {
        throw new InvalidTokenError(`tokens signed with ${JSON.stringify(alg)} are not accepted here`);
      }
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      throw new InvalidTokenError(reason(error));
    }
    const now = Date.now() / 1000;
    const { exp, nbf } = payload;
    if (exp !== undefined && (typeof exp !== "number" || !Number.isFinite(exp))) throw new InvalidTokenError("the token's exp is not a number");
    if (nbf !== undefined && (typeof nbf !== "number" || !Number.isFinite(nbf))) throw new InvalidTokenError("the token's nbf is not a number");
    if (exp !== undefined && exp + LEEWAY_S <= now) throw new InvalidTokenError("the token has expired");
    if (nbf !== undefined && nbf - LEEWAY_S > now) throw new InvalidTokenError("the token is not valid yet");
    return { principal: { roles: this.rolesOf(payload), claims: Object.freeze({ ...payload }) }, exp };
  }

  /** The roles claim: the first of the configured claims the token has, a string or an array of strings. */
  private rolesOf(payload: JWTPayload): string[] {
    for (const claim of this.access.rolesClaims) {
      const value = payload[claim];
      if (value === undefined) continue;
      if (typeof value === "string") return [value];
      if (Array.isArray(value) && value.every((r) => typeof r === "string")) return value as string[];
      throw new InvalidTokenError(`the token's ${claim} claim is neither a string nor an array of strings`);
    }
    return [];
  }
}

/** What Hono's error says, in a client's terms (its messages may quote the whole token). */
function reason(error: unknown): string {
  switch ((error as Error).name) {
    case "JwtTokenSignatureMismatched":
      return "the token's signature does not match";
    case "JwtTokenIssuer":
      return `the token's issuer is not the one this server accepts`;
    case "JwtTokenAudience":
    case "JwtPayloadRequiresAud":
      return `the token's audience is not this server`;
    case "JwtHeaderInvalid":
      return "the token's header is not valid (an accepted alg, typ JWT, no crit)";
    case "JwtAlgorithmMismatch":
      return "the token's alg does not match its key";
    default:
      return "the token is not valid";
  }
}
