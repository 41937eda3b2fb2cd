/**
 * The Cloudflare D1 store. A D1 batch is D1's only transaction (it has no interactive ones):
 * its statements run in order, all or nothing, in one round trip, which is exactly the `Store`
 * contract, so every write request stays atomic on D1.
 *
 * Statements are compiled by Drizzle's SQLite dialect like everywhere else; they run on the D1
 * binding itself rather than through Drizzle's D1 session, whose `batch` cannot run a raw `sql`
 * statement with parameters (drizzle-orm#2277) and whose row mapping goes through objects.
 * D1 returns the rows of a batch as objects keyed by column name, so every SELECT whose rows are
 * read gives its columns distinct names (see `selectList`), and a row's values are read in column
 * order.
 */
import { translateStoreError } from "./store-errors.ts";
import type { Statement, StatementResult, Store } from "./store.ts";

/** The part of the D1 binding (`D1Database`) the store uses. */
export interface D1Binding {
  prepare(sql: string): D1Prepared;
  batch(statements: D1Prepared[]): Promise<{ results?: Record<string, unknown>[]; meta?: { changes?: number } }[]>;
}
interface D1Prepared {
  bind(...values: unknown[]): D1Prepared;
}

export class D1Store implements Store {
  constructor(readonly d1: D1Binding) {}

  async batch(statements: readonly Statement[], _mode: "read" | "write"): Promise<StatementResult[]> {
    if (statements.length === 0) return [];
    try {
      const results = await this.d1.batch(statements.map((s) => this.d1.prepare(s.sql).bind(...s.params.map(toD1))));
      return results.map((r) => ({ rows: (r.results ?? []).map((row) => Object.values(row)), rowsAffected: r.meta?.changes ?? 0 }));
    } catch (error) {
      throw translateStoreError(error);
    }
  }

  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.batch(statements, "write");
  }

  close(): void {}
}

/** D1 binds numbers, strings, null and bytes; booleans are SQLite integers, and bigints too when they fit. */
function toD1(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (value === undefined) return null;
  return value;
}
