/**
 * The libSQL store: embedded files and `:memory:` through `@libsql/client`, remote servers
 * (Turso, `libsql://`, `http(s)://`) through the same client; on edge runtimes the package's
 * export conditions pick its web build (HTTP only). A batch is libSQL's own batch: one
 * transaction, one round trip.
 */
import { createClient, type Client, type InStatement, type InValue, type ResultSet } from "@libsql/client";
import { translateConstraintError } from "./constraint-errors.ts";
import type { Statement, StatementResult, Store } from "./store.ts";

/** Pragmas of an embedded file, set once when the store opens (before the schema work). */
const EMBEDDED_FILE_PRAGMAS = [
  // Readers never block the writer nor the writer readers, and a commit is one append.
  "PRAGMA journal_mode = WAL",
  // Another process (or connection) holding the write lock makes a write wait, not fail.
  "PRAGMA busy_timeout = 5000",
];

export function openLibsqlStore(url: string, authToken?: string): Store {
  const client = createClient({ url, authToken });
  const embeddedFile = /^file:/i.test(url);
  return new LibsqlStore(client, undefined, embeddedFile ? EMBEDDED_FILE_PRAGMAS : []);
}

export class LibsqlStore implements Store {
  private pragmasSet = 0;
  /** `inspect` sees each batch's raw results (tests check their column names). */
  constructor(
    readonly client: Client,
    private readonly inspect?: (statements: readonly Statement[], results: readonly ResultSet[]) => void,
    private readonly pragmas: readonly string[] = [],
  ) {}

  async batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    let results: ResultSet[];
    try {
      results = await this.client.batch(statements.map(toLibsql), mode);
    } catch (error) {
      throw translateConstraintError(error);
    }
    this.inspect?.(statements, results);
    return results.map(toResult);
  }

  /** Schema work is one write batch too: at start-up on a remote store every round trip counts. */
  async migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    // Pragmas cannot run inside a transaction, so not in the batch; once per connection.
    while (this.pragmasSet < this.pragmas.length) await this.client.execute(this.pragmas[this.pragmasSet++]!);
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
