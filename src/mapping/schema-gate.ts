/**
 * The schema check carried by the first read, for stores a round trip away (a worker's D1): the
 * handler's `schemaCheck: "with-first-read"`. Nothing is read at start-up; the first batch through
 * the gate settles the schema, and every batch waits until it has:
 *
 * - a read runs the check's statements (src/mapping/migrate.ts, `schemaCheck`) in front of its own,
 *   in one batch. When the schema is current, which is every start but the first on a database,
 *   its results are the read's answer: the check cost no round trip of its own. Otherwise (the
 *   check calls for writing, or the batch failed, say for a table not made yet) the schema is
 *   brought up to date and the read runs again on it;
 * - any other batch (a write) runs the check alone first, as a start-up would.
 *
 * Batches that come while the first is under way wait for it. A check that fails (the store
 * unreachable) fails its request and leaves the gate closed, so the next batch tries again.
 */
import type { Statement, StatementResult, Store } from "../store/store.ts";
import type { SchemaCheck } from "./migrate.ts";

export class SchemaGate implements Store {
  readonly interrupts?: boolean;
  /** The check under way, or done; undefined before the first batch and after a failed check. */
  #settling: Promise<void> | undefined;
  #settled = false;

  constructor(
    private readonly inner: Store,
    private readonly check: Promise<SchemaCheck>,
  ) {
    this.interrupts = inner.interrupts;
  }

  async batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    if (this.#settled) return this.inner.batch(statements, mode, deadline);
    if (this.#settling) {
      await this.#settling;
      return this.batch(statements, mode, deadline);
    }
    let carried: StatementResult[] | undefined;
    const settling = (async () => {
      const check = await this.check;
      if (mode === "read" && statements.length) carried = await this.#carry(check, statements, deadline);
      else await check.assess(await this.inner.migrate(check.statements)).complete(this.inner);
    })();
    this.#settling = settling;
    try {
      await settling;
      this.#settled = true;
    } catch (error) {
      this.#settling = undefined;
      throw error;
    }
    return carried ?? this.inner.batch(statements, mode, deadline);
  }

  /** Once the schema is settled, the inner store's (before it, every batch waits for the check). */
  batchNow(statements: readonly Statement[], mode: "read" | "write", deadline?: number): StatementResult[] | undefined {
    return this.#settled ? this.inner.batchNow?.(statements, mode, deadline) : undefined;
  }

  /** The read with the check in front: its results when the schema was current, else undefined (the schema brought up to date). */
  async #carry(check: SchemaCheck, statements: readonly Statement[], deadline: number | undefined): Promise<StatementResult[] | undefined> {
    const n = check.statements.length;
    let results: StatementResult[];
    try {
      results = await this.inner.batch([...check.statements, ...statements], "read", deadline);
    } catch {
      // Perhaps for want of the schema: the check alone says, and the read runs again after it.
      await check.assess(await this.inner.migrate(check.statements)).complete(this.inner);
      return undefined;
    }
    const verdict = check.assess(results.slice(0, n));
    if (!verdict.toDo) return results.slice(n);
    await verdict.complete(this.inner);
    return undefined;
  }

  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.inner.migrate(statements);
  }

  close(): void {
    this.inner.close();
  }
}
