/**
 * The `libsql` binding's two faces, as the embedded store uses them. Its synchronous API runs a
 * statement on the calling thread; its promise API (`libsql/promise`) runs it on the binding's own
 * worker threads, so the event loop keeps answering other requests meanwhile. Both take a
 * `queryTimeout` per call: the binding's timer thread interrupts the statement when it is due
 * (SQLite stops at its next step), and the call fails with SQLITE_INTERRUPT.
 *
 * The module is imported by a specifier bundlers do not follow: edge bundles (which have no file
 * system and use the HTTP client) never include the native module.
 */

export interface CallOptions {
  queryTimeout: number;
}

export interface SyncStatement {
  readonly reader: boolean;
  raw(on?: boolean): SyncStatement;
  get(params: unknown[], options?: CallOptions): unknown[] | undefined;
  all(params: unknown[], options?: CallOptions): unknown[][];
  run(params: unknown[], options?: CallOptions): { changes: number };
  columns(): { name: string }[];
}

export interface SyncDatabase {
  prepare(sql: string): SyncStatement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}

export interface AsyncStatement {
  readonly reader: boolean;
  raw(on?: boolean): AsyncStatement;
  get(params: unknown[], options?: CallOptions): Promise<unknown[] | undefined>;
  all(params: unknown[], options?: CallOptions): Promise<unknown[][]>;
  columns(): { name: string }[];
}

export interface AsyncDatabase {
  prepare(sql: string): Promise<AsyncStatement>;
  exec(sql: string): Promise<void>;
  close(): void;
  readonly inTransaction: boolean;
}

const SYNC_MODULE = "libsql";
const ASYNC_MODULE = "libsql/promise";

export async function openSync(path: string): Promise<SyncDatabase> {
  const { default: Database } = (await import(SYNC_MODULE)) as { default: new (path: string) => SyncDatabase };
  return new Database(path);
}

export async function openAsync(path: string): Promise<AsyncDatabase> {
  const mod = (await import(ASYNC_MODULE)) as { connect?: Connect; default?: { connect: Connect } };
  const connect = mod.connect ?? mod.default!.connect;
  return connect(path, {});
}

type Connect = (path: string, options: object) => Promise<AsyncDatabase>;

/** SQLite's error for a statement stopped by its timeout (or `interrupt()`). */
export function isInterrupt(error: unknown): boolean {
  return (error as { code?: string })?.code === "SQLITE_INTERRUPT" || /\binterrupted\b/i.test(String((error as Error)?.message));
}
