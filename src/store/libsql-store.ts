/**
 * The libSQL store: embedded files and `:memory:` through `@libsql/client`, remote servers
 * (Turso, `libsql://`, `http(s)://`) through the same client. A batch is libSQL's own batch:
 * one transaction, one round trip.
 */
import { createClient, LibsqlError, type Client, type InStatement, type InValue } from "@libsql/client";
import { type Statement, type StatementResult, type Store, StoreConstraintError } from "./store.ts";

export function openLibsqlStore(url: string, authToken?: string): Store {
  return new LibsqlStore(createClient({ url, authToken }));
}

export class LibsqlStore implements Store {
  constructor(readonly client: Client) {}

  async batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    try {
      const results = await this.client.batch(statements.map(toLibsql), mode);
      return results.map((r) => ({ rows: r.rows.map((row) => Array.from(row as ArrayLike<unknown>)), rowsAffected: r.rowsAffected }));
    } catch (error) {
      throw translate(error);
    }
  }

  async migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    const out: StatementResult[] = [];
    for (const s of statements) {
      const r = await this.client.execute(toLibsql(s));
      out.push({ rows: r.rows.map((row) => Array.from(row as ArrayLike<unknown>)), rowsAffected: r.rowsAffected });
    }
    return out;
  }

  close(): void {
    this.client.close();
  }
}

function toLibsql(s: Statement): InStatement {
  return { sql: s.sql, args: s.params as InValue[] };
}

/** Constraint failures become `StoreConstraintError`s; anything else is a real failure. */
function translate(error: unknown): unknown {
  const e = error instanceof LibsqlError ? error : undefined;
  const message = String((error as Error)?.message ?? error);
  if (!e && !message.includes("constraint failed")) return error;
  const guard = /NOT NULL constraint failed: extent_guard\.(\w+)/.exec(message);
  if (guard) return new StoreConstraintError("guard", message, guard[1]);
  if (/UNIQUE constraint failed|PRIMARY KEY/i.test(message)) return new StoreConstraintError("unique", message);
  if (/constraint failed/i.test(message)) return new StoreConstraintError("other", message);
  return error;
}
