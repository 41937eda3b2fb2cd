/**
 * Every driver reports a failed constraint as SQLite's message inside its own error type
 * (`LibsqlError`, D1's `D1_ERROR: ...`). The message is what they share, so the translation into
 * a `StoreConstraintError` is read from it once, here.
 */
import { StoreConstraintError } from "./store.ts";
import { GUARD_TABLE } from "./migrate.ts";

const GUARD = new RegExp(`NOT NULL constraint failed: ${GUARD_TABLE}\\.(\\w+)`);

/** The error as a `StoreConstraintError` when a constraint refused the batch; otherwise unchanged. */
export function translateConstraintError(error: unknown): unknown {
  const message = String((error as Error)?.message ?? error);
  if (!/constraint failed/i.test(message)) return error;
  const guard = GUARD.exec(message);
  if (guard) return new StoreConstraintError("guard", message, guard[1]);
  if (/UNIQUE constraint failed|PRIMARY KEY/i.test(message)) return new StoreConstraintError("unique", message);
  return new StoreConstraintError("other", message);
}
