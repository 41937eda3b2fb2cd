/**
 * The JWT flags over the context's `extent.auth.jwt.*` properties, and the secret's source read:
 * `env:NAME` names an environment variable, read here (the CLI owns the process) and never by the
 * handler, so the secret need not be written in a file or on the command line.
 */
import { SECRET_PROPERTY } from "../config/access.ts";
import type { PersistenceContext } from "../config/context.ts";

export function applyAuthFlags(
  context: PersistenceContext,
  flags: { jwtSecret?: string | undefined; jwtJwks?: string | undefined },
  env: Readonly<Record<string, string | undefined>> = process.env,
): { ok: true } | { ok: false; message: string } {
  if (flags.jwtSecret !== undefined || flags.jwtJwks !== undefined) {
    const jwt = { ...context.access?.jwt };
    if (flags.jwtSecret !== undefined) jwt.secret = flags.jwtSecret;
    if (flags.jwtJwks !== undefined) jwt.jwks = flags.jwtJwks;
    context.access = { ...context.access, jwt };
  }
  const source = context.access?.jwt?.secret;
  if (source === undefined) return { ok: true };
  const name = /^env:(.*)$/is.exec(source.trim())?.[1]?.trim();
  if (name === undefined) return { ok: true };
  const where = flags.jwtSecret !== undefined ? "--jwt-secret" : SECRET_PROPERTY;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { ok: false, message: `${where}: ${JSON.stringify(name)} is not an environment variable's name` };
  const value = env[name];
  if (!value) return { ok: false, message: `${where}: the environment variable ${name} is not set` };
  context.access!.jwt!.secret = value;
  return { ok: true };
}
