/**
 * The libSQL store for servers (Turso, `libsql://`, `http(s)://`, `ws(s)://`) through
 * `@libsql/client`; on edge runtimes the package's export conditions pick its web build (HTTP
 * only). A batch is libSQL's own batch: one transaction, one round trip. Embedded files go to
 * embedded-store.ts instead.
 */
import { createClient, type Client, type InStatement, type InValue, type ResultSet } from "@libsql/client";
import { translateStoreError } from "./store-errors.ts";
import { type EmbeddedOptions, EmbeddedStore } from "./embedded-store.ts";
import type { Statement, StatementResult, Store } from "./store.ts";

/**
 * A store for a libSQL URL: embedded files and `:memory:` on the native engine directly (see
 * embedded-store.ts), servers through the client.
 */
export function openLibsqlStore(url: string, authToken?: string, options?: EmbeddedOptions): Store {
  const path = embeddedPath(url);
  return path === undefined ? new LibsqlStore(createClient({ url, authToken })) : new OpeningStore(EmbeddedStore.open(path, options), true);
}

/** The file path of an embedded URL (`file:path`, `file:///abs`, `:memory:`), else undefined. */
export function embeddedPath(url: string): string | undefined {
  if (url === ":memory:") return url;
  if (/^file:\/\//i.test(url)) return decodeURIComponent(new URL(url).pathname);
  if (/^file:/i.test(url)) return url.slice(5).replace(/\?.*$/, "");
  return undefined;
}

/**
 * A store that is being opened: calls wait for it (the handler's first call is its schema work),
 * then go straight to it, with the request's deadline. `interrupts` is known before it opens (an
 * embedded file stops its own statements), so a request's time limit never races a timer against it.
 */
class OpeningStore implements Store {
  private open: Store | undefined;

  constructor(
    private readonly opening: Promise<Store>,
    readonly interrupts: boolean,
  ) {
    opening.then(
      (store) => (this.open = store),
      () => {},
    );
  }

  batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    return this.open ? this.open.batch(statements, mode, deadline) : this.opening.then((s) => s.batch(statements, mode, deadline));
  }

  batchNow(statements: readonly Statement[], mode: "read" | "write", deadline?: number): StatementResult[] | undefined {
    return this.open?.batchNow?.(statements, mode, deadline);
  }

  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.open ? this.open.migrate(statements) : this.opening.then((s) => s.migrate(statements));
  }

  close(): void {
    void this.opening.then(
      (s) => s.close(),
      () => {},
    );
  }
}

export class LibsqlStore implements Store {
  constructor(readonly client: Client) {}

  async batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    let results: ResultSet[];
    try {
      results = await this.client.batch(statements.map(toLibsql), mode);
    } catch (error) {
      throw translateStoreError(error);
    }
    return results.map(toResult);
  }

  /** Schema work is one write batch too: at start-up on a remote store every round trip counts. */
  async migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.batch(statements, "write");
  }

  close(): void {
    this.client.close();
  }
}

function toLibsql(s: Statement): InStatement {
  return { sql: s.sql, args: s.params as InValue[] };
}

function toResult(r: ResultSet): StatementResult {
  return { rows: r.rows.map((row) => Array.from(row as ArrayLike<unknown>)), rowsAffected: r.rowsAffected };
}
