/**
 * Embedded libSQL files on the `libsql` binding itself: the native engine that @libsql/client
 * wraps in embedded mode, without the wrapping (statements prepared once, rows as one text of
 * literals: src/store/embedded-connection.ts).
 *
 * Two lanes, so that no request can hold up the others (measured: test/hostile-load.test.ts):
 * - the main connection runs on the thread that answers requests, synchronously: every write (a
 *   batch never interleaves with another in this process; other processes are waited for, busy
 *   timeout), and the reads known to be short. A synchronous call costs about 5 µs; a call on the
 *   binding's worker threads about 25 µs, a tenth of a GET by key.
 * - a pool of reader connections runs, on the binding's worker threads, the reads that proved
 *   long: a read on the main connection gets `MAIN_LANE_MS` (or its request's deadline, if
 *   sooner), a read whose cost a client decides (`Statement.unbounded`: the queries it writes)
 *   `CLIENT_LANE_MS`; past that it is interrupted, its SQL is remembered as long, and it runs again
 *   in the pool (where a client's query may hold all readers but one), until it runs there in less
 *   than half of its lane's time, or until its next try in the lane (`LONG_READ_RETRY_MS` after
 *   the stop; twice as long after each stop since, up to `LONG_READ_RETRY_MAX_MS`) ends within it:
 *   a read stopped once because the machine was busy, not because it was long, comes back (the
 *   pool's time counts the hand-off, so a read of about half its lane never looks short there),
 *   and a read that is long costs its lane once in a while. Most queries clients write are index
 *   lookups answered in a fraction of CLIENT_LANE_MS: running them in the pool cost more than the
 *   query (a filter of the bench, 88 µs of SQL: 93 µs more a request on Node, 124 µs on Bun,
 *   in-process).
 * The lanes rest on the engine stopping a statement when its time is up, which it does between two
 * steps of the statement; a statement prepared again as it starts lost an interrupt that came
 * meanwhile (src/store/sql.ts, `unplanned`), and one step (a function over long values) is not
 * stopped. So a read on the main connection that ran `OVERRUN_MS` past its time shows that the
 * bound is not sure here: from then on, every read of this store that relies on it runs in the pool
 * (a `fixedCost` read, below, does not: it is never interrupted).
 * Every statement is interrupted at its request's deadline (the binding's `queryTimeout`) and its
 * batch rolled back: `TimeLimitError`; except a read whose cost no stored data can grow
 * (`Statement.fixedCost`: a GET by key without collections, a lookup of a few keys), which runs on
 * the main connection, checked against its deadline as it starts and not timed (a timed call costs
 * the binding's timer thread a wake, which calls share when their deadlines fall in one step of
 * the grid deadlines are rounded to: src/store/embedded-connection.ts, `armedTimeout`). A
 * `:memory:` database is one connection, so it has no pool: its reads all run on the main
 * connection (and still stop at their deadline).
 *
 * `hard_heap_limit` caps what SQLite may allocate in the whole process (it is a process-wide
 * setting): a statement that needs more fails with SQLITE_NOMEM, and the request answers 503,
 * instead of the process growing until the system kills it.
 */
import { BoundedCache } from "../cache/bounded-cache.ts";
import { type ColumnCheck, AsyncConnection, Stopped, SyncConnection } from "./embedded-connection.ts";
import { openAsync, openSync } from "./native-libsql.ts";
import { ReaderPool } from "./reader-pool.ts";
import { translateStoreError } from "./store-errors.ts";
import type { Statement, StatementResult, Store } from "./store.ts";
import { TimeLimitError } from "../errors/capacity-errors.ts";
import type { Synchronous } from "../config/context.ts";

export type { ColumnCheck } from "./embedded-connection.ts";

/** The longest a read may hold the thread that answers requests before it moves to the pool. */
export const MAIN_LANE_MS = 10;
/**
 * The same for a read whose cost a client decides (its query): a stream of new, long queries holds
 * the thread this long each at most (about what parsing and compiling a new query costs it anyway).
 * 2, not 1: the time left is counted in whole milliseconds of `Date.now()`.
 */
export const CLIENT_LANE_MS = 2;
/**
 * How far past its time a read on the main connection may end before the store stops running reads
 * there: far above what a busy machine adds to a statement that stopped in time (the thread
 * waiting for a CPU), far below what a read the engine did not stop holds it (seconds, measured).
 */
