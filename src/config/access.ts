/**
 * Access control's configuration (contract §8), in code (`access` in the persistence context) or
 * as `extent.auth.*` and `extent.access.file` properties, validated once at start-up with valibot:
 * a mistake names the property. The rules themselves are checked against the model by
 * src/access/policy.ts.
 */
import * as v from "valibot";

/** Who makes a request: its roles and the claims of its token (or of `authenticate`). */
export interface Principal {
  roles: readonly string[];
  claims: Readonly<Record<string, unknown>>;
  /** A request without credentials (its roles are the anonymous role): refused, it is asked for them (401), not forbidden (403). */
  anonymous?: boolean;
}

export interface AccessOptions {
  jwt?: {
    /** HS256/384/512 secret. A file's `env:NAME` is read by whoever loads the file (the CLI), never here. */
    secret?: string;
    /** URL of a JWKS (RS*, PS*, ES*, EdDSA keys), fetched once, refreshed on an unknown `kid`. */
    jwks?: string;
    /** The `iss` a token must have, when given. */
    issuer?: string;
    /** An `aud` a token must have, when given. */
    audience?: string;
    /** How long one fetch of the JWKS may take, in milliseconds (default 5000). */
    jwksTimeoutMs?: number;
    /** The least time between two fetches of the JWKS, in milliseconds (default 30000): an unknown `kid` refreshes no more often. */
    jwksRefreshMs?: number;
  };
  /** The claim holding the roles, a string or an array (default `roles`, then `role`). */
  rolesClaim?: string;
  /** The role of a request without credentials (default: none). */
  anonymousRole?: string;
  /**
   * For apps that authenticate requests themselves: the principal of a request, or nothing (then a
   * Bearer token is verified when a JWT source is configured, else the request is anonymous).
   */
  authenticate?: (request: Request) => Principal | null | undefined | Promise<Principal | null | undefined>;
  /**
   * The rules (contract §8): the parsed JSON of the rules file, or the same object in code.
   * Checked against the model when the handler is built (src/access/policy.ts).
   */
  rules?: unknown;
  /** How errors in `rules` name them: the file they were read from (default `access.rules`). */
  rulesSource?: string;
  /**
   * The rules file (`extent.access.file`), relative to the configuration folder: the CLI reads it
   * into `rules`. In code, give `rules` instead (the handler reads no files).
   */
  file?: string;
}

/** The properties that configure `access`, each with the option it sets. */
export const ACCESS_PROPERTIES = {
  "extent.auth.jwt.secret": ["jwt", "secret"],
  "extent.auth.jwt.jwks": ["jwt", "jwks"],
  "extent.auth.jwt.issuer": ["jwt", "issuer"],
  "extent.auth.jwt.audience": ["jwt", "audience"],
  "extent.auth.roles-claim": ["rolesClaim"],
  "extent.auth.anonymous-role": ["anonymousRole"],
  "extent.access.file": ["file"],
} as const;

export const SECRET_PROPERTY = "extent.auth.jwt.secret";

/** `access` as the handler uses it: validated, with its defaults. */
export interface ResolvedAccess {
  secret?: string;
  jwks?: { url: string; timeoutMs: number; refreshMs: number };
  issuer?: string;
  audience?: string;
  /** The claims read for roles, in order: the first present one counts. */
  rolesClaims: readonly string[];
  anonymousRole?: string;
  authenticate?: AccessOptions["authenticate"];
  rules?: unknown;
  rulesSource: string;
}

const text = v.pipe(v.string("must be text"), v.trim(), v.minLength(1, "must not be empty"));
const url = v.pipe(text, v.url("must be a URL"), v.regex(/^https?:\/\//i, "must be an http(s) URL"));
const millis = v.pipe(v.number(), v.safeInteger("must be a whole number"), v.minValue(0, "must not be negative"));

const Schema = v.strictObject({
  jwt: v.optional(
    v.strictObject({
      secret: v.optional(
        v.pipe(
          text,
          v.check((s) => !/^env:/i.test(s), "names an environment variable (env:NAME) that was not read: the CLI reads it, code passes the secret itself"),
        ),
      ),
      jwks: v.optional(url),
      issuer: v.optional(text),
      audience: v.optional(text),
      jwksTimeoutMs: v.optional(v.pipe(millis, v.minValue(1, "must be at least 1"))),
      jwksRefreshMs: v.optional(millis),
    }),
  ),
  rolesClaim: v.optional(text),
  anonymousRole: v.optional(text),
  authenticate: v.optional(v.function("must be a function")),
  rules: v.optional(v.unknown()),
  rulesSource: v.optional(text),
  file: v.optional(text),
});

/** Where `access.<path>` comes from in a file, for the message. */
function propertyOf(path: string): string {
  const found = Object.entries(ACCESS_PROPERTIES).find(([, p]) => p.join(".") === path);
  return found ? `access.${path} (${found[0]})` : `access.${path}`;
}

/**
 * The access configuration in force, or `undefined` when none is given (then no request pays for
 * it). Throws a RangeError naming the option and its property when a value is not allowed.
 */
export function resolveAccess(access: AccessOptions | undefined): ResolvedAccess | undefined {
  if (access === undefined) return undefined;
  const parsed = v.safeParse(Schema, access);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = (issue.path ?? []).map((p) => String(p.key)).join(".");
    throw new RangeError(`${propertyOf(path)}: ${issue.message}`);
  }
  const { jwt, rolesClaim, anonymousRole, authenticate, rules, rulesSource, file } = parsed.output;
  if (file !== undefined && rules === undefined) {
    throw new RangeError(`${propertyOf("file")}: the rules file is read by the CLI (extent serve); in code, give the rules themselves as access.rules`);
  }
  if (jwt && !jwt.secret && !jwt.jwks) throw new RangeError(`access.jwt: needs a secret (extent.auth.jwt.secret) or a JWKS URL (extent.auth.jwt.jwks)`);
  return {
    ...(jwt?.secret ? { secret: jwt.secret } : {}),
    ...(jwt?.jwks ? { jwks: { url: jwt.jwks, timeoutMs: jwt.jwksTimeoutMs ?? 5000, refreshMs: jwt.jwksRefreshMs ?? 30_000 } } : {}),
    ...(jwt?.issuer ? { issuer: jwt.issuer } : {}),
    ...(jwt?.audience ? { audience: jwt.audience } : {}),
    rolesClaims: rolesClaim ? [rolesClaim] : ["roles", "role"],
    ...(anonymousRole ? { anonymousRole } : {}),
    ...(authenticate ? { authenticate: authenticate as AccessOptions["authenticate"] } : {}),
    ...(rules !== undefined ? { rules } : {}),
    rulesSource: rulesSource ?? file ?? "access.rules",
  };
}

/** `access` from `extent.auth.*` properties (as given: the secret's `env:NAME` is read by the loader), or undefined when none is set. */
export function accessFromProperties(properties: Readonly<Record<string, string>>): AccessOptions | undefined {
  let access: Record<string, unknown> | undefined;
  for (const [property, path] of Object.entries(ACCESS_PROPERTIES)) {
    const value = properties[property];
    if (value === undefined) continue;
    access ??= {};
    if (path.length === 2) ((access[path[0]] ??= {}) as Record<string, unknown>)[path[1]] = value;
    else access[path[0]] = value;
  }
  return access as AccessOptions | undefined;
}
