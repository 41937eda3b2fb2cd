/**
 * Every driver reports a failed constraint or a locked database as SQLite's message inside its own
 * error type (`LibsqlError`, `SqliteError`, D1's `D1_ERROR: ...`). The message is what they share,
 * so the translation into the store's errors is read from it once, here.
 */
import { StoreBusyError, StoreMemoryError, StoreTooBigError } from "../errors/capacity-errors.ts";
import { StoreConstraintError, StoreRefusalError } from "./store.ts";
import { GUARD_TABLE, SEQUENCE_TABLE } from "./reserved-tables.ts";

const GUARD = new RegExp(`NOT NULL constraint failed: ${GUARD_TABLE}\\.(\\w+)`);
/** A sequence asked for numbers past the largest long (write-plan.ts sets NULL): the guard "sequence". */
const SEQUENCE_END = new RegExp(`NOT NULL constraint failed: ${SEQUENCE_TABLE}\\.next_value`);

/** What SQLite refuses in a statement it could prepare, by what the statement computes (see `StoreRefusalError`). */
const REFUSALS: readonly [RegExp, StoreRefusalError["reason"]][] = [
  [/parser stack overflow|Expression tree is too large|too many terms in compound SELECT/i, "too-deep"],
  [/integer overflow/i, "integer-overflow"],
  [/Numerical (argument out of domain|result out of range)/i, "out-of-range"],
  [/LIKE or GLOB pattern too complex/i, "pattern-too-long"],
];

/**
 * The error as a `StoreConstraintError` when a constraint refused the batch, a `StoreBusyError`
 * when another writer held the database past the busy timeout, a `StoreMemoryError` when the
 * engine ran out of the memory it may use, a `StoreTooBigError` when it refused to build a value
 * past its length limit, a `StoreRefusalError` when it refused what a statement computes;
 * otherwise unchanged.
 */
export function translateStoreError(error: unknown): unknown {
  const message = String((error as Error)?.message ?? error);
  if (/SQLITE_BUSY|database is locked/i.test(message)) return new StoreBusyError(message);
  if ((error as { code?: string })?.code === "SQLITE_NOMEM" || /^out of memory$/i.test(message)) return new StoreMemoryError(message);
  if (/string or blob too big/i.test(message)) return new StoreTooBigError(message);
  if (!/constraint failed/i.test(message)) {
    for (const [pattern, reason] of REFUSALS) if (pattern.test(message)) return new StoreRefusalError(reason, message);
    return error;
  }
  const guard = GUARD.exec(message);
  if (guard) return new StoreConstraintError("guard", message, guard[1]);
  if (SEQUENCE_END.test(message)) return new StoreConstraintError("guard", message, "sequence");
  if (/UNIQUE constraint failed|PRIMARY KEY/i.test(message)) return new StoreConstraintError("unique", message);
  return new StoreConstraintError("other", message);
}
