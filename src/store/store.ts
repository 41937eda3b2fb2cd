/**
 * The store: where compiled statements run. Everything above it plans its work as batches, so a
 * request costs one round trip per batch whatever the driver (embedded libSQL, libSQL over HTTP,
 * and later D1, which has no interactive transactions). A batch is atomic: all or nothing.
 */
import type { Eventually } from "../util/eventually.ts";
import { withFields } from "../util/objects.ts";

/** A compiled statement: SQL text with `?` parameters, and their values. */
export interface Statement {
  sql: string;
  params: readonly unknown[];
  /** A read of one row at most (a store may fetch that row alone). */
  oneRow?: boolean;
  /**
   * A read whose cost the client decides (a query it wrote, which may join an extent to itself
   * ten times): a store whose engine shares the thread that answers requests runs it elsewhere
   * once it takes more than a moment there (src/store/embedded-store.ts, CLIENT_LANE_MS).
   */
  unbounded?: boolean;
  /**
   * A read whose cost no number of stored rows can grow: rows found by their primary keys, a fixed
   * number of them (a GET by key without collections, a HEAD's lookup of its key). A store that
   * stops statements at a time (`interrupts`) may check the time before it starts rather than arm
   * a limit on it: every armed limit costs the binding's timer thread a wake, shared with the calls
   * whose deadlines fall in the same step (src/store/embedded-connection.ts, `armedTimeout`). Its
   * time is still bounded by the size of the rows it reads (and its memory by `hard_heap_limit`).
   */
  fixedCost?: boolean;
}

/** The result of one statement: rows as arrays in select order, and the number of rows changed. */
export interface StatementResult {
  rows: unknown[][];
  rowsAffected: number;
}

export interface Store {
  /**
   * Runs the statements in order as one atomic batch, in one round trip. Given a `deadline` (a
   * `Date.now()` time), a store that `interrupts` stops the batch there, a statement running
   * included, rolls it back and throws `TimeLimitError`.
   */
  batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]>;
  /**
   * The batch's results at once, when this store runs it on the calling thread (an embedded
   * file's writes, its reads that no stored data can make long, `Statement.fixedCost`, and its
   * other reads that end within their lane's time there), as `batch` would answer them or throw;
   * else undefined, and the caller runs `batch` (`batchEventually` does both). A store without it
   * is always asked `batch`. What it saves is not the batch but the promises around it: every
   * layer from the store up to the route awaits one (test/bench/README.md, nineteenth
   * and twentieth parts).
   */
  batchNow?(statements: readonly Statement[], mode: "read" | "write", deadline?: number): StatementResult[] | undefined;
  /**
   * The store stops its own statements at the deadline it is given, writes included (embedded
   * files: the engine interrupts a statement). Other stores cannot take back a batch once sent:
   * a read is given up at the deadline, a write waited for.
   */
  readonly interrupts?: boolean;
  /** Runs schema statements at start-up, one after another (not on the request path). */
  migrate(statements: readonly Statement[]): Promise<StatementResult[]>;
  close(): void;
}

/** A constraint refused a write batch: the service says what that means for the request (src/service/write.ts, delete.ts). */
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

/**
 * The engine refused a statement for what it computes, within its own limits: nested beyond its
 * parser's stack or expression depth (`too-deep`), arithmetic past 64 bits (`integer-overflow`)
 * or a double (`out-of-range`), a LIKE pattern over 50,000 bytes (`pattern-too-long`). Only a
 * client's query can ask for those; src/service/query.ts says each in the query's terms.
 */
export class StoreRefusalError extends Error {
  constructor(
    readonly reason: "too-deep" | "integer-overflow" | "out-of-range" | "pattern-too-long",
    message: string,
  ) {
    super(message);
    this.name = "StoreRefusalError";
  }
}

/** Counts statements and round trips: the measure behind "no N+1" and "one round trip". */
export class CountingStore implements Store {
  statements = 0;
  roundTrips = 0;
  readonly interrupts?: boolean;
  constructor(readonly inner: Store) {
    this.interrupts = inner.interrupts;
  }
  batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    this.count(statements);
    return this.inner.batch(statements, mode, deadline);
  }
  /** Counted as `batch` counts: a batch answered, or refused (it was sent); not one left to `batch`. */
  batchNow(statements: readonly Statement[], mode: "read" | "write", deadline?: number): StatementResult[] | undefined {
    let results: StatementResult[] | undefined;
    try {
      results = this.inner.batchNow?.(statements, mode, deadline);
    } catch (error) {
      this.count(statements);
      throw error;
    }
    if (results) this.count(statements);
    return results;
  }
  private count(statements: readonly Statement[]): void {
    this.statements += statements.length;
    this.roundTrips += 1;
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

/**
 * The batch's results: at once when the store runs it on the calling thread (`Store.batchNow`),
 * else `batch`'s promise. The read paths call this rather than `batch`, so that no layer above
 * awaits a batch that has already run.
 */
export function batchEventually(store: Store, statements: readonly Statement[], mode: "read" | "write"): Eventually<StatementResult[]> {
  return store.batchNow?.(statements, mode) ?? store.batch(statements, mode);
}

/** The store as seen by reads whose cost the client decides (its queries): every statement is marked `unbounded`. */
export function unboundedReads(store: Store): Store {
  return new UnboundedReads(store);
}

const UNBOUNDED = { unbounded: true } as const;
const marked = (statements: readonly Statement[]) => statements.map((s) => withFields(s, UNBOUNDED));

/** A class, not an object of arrow functions: on Node, tsx names each such function as it is made, per query. */
class UnboundedReads implements Store {
  readonly interrupts: Store["interrupts"];
  constructor(private readonly store: Store) {
    this.interrupts = store.interrupts;
  }
  batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    return this.store.batch(marked(statements), mode);
  }
  batchNow(statements: readonly Statement[], mode: "read" | "write"): StatementResult[] | undefined {
    return this.store.batchNow?.(marked(statements), mode);
  }
  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.store.migrate(statements);
  }
  close(): void {
    this.store.close();
  }
}
