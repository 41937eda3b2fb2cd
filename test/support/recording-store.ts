/**
 * A store that records every statement it runs (SQL text and parameter values), for tests that
 * prove what reaches SQL text and what arrives only as a bound value. Wraps any store; pass it to
 * the harness with `startHarness(context, options, { wrapStore: (s) => (rec = new RecordingStore(s)) })`.
 */
import type { Statement, StatementResult, Store } from "../../src/store/store.ts";

export interface Recorded {
  sql: string;
  params: readonly unknown[];
  mode: "read" | "write";
  /** Marked as a read whose cost no stored data can grow (`Statement.fixedCost`). */
  fixedCost: boolean;
}

export class RecordingStore implements Store {
  /** Every statement of every batch since the last `clear()`, in order. */
  statements: Recorded[] = [];
  constructor(readonly inner: Store) {}
  batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    for (const s of statements) this.statements.push({ sql: s.sql, params: [...s.params], mode, fixedCost: !!s.fixedCost });
    return this.inner.batch(statements, mode);
  }
  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.inner.migrate(statements);
  }
  /** Returns what was recorded and starts afresh. */
  take(): Recorded[] {
    const taken = this.statements;
    this.statements = [];
    return taken;
  }
  clear(): void {
    this.statements = [];
  }
  close(): void {
    this.inner.close();
  }
}
