/**
 * `extent token`: mints a development JWT signed with Hono's JWT utilities, the library the
 * handler verifies with (src/http/auth/verify-token.ts), so what it prints is what
 * `extent serve --jwt-secret` accepts. Only the token goes to stdout: `TOKEN=$(extent token ...)`.
 */
import { sign } from "hono/jwt";
import type { JWTPayload } from "hono/utils/jwt/types";
import { readSecret } from "./secret-source.ts";
import { TOKEN_USAGE, type TokenOptions, parseTokenArgs } from "./token-args.ts";

/** The variable read when --secret is not given. */
export const SECRET_VARIABLE = "EXTENT_JWT_SECRET";

type Env = Readonly<Record<string, string | undefined>>;

/** The secret to sign with: --secret (text or env:NAME), else EXTENT_JWT_SECRET. */
export function tokenSecret(source: string | undefined, env: Env = process.env): { ok: true; value: string } | { ok: false; message: string } {
  if (source !== undefined) return readSecret(source, "--secret", env);
  const value = env[SECRET_VARIABLE];
  if (value) return { ok: true, value };
  return { ok: false, message: `--secret is required (or set the environment variable ${SECRET_VARIABLE})` };
}

/** The token's claims; `now` in seconds. */
export function tokenPayload(options: TokenOptions, now: number): JWTPayload {
  return {
    sub: options.sub,
    ...(options.roles ? { roles: options.roles } : {}),
    iat: now,
    ...(options.expires === null ? {} : { exp: now + options.expires }),
    ...(options.issuer ? { iss: options.issuer } : {}),
    ...(options.audience ? { aud: options.audience } : {}),
    // No --claim names a claim set above (parseTokenArgs refuses it), so none overrides one.
    ...options.claims,
  };
}

/** The signed token. */
export function mintToken(options: TokenOptions, secret: string, now = Math.floor(Date.now() / 1000)): Promise<string> {
  return sign(tokenPayload(options, now), secret, options.alg);
}

/** Runs `extent token` with its arguments: the token on stdout, or a message and the usage on stderr and exit code 1. */
export async function runToken(argv: readonly string[], env: Env = process.env): Promise<void> {
  const fail = (message: string): never => {
    console.error(`extent token: ${message}\n\n${TOKEN_USAGE}`);
    process.exit(1);
  };
  const args = parseTokenArgs(argv);
  if (!args.ok) return fail(args.message);
  if ("help" in args) return void console.log(TOKEN_USAGE);
  const secret = tokenSecret(args.options.secret, env);
  if (!secret.ok) return fail(secret.message);
  process.stdout.write((await mintToken(args.options, secret.value)) + "\n");
}
