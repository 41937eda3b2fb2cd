/**
 * One connection of the embedded store, in either of the binding's faces (src/store/native-libsql.ts):
 * `SyncConnection` runs on the calling thread, `AsyncConnection` on the binding's worker threads.
 * Both keep their prepared statements (a bounded LRU by SQL text), answer rows the same way and stop
 * a batch at its `stopAt` time (a `Date.now()` instant): a statement still running then is
 * interrupted, the batch rolled back, and `Stopped` thrown. Other errors are the driver's, untranslated.
 *
 * Rows never come through the binding's row iterator, which keeps about 930 bytes of native memory
 * per call that nothing frees: a read of one row (`oneRow`) fetches it alone, any other read answers
 * its rows as one text of SQL literals (quoted-rows.ts), which is also faster to read.
 */
import { BoundedCache } from "../cache/bounded-cache.ts";
import { type AsyncDatabase, type AsyncStatement, type CallOptions, type SyncDatabase, type SyncStatement, isInterrupt } from "./native-libsql.ts";
import { decodeQuotedRows, quotedRowsSql } from "./quoted-rows.ts";
import type { Statement, StatementResult } from "./store.ts";

/** Prepared statements kept per connection: the SQL texts are Extent's own (bounded by its plan caches). */
const STATEMENT_LIMIT = 2000;

/** A batch reached its `stopAt` time: `sql` is the statement that was stopped (or would have started). */
export class Stopped extends Error {
  constructor(readonly sql: string) {
    super("stopped at its time limit");
    this.name = "Stopped";
  }
}

/** Called with each statement and its result's column names (tests check them). */
export type ColumnCheck = (sql: string, columns: readonly string[]) => void;

/**
 * A prepared statement and how it answers: a write; or a read, whose one row is fetched alone with
 * `stmt` and whose rows come through `wrapper` as one text of `width` values a row, prepared the
 * first time they are asked for (null: the read cannot be wrapped, a PRAGMA, and takes the row
 * iterator, at start-up only).
 */
type Prepared<S> = { kind: "write"; stmt: S } | { kind: "read"; stmt: S; width: number; wrapper?: S | null };

/**
 * No timeout: the binding reads 0 as none. The worker threads' calls pass it; the synchronous calls
 * pass no options at all (`SyncConnection.execute`), which the binding's JavaScript also takes as
 * none, and which costs a call about 0.5 µs less (Bun: one row's `get` 3.6 µs against 4.1; Node 0.6
 * less). Never a second argument of `undefined`: the binding takes its arguments as a list and
 * would bind that list as the statement's parameters.
 */
const UNTIMED: CallOptions = { queryTimeout: 0 };

/**
 * The time left before `stopAt` as the binding's call options; `Stopped` when none is left. A
 * `fixedCost` read is checked here and not timed: a timed call costs the binding's timer thread
 * (libsql-js `query_timeout.rs`) a wake, shared or not (13 µs of CPU a GET by key on Node, 17 on
 * Bun, before the grid below: test/bench/server-ab.ts).
 *
 * A timed call's deadline is rounded up to a grid (`timerGrid`): the binding's timer thread wakes
 * at every armed deadline, a finished call's included, and takes every deadline past at each wake,
 * so calls that share a deadline share a wake. Without the grid, each call under load had its own
 * deadline and woke the thread once.
 */
function callOptions(stopAt: number, s: Statement): CallOptions {
  if (stopAt === Infinity) return UNTIMED;
  const now = Date.now();
  const left = Math.ceil(stopAt - now);
  if (left <= 0) throw new Stopped(s.sql);
  return s.fixedCost ? UNTIMED : { queryTimeout: armedTimeout(stopAt, now) };
}

/** The timeout armed at `now` for a deadline of `stopAt` (both `Date.now()` times): to `stopAt` rounded up to its grid. */
export function armedTimeout(stopAt: number, now: number): number {
  const grid = timerGrid(Math.ceil(stopAt - now));
  return Math.ceil(stopAt / grid) * grid - now;
}

/** The most a rounded deadline may come late: a grid step is at most this. */
const TIMER_GRID_MAX_MS = 16;

/**
 * The grid of a deadline `left` ms away: the largest power of two at most half of it, 1 to
 * `TIMER_GRID_MAX_MS`. So a statement is stopped late by less than half its time (and 16 ms): the
 * main lane's 10 ms by less than 4, a client lane's 2 not at all, a request's deadline by 16 at most.
 */
export function timerGrid(left: number): number {
  let grid = 1;
  while (grid * 2 <= left / 2 && grid < TIMER_GRID_MAX_MS) grid *= 2;
  return grid;
}

function stoppedOr(error: unknown, sql: string): unknown {
  return isInterrupt(error) ? new Stopped(sql) : error;
}

function quotedRows(text: unknown, width: number): StatementResult {
  return { rows: decodeQuotedRows(text as string | null, width), rowsAffected: 0 };
}

export class SyncConnection {
  private readonly statements = new BoundedCache<Prepared<SyncStatement>>(STATEMENT_LIMIT);

  constructor(
    readonly db: SyncDatabase,
    private readonly checkColumns?: ColumnCheck,
  ) {}

