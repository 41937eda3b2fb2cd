/**
 * The libSQL store: embedded files and `:memory:` through `@libsql/client`, remote servers
 * (Turso, `libsql://`, `http(s)://`) through the same client; on edge runtimes the package's
 * export conditions pick its web build (HTTP only). A batch is libSQL's own batch: one
 * transaction, one round trip.
 */
import { createClient, type Client, type InStatement, type InValue, type ResultSet } from "@libsql/client";
import { translateConstraintError } from "./constraint-errors.ts";
import type { Statement, StatementResult, Store } from "./store.ts";

export function openLibsqlStore(url: string, authToken?: string): Store {
  return new LibsqlStore(createClient({ url, authToken }));
}

export class LibsqlStore implements Store {
  /** `inspect` sees each batch's raw results (tests check their column names). */
  constructor(
    readonly client: Client,
    private readonly inspect?: (statements: readonly Statement[], results: readonly ResultSet[]) => void,
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