export const OVERRUN_MS = 100;
/**
 * How long a read that proved long runs in the pool before it is tried in its lane again; each
 * stop since doubles the wait, up to LONG_READ_RETRY_MAX_MS. So a long read holds the thread that
 * answers requests for its lane once a second at first, and about once a minute when it stays long.
 */
export const LONG_READ_RETRY_MS = 1000;
export const LONG_READ_RETRY_MAX_MS = 64_000;
/** Reader connections of a file (reads that run at once, beside the main connection). */
const DEFAULT_READERS = 2;
/** SQL texts remembered as long reads. */
const LONG_READS_LIMIT = 2000;

/** A read that proved long: when it is next tried in its lane, and the wait that led there. */
interface LongRead {
  retryAt: number;
  waitMs: number;
}
/**
 * The binding is built with temp storage in memory by default (SQLITE_TEMP_STORE=2), where a sort
 * never spills: an ORDER BY over a cartesian product grew the heap by about 100 MiB a second up to
 * the process-wide cap, and every other request then failed with it. On disk, a sorter keeps
 * cache_size pages in memory and writes the rest to a temp file that the statement's end deletes.
 * Only the readers, where every long read ends up, sort on disk: on the main connection a read
 * runs for MAIN_LANE_MS at most, and its writes use small temporary tables (VALUES lists, the
 * read-back's ordered subqueries) that a temp file per statement made 46 % slower on Bun (a POST
 * of six objects, test/bench/ab.ts). Without readers every read runs on the main connection, so it
 * sorts on disk too.
 */
const SORTS_ON_DISK = "PRAGMA temp_store = FILE";

export interface EmbeddedOptions {
  checkColumns?: ColumnCheck;
  /** Reader connections (default 2; 0: every read on the main connection). */
  readers?: number;
  /** What SQLite may allocate in this process, in bytes (`PRAGMA hard_heap_limit`; unset: no cap). */
  heapLimitBytes?: number;
  /** When commits reach the disk (`PRAGMA synchronous`, default full: see `PersistenceContext.synchronous`). */
  synchronous?: Synchronous;
}

export class EmbeddedStore implements Store {
  readonly interrupts = true;
  /** False once a read on the main connection ran OVERRUN_MS past its time: timed reads all go to the pool. */
  private readsOnMain = true;
  private readonly longReads = new BoundedCache<LongRead>(LONG_READS_LIMIT);

  private constructor(
    private readonly main: SyncConnection,
    private readonly pool: ReaderPool | undefined,
  ) {}

