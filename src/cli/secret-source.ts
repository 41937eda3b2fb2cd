/**
 * The JWT flags over the context's `extent.auth.jwt.*` properties, and the secret's source read:
 * `env:NAME` names an environment variable, read here (the CLI owns the process) and never by the
 * handler, so the secret need not be written in a file or on the command line.
 */
import { SECRET_PROPERTY } from "../config/access.ts";
import type { PersistenceContext } from "../config/context.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function applyAuthFlags(
  context: PersistenceContext,
  flags: { jwtSecret?: string | undefined; jwtJwks?: string | undefined },
  env: Env = process.env,
): { ok: true } | { ok: false; message: string } {
  if (flags.jwtSecret !== undefined || flags.jwtJwks !== undefined) {
    const jwt = { ...context.access?.jwt };
    if (flags.jwtSecret !== undefined) jwt.secret = flags.jwtSecret;
    if (flags.jwtJwks !== undefined) jwt.jwks = flags.jwtJwks;
    context.access = { ...context.access, jwt };
  }
  const source = context.access?.jwt?.secret;
  if (source === undefined) return { ok: true };
  const secret = readSecret(source, flags.jwtSecret !== undefined ? "--jwt-secret" : SECRET_PROPERTY, env);
  if (!secret.ok) return secret;
  context.access!.jwt!.secret = secret.value;
  return { ok: true };
}

/**
 * A secret's source: `env:NAME` is the variable NAME's value, anything else the text itself.
 * `where` (the flag or property) starts the message of a refusal.
 */
export function readSecret(source: string, where: string, env: Env = process.env): { ok: true; value: string } | { ok: false; message: string } {
  const name = /^env:(.*)$/is.exec(source.trim())?.[1]?.trim();
  if (name === undefined) return { ok: true, value: source };
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { ok: false, message: `${where}: ${JSON.stringify(name)} is not an environment variable's name` };
  const value = env[name];
  if (!value) return { ok: false, message: `${where}: the environment variable ${name} is not set` };
  return { ok: true, value };
}
