/**
 * Embedded libSQL files on the `libsql` binding itself: the native engine that @libsql/client
 * wraps in embedded mode, without the wrapping. Statements are prepared once and kept (a bounded
 * LRU by SQL text) and rows come back as arrays; @libsql/client prepares each statement per call
 * and builds an object with a getter per column for every row, which was a quarter of the CPU of
 * a read. The engine's calls are synchronous, so a batch (BEGIN … COMMIT around its statements)
 * never interleaves with another in this process; other processes are waited for (busy timeout).
 *
 * Rows never come through the binding's row iterator, which keeps about 930 bytes of native
 * memory per call that nothing frees (libsql 0.5 and 0.6): a read of one row (`oneRow`) fetches
 * it alone, any other read answers its rows as one text of SQL literals (quoted-rows.ts).
 *
 * `libsql` is imported by a specifier bundlers do not follow: edge bundles (which have no file
 * system and use the HTTP client) never include the native module.
 */
import { BoundedCache } from "../plan/plan-cache.ts";
import { decodeQuotedRows, quotedRowsSql } from "./quoted-rows.ts";
import { translateStoreError } from "./store-errors.ts";
import { type Statement, type StatementResult, type Store, TimeLimitError } from "./store.ts";

interface NativeStatement {
  readonly reader: boolean;
  raw(on?: boolean): NativeStatement;
  get(params: unknown[]): unknown[] | undefined;
  all(params: unknown[]): unknown[][];
  run(params: unknown[]): { changes: number };
  columns(): { name: string }[];
}

/** A prepared statement and how it answers. */
type Prepared =
  | { kind: "write"; stmt: NativeStatement }
  /**
   * A read: one row is fetched alone with `stmt`; rows come through `wrapper` as one text of
   * `width` values a row, prepared the first time they are asked for (null: the read cannot be
   * wrapped, a PRAGMA, and takes the row iterator, at start-up only).
   */
  | { kind: "read"; stmt: NativeStatement; width: number; wrapper?: NativeStatement | null };

interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}

/** Prepared statements kept per database: the SQL texts are Extent's own (bounded by its plan caches). */
const STATEMENT_LIMIT = 2000;
const NATIVE_MODULE = "libsql";

/** Called with each statement and its result's column names (tests check them). */
export type ColumnCheck = (sql: string, columns: readonly string[]) => void;

export class EmbeddedStore implements Store {
  readonly blocking = true;
  private readonly statements = new BoundedCache<Prepared>(STATEMENT_LIMIT);

  private constructor(
    private readonly db: NativeDatabase,
    private readonly checkColumns?: ColumnCheck,
  ) {}

  /** Opens `path` (or `:memory:`): WAL journal, and a wait of up to 5 s on another process's write lock. */
  static async open(path: string, checkColumns?: ColumnCheck): Promise<EmbeddedStore> {
    const { default: Database } = (await import(NATIVE_MODULE)) as { default: new (path: string) => NativeDatabase };
    const db = new Database(path);
    if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA busy_timeout = 5000");
    return new EmbeddedStore(db, checkColumns);
  }

  async batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    // One read statement sees one snapshot on its own: no transaction to open and commit.
    if (statements.length === 1 && mode === "read") return [this.run(statements[0]!)];
    const out: StatementResult[] = [];
    try {
      this.db.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN");
      for (const s of statements) {
        // A statement runs to its end once started (the engine is synchronous); a read stops between them.
        if (deadline !== undefined && out.length && Date.now() > deadline) throw new TimeLimitError(0);
        out.push(this.execute(s));
      }
      this.db.exec("COMMIT");
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error instanceof TimeLimitError ? error : translateStoreError(error);
    }
    return out;
  }

  /** One statement outside a transaction (in autocommit), its errors translated. */
  private run(s: Statement): StatementResult {
    try {
      return this.execute(s);
    } catch (error) {
      throw translateStoreError(error);
    }
  }

  private execute(s: Statement): StatementResult {
    const p = this.statements.get(s.sql, () => this.prepare(s.sql));
    try {
      return this.answer(s.sql, p, s.params.map(toNative), !!s.oneRow);
    } catch (error) {
      // A statement that failed may keep failing until it is reset: prepare it anew next time.
      this.statements.delete(s.sql);
      throw error;
    }
  }

  private answer(sql: string, p: Prepared, params: unknown[], oneRow: boolean): StatementResult {
    if (p.kind === "write") return { rows: [], rowsAffected: p.stmt.run(params).changes };
    if (oneRow) {
      const row = p.stmt.get(params);
      return { rows: row ? [row] : [], rowsAffected: 0 };
    }
    if (p.wrapper === undefined) p.wrapper = this.wrap(sql, p.width);
    if (p.wrapper === null) return { rows: p.stmt.all(params), rowsAffected: 0 };
    return { rows: decodeQuotedRows(p.wrapper.get(params)![0] as string | null, p.width), rowsAffected: 0 };
  }

  /** The read wrapped to answer its rows as one text of literals, or null when it cannot be. */
  private wrap(sql: string, width: number): NativeStatement | null {
    try {
      return this.db.prepare(quotedRowsSql(sql, width)).raw(true);
    } catch {
      return null;
    }
  }

  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.batch(statements, "write");
  }

  close(): void {
    this.db.close();
  }

  private prepare(sql: string): Prepared {
    const stmt = this.db.prepare(sql);
    if (!stmt.reader) return { kind: "write", stmt };
    const columns = stmt.columns();
    if (this.checkColumns) this.checkColumns(sql, columns.map((c) => c.name));
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
