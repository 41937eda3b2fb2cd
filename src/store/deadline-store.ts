/**
 * A request's time limit, enforced where the time goes: at the store. Each request gets its own
 * `DeadlineStore` over the shared one. A batch is refused once the deadline has passed. A store
 * that `interrupts` (embedded files) is given the deadline and stops there itself, a running
 * statement included, rolling back. Any other store cannot take a batch back once sent: a read
 * still running at the deadline is given up (its result would only be read); a write is always
 * waited for. Either way, once a write has happened the reads after it are not timed, so a 503
 * never hides a change that happened. When the answer starts, the limit is released: a streamed
 * extent is paced by its client, not by the request's clock.
 */
import type { Statement, StatementResult, Store } from "./store.ts";
import { TimeLimitError } from "../errors/capacity-errors.ts";

export class DeadlineStore implements Store {
  readonly interrupts?: boolean;
  private deadline: number;

  constructor(
    private readonly inner: Store,
    private readonly limitMs: number,
  ) {
    this.interrupts = inner.interrupts;
    this.deadline = Date.now() + limitMs;
  }

  /** The answer has started: later batches (stream pages) are not timed. */
  release(): void {
    this.deadline = Infinity;
  }

  async batch(statements: readonly Statement[], mode: "read" | "write"): Promise<StatementResult[]> {
    const left = this.deadline - Date.now();
    if (left <= 0) throw new TimeLimitError(this.limitMs);
    if (left === Infinity) return this.inner.batch(statements, mode);
    try {
      if (this.inner.interrupts) {
        const results = await this.inner.batch(statements, mode, this.deadline);
        if (mode === "write") this.release();
        return results;
      }
      if (mode === "write") {
        const results = await this.inner.batch(statements, mode);
        this.release();
        return results;
      }
      return await raceDeadline(this.inner.batch(statements, mode, this.deadline), left);
    } catch (error) {
      throw this.asOwnLimit(error);
    }
  }

  /**
   * A batch its store runs now (`Store.batchNow`), within the deadline as `batch` holds it (a write
   * releases it); only over a store that stops its own statements there (else undefined: `batch`
   * races the deadline).
   */
  batchNow(statements: readonly Statement[], mode: "read" | "write"): StatementResult[] | undefined {
    if (!this.inner.interrupts || !this.inner.batchNow) return undefined;
    const left = this.deadline - Date.now();
    if (left <= 0) throw new TimeLimitError(this.limitMs);
    try {
      const results = this.inner.batchNow(statements, mode, left === Infinity ? undefined : this.deadline);
      if (results && mode === "write") this.release();
      return results;
    } catch (error) {
      throw this.asOwnLimit(error);
    }
  }

  /** A time limit the store reached is this request's: said with the request's own limit. */
  private asOwnLimit(error: unknown): unknown {
    return error instanceof TimeLimitError ? new TimeLimitError(this.limitMs) : error;
  }

  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.inner.migrate(statements);
  }

  close(): void {
    this.inner.close();
  }
}

function raceDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitError(ms)), ms);
  });
  work.catch(() => {}); // a read given up may still fail later; nobody waits for it
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