  /** Opens `path` (or `:memory:`): WAL journal, and a wait of up to 5 s on another process's write lock. */
  static async open(path: string, options: EmbeddedOptions = {}): Promise<EmbeddedStore> {
    const db = await openSync(path);
    if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA busy_timeout = 5000");
    // Only this connection writes (the readers are query_only), so only its commits sync.
    db.exec(`PRAGMA synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    if (options.heapLimitBytes !== undefined) db.exec(`PRAGMA hard_heap_limit = ${Math.floor(options.heapLimitBytes)}`);
    const readers = path === ":memory:" ? 0 : (options.readers ?? DEFAULT_READERS);
    if (readers === 0) db.exec(SORTS_ON_DISK);
    const connect = async () => {
      const reader = await openAsync(path);
      await reader.exec("PRAGMA busy_timeout = 5000");
      await reader.exec("PRAGMA query_only = 1");
      await reader.exec(SORTS_ON_DISK);
      return new AsyncConnection(reader, options.checkColumns);
    };
    const connections = await Promise.all(Array.from({ length: readers }, connect));
    return new EmbeddedStore(new SyncConnection(db, options.checkColumns), readers ? new ReaderPool(connections, connect) : undefined);
  }

  async batch(statements: readonly Statement[], mode: "read" | "write", deadline = Infinity): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    if (this.runsAtOnce(statements, mode)) return this.onMain(statements, mode, deadline);
    const unbounded = statements.some((s) => s.unbounded);
    if (!this.readsOnMain) return this.inPool(statements, deadline, unbounded);
    const long = this.knownLong(statements);
    if (long) {
      // Back to the main connection when it proves short after all (a busy machine, not the read, was slow).
      return this.inPool(statements, deadline, unbounded, (ms) => ms < laneOf(unbounded) / 2 && this.longReads.delete(long));
    }
    return this.inLane(statements, deadline, unbounded) ?? this.inPool(statements, deadline, unbounded);
  }

  /**
   * What `batch` runs on the main connection is run now: a batch without a lane, and a read within
   * its lane's time (undefined when the lane stopped it: it is then known as long, and `batch`
   * sends it to the pool). Any other batch is left to `batch`.
   */
  batchNow(statements: readonly Statement[], mode: "read" | "write", deadline = Infinity): StatementResult[] | undefined {
    if (statements.length === 0) return undefined;
    if (this.runsAtOnce(statements, mode)) return this.onMain(statements, mode, deadline);
    if (!this.readsOnMain || this.knownLong(statements)) return undefined;
    return this.inLane(
      statements,
      deadline,
      statements.some((s) => s.unbounded),
    );
  }

  /** The SQL of a statement of the batch that has proved long and is not yet due another try in its lane (the batch runs in the pool). */
  private knownLong(statements: readonly Statement[]): string | undefined {
    if (this.longReads.size === 0) return undefined;
    const now = Date.now();
    for (const s of statements) {
      const long = this.longReads.find(s.sql);
      if (long && long.retryAt > now) return s.sql;
    }
    return undefined;
  }

  /** Remembers the read of `sql` as long: in the pool for a while, twice as long as the last time if it was stopped again. */
  private provedLong(sql: string): void {
    const known = this.longReads.find(sql);
    if (!known) {
      this.longReads.get(sql, () => ({ retryAt: Date.now() + LONG_READ_RETRY_MS, waitMs: LONG_READ_RETRY_MS }));
      return;
    }
    known.waitMs = Math.min(known.waitMs * 2, LONG_READ_RETRY_MAX_MS);
    known.retryAt = Date.now() + known.waitMs;
  }

  /** A batch ran within its lane: none of its statements is long any more (it was their try). */
  private provedShort(statements: readonly Statement[]): void {
    if (this.longReads.size === 0) return;
    for (const s of statements) this.longReads.delete(s.sql);
  }

  /**
   * A read on the main connection within its lane's time (or its deadline, if sooner); undefined
   * when the lane stopped it, its statement then remembered as long.
   */
  private inLane(statements: readonly Statement[], deadline: number, unbounded: boolean): StatementResult[] | undefined {
    const budget = Math.min(deadline, Date.now() + laneOf(unbounded));
    try {
      const results = this.main.batch(statements, "read", budget);
      this.provedShort(statements);
      return results;
    } catch (error) {
      if (!(error instanceof Stopped) || budget >= deadline) throw translated(error);
      this.provedLong(error.sql);
      return undefined;
    } finally {
      // However it ended (answered, stopped or failed), so late a read was not stopped in time.
      if (this.readsOnMain && Date.now() > budget + OVERRUN_MS) {
        this.readsOnMain = false;
        console.error(
          `[extent] a read ran ${Date.now() - budget} ms past its time on the thread that answers requests; every timed read now runs in the reader pool: ${statements[0]!.sql.slice(0, 200)}`,
        );
      }
    }
  }

  /**
   * Whether a batch runs on the main connection with no lane: a write, any read of a store without
   * a pool (`:memory:`), and a read no stored data can make long (checked against its deadline, not timed).
   */
  private runsAtOnce(statements: readonly Statement[], mode: "read" | "write"): boolean {
    return mode === "write" || !this.pool || statements.every((s) => s.fixedCost);
  }

  /** Whether reads may still run on the thread that answers requests (see OVERRUN_MS). */
  get readsOnMainThread(): boolean {
    return this.readsOnMain;
  }

  private onMain(statements: readonly Statement[], mode: "read" | "write", deadline: number): StatementResult[] {
    try {
      return this.main.batch(statements, mode, deadline);
    } catch (error) {
      throw translated(error);
    }
  }

  private async inPool(statements: readonly Statement[], deadline: number, unbounded: boolean, ran?: (ms: number) => void): Promise<StatementResult[]> {
    try {
      return await this.pool!.batch(statements, deadline, unbounded, ran);
    } catch (error) {
      throw translated(error);
    }
  }

  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.batch(statements, "write");
  }

  close(): void {
    this.pool?.close();
    this.main.db.close();
  }
}

/** The time a read may take on the main connection: a client's query less than Extent's own reads. */
function laneOf(unbounded: boolean): number {
  return unbounded ? CLIENT_LANE_MS : MAIN_LANE_MS;
}

function translated(error: unknown): unknown {
  return error instanceof Stopped ? new TimeLimitError(0) : translateStoreError(error);
}
