/**
 * A store that records each batch's statement count, and fails the batches whose (0-based) index
 * is in `failAt`: for the tests of streamed answers (how many round trips, which page fails).
 */
import type { Statement, StatementResult, Store } from "../../src/store/store.ts";

export class BatchRecordingStore implements Store {
  batches: number[] = [];
  failAt = new Set<number>();
  constructor(readonly inner: Store) {}
  batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    const index = this.batches.push(statements.length) - 1;
    if (this.failAt.has(index)) return Promise.reject(new Error(`batch ${index} failed on purpose`));
    return this.inner.batch(statements, mode);
  }
  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.inner.migrate(statements);
  }
  close(): void {
    this.inner.close();
  }
}
