/**
 * Every driver reports a failed constraint or a locked database as SQLite's message inside its own
 * error type (`LibsqlError`, `SqliteError`, D1's `D1_ERROR: ...`). The message is what they share,
 * so the translation into the store's errors is read from it once, here.
 */
import { StoreBusyError, StoreConstraintError } from "./store.ts";
import { GUARD_TABLE, SEQUENCE_TABLE } from "./migrate.ts";

const GUARD = new RegExp(`NOT NULL constraint failed: ${GUARD_TABLE}\\.(\\w+)`);
/** A sequence asked for numbers past the largest long (write-plan.ts sets NULL): the guard "sequence". */
const SEQUENCE_END = new RegExp(`NOT NULL constraint failed: ${SEQUENCE_TABLE}\\.next_value`);

/**
 * The error as a `StoreConstraintError` when a constraint refused the batch, a `StoreBusyError`
 * when another writer held the database past the busy timeout; otherwise unchanged.
 */
export function translateStoreError(error: unknown): unknown {
  const message = String((error as Error)?.message ?? error);
  if (/SQLITE_BUSY|database is locked/i.test(message)) return new StoreBusyError(message);
  if (!/constraint failed/i.test(message)) return error;
  const guard = GUARD.exec(message);
  if (guard) return new StoreConstraintError("guard", message, guard[1]);
  if (SEQUENCE_END.test(message)) return new StoreConstraintError("guard", message, "sequence");
  if (/UNIQUE constraint failed|PRIMARY KEY/i.test(message)) return new StoreConstraintError("unique", message);
  return new StoreConstraintError("other", message);
}
