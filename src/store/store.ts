/**
 * The store: where compiled statements run. Everything above it plans its work as batches, so a
 * request costs one round trip per batch whatever the driver (embedded libSQL, libSQL over HTTP,
 * and later D1, which has no interactive transactions). A batch is atomic: all or nothing.
 */

/** A compiled statement: SQL text with `?` parameters, and their values. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
  /** A read of one row at most (a store may fetch that row alone). */
  oneRow?: boolean;
}

/** The result of one statement: rows as arrays in select order, and the number of rows changed. */
export interface StatementResult {
  rows: unknown[][];
  rowsAffected: number;
}

export interface Store {
  /**
   * Runs the statements in order as one atomic batch, in one round trip. A read given a
   * `deadline` (a `Date.now()` time) may stop at it with a `TimeLimitError`; writes always finish.
   */
  batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]>;
  /** The driver runs a batch synchronously (embedded files): a timer cannot fire while it runs. */
  readonly blocking?: boolean;
  /** Runs schema statements at start-up, one after another (not on the request path). */
  migrate(statements: readonly Statement[]): Promise<StatementResult[]>;
  close(): void;
}

/** A store error the request layer can turn into a precise status. */
export class StoreConstraintError extends Error {
  /** `unique` for duplicate keys, `guard` for a failed precondition, `other` for any other refusal. */
  readonly kind: "unique" | "guard" | "other";
  /** For guards: which precondition failed (the guard column's name). */
  readonly guard?: string;
  constructor(kind: "unique" | "guard" | "other", message: string, guard?: string) {
    super(message);
    this.name = "StoreConstraintError";
    this.kind = kind;
    this.guard = guard;
  }
}

/** The database stayed locked by another writer past the wait: the request may be retried (503). */
export class StoreBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreBusyError";
  }
}

/** A request ran past its time limit before its answer started: nothing was changed (503). */
export class TimeLimitError extends Error {
  constructor(readonly limitMs: number) {
    super(`the request took longer than ${limitMs} ms`);
    this.name = "TimeLimitError";
  }
}

/** Counts statements and round trips: the measure behind "no N+1" and "one round trip". */
export class CountingStore implements Store {
  statements = 0;
  roundTrips = 0;
  readonly blocking?: boolean;
  constructor(readonly inner: Store) {
    this.blocking = inner.blocking;
  }
  batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    this.statements += statements.length;
    this.roundTrips += 1;
    return this.inner.batch(statements, mode, deadline);
  }
  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.inner.migrate(statements);
  }
  reset(): void {
    this.statements = 0;
    this.roundTrips = 0;
  }
  close(): void {
    this.inner.close();
  }
}