  batch(statements: readonly Statement[], mode: "read" | "write", stopAt: number): StatementResult[] {
    // One read statement sees one snapshot on its own: no transaction to open and commit.
    if (statements.length === 1 && mode === "read") return [this.execute(statements[0]!, stopAt)];
    const out: StatementResult[] = [];
    try {
      this.db.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN");
      for (const s of statements) out.push(this.execute(s, stopAt));
      this.db.exec("COMMIT");
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
    return out;
  }

  private execute(s: Statement, stopAt: number): StatementResult {
    const options = callOptions(stopAt, s);
    const p = this.statements.get(s.sql, () => this.prepare(s.sql));
    const params = s.params.map(toNative);
    // Untimed: no options argument (see UNTIMED).
    const timed = options !== UNTIMED;
    try {
      if (p.kind === "write") return { rows: [], rowsAffected: (timed ? p.stmt.run(params, options) : p.stmt.run(params)).changes };
      if (s.oneRow) {
        const row = timed ? p.stmt.get(params, options) : p.stmt.get(params);
        return { rows: row ? [row] : [], rowsAffected: 0 };
      }
      if (p.wrapper === undefined) p.wrapper = this.wrap(s.sql, p.width);
      if (p.wrapper === null) return { rows: timed ? p.stmt.all(params, options) : p.stmt.all(params), rowsAffected: 0 };
      return quotedRows((timed ? p.wrapper.get(params, options) : p.wrapper.get(params))![0], p.width);
    } catch (error) {
      // A statement that failed may keep failing until it is reset: prepare it anew next time.
      this.statements.delete(s.sql);
      throw stoppedOr(error, s.sql);
    }
  }

  private wrap(sql: string, width: number): SyncStatement | null {
    try {
      return this.db.prepare(quotedRowsSql(sql, width)).raw(true);
    } catch {
      return null;
    }
  }

  private prepare(sql: string): Prepared<SyncStatement> {
    const stmt = this.db.prepare(sql);
    if (!stmt.reader) return { kind: "write", stmt };
    const columns = stmt.columns();
    this.checkColumns?.(
      sql,
      columns.map((c) => c.name),
    );
    return { kind: "read", stmt: stmt.raw(true), width: columns.length };
  }
}

/**
 * A connection for reads only (the store's reader pool): it runs one batch at a time. Its
 * statements are never dropped one by one: the binding finalizes a dropped statement on the
 * thread that answers requests, whenever the garbage collector gets to it, and finalizing waits
 * for the connection, which may then be running a long read on a worker thread (measured: stalls
 * of 0.5 s). A statement that failed is reset by the binding and kept; once the connection holds
 * STATEMENT_LIMIT statements it is `full`, and the pool replaces it while it is idle.
 */
export class AsyncConnection {
  private readonly statements = new Map<string, Promise<Prepared<AsyncStatement>>>();

  get full(): boolean {
    return this.statements.size >= STATEMENT_LIMIT;
  }

  constructor(
    readonly db: AsyncDatabase,
    private readonly checkColumns?: ColumnCheck,
  ) {}

  async batch(statements: readonly Statement[], stopAt: number): Promise<StatementResult[]> {
    if (statements.length === 1) return [await this.execute(statements[0]!, stopAt)];
    const out: StatementResult[] = [];
    try {
      await this.db.exec("BEGIN");
      for (const s of statements) out.push(await this.execute(s, stopAt));
      await this.db.exec("COMMIT");
    } catch (error) {
      if (this.db.inTransaction) await this.db.exec("ROLLBACK");
      throw error;
    }
    return out;
  }

  private async execute(s: Statement, stopAt: number): Promise<StatementResult> {
    if (Date.now() >= stopAt) throw new Stopped(s.sql);
    const params = s.params.map(toNative);
    try {
      let prepared = this.statements.get(s.sql);
      if (!prepared) {
        this.statements.set(s.sql, (prepared = this.prepare(s.sql)));
        // A statement that could not be prepared holds nothing to finalize: try again next time.
        prepared.catch(() => this.statements.delete(s.sql));
      }
      const p = await prepared;
      if (s.oneRow) {
        const row = await p.stmt.get(params, callOptions(stopAt, s));
        return { rows: row ? [row] : [], rowsAffected: 0 };
      }
      if (p.kind === "write") throw new Error("the reader pool runs reads only");
      if (p.wrapper === undefined) p.wrapper = await this.wrap(s.sql, p.width);
      // The time left is read when the statement starts: preparing it took some.
      if (p.wrapper === null) return { rows: await p.stmt.all(params, callOptions(stopAt, s)), rowsAffected: 0 };
      return quotedRows((await p.wrapper.get(params, callOptions(stopAt, s)))![0], p.width);
    } catch (error) {
      throw stoppedOr(error, s.sql);
    }
  }

  private async wrap(sql: string, width: number): Promise<AsyncStatement | null> {
    try {
      return (await this.db.prepare(quotedRowsSql(sql, width))).raw(true);
    } catch {
      return null;
    }
  }

  private async prepare(sql: string): Promise<Prepared<AsyncStatement>> {
    const stmt = await this.db.prepare(sql);
    if (!stmt.reader) return { kind: "write", stmt };
    const columns = stmt.columns();
    this.checkColumns?.(
      sql,
      columns.map((c) => c.name),
    );
    return { kind: "read", stmt: stmt.raw(true), width: columns.length };
  }
}

/** The engine binds numbers, text, null, bigints and bytes; booleans are SQLite integers. */
function toNative(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) return null;
  if (value instanceof Uint8Array) {
    const B = (globalThis as { Buffer?: { isBuffer(v: unknown): boolean; from(a: ArrayBufferLike, o: number, l: number): Uint8Array } }).Buffer;
    return B && !B.isBuffer(value) ? B.from(value.buffer, value.byteOffset, value.byteLength) : value;
  }
  return value;
}
