/**
 * A few connections that run reads on the binding's worker threads, each one batch at a time, and
 * the reads waiting for one. Reads whose cost a client decides (`unbounded`: its queries) may
 * hold all but one connection at once, so that a read of the server's own (a fetch plan that
 * proved long) never waits behind more than the one running on the connection kept for it; those
 * reads are also served first. A read that is still waiting at its `stopAt` time leaves the queue
 * with `Stopped`, without having run. A connection that is `full` of prepared statements is
 * closed once idle and a fresh one takes its place (see AsyncConnection).
 */
import { type AsyncConnection, Stopped } from "./embedded-connection.ts";
import type { Statement, StatementResult } from "./store.ts";

interface Waiter {
  unbounded: boolean;
  take(connection: AsyncConnection): void;
}

export class ReaderPool {
  private readonly idle: AsyncConnection[];
  private readonly waiting: Waiter[] = [];
  /** Connections running an unbounded read now, and the most that may. */
  private unboundedRunning = 0;
  private readonly unboundedMost: number;
  private closed = false;

  constructor(
    connections: readonly AsyncConnection[],
    private readonly connect: () => Promise<AsyncConnection>,
  ) {
    this.idle = [...connections];
    this.unboundedMost = Math.max(1, connections.length - 1);
  }

  /** Runs the batch on a reader; `ran` is told how long it ran there (not counting the wait). */
  async batch(statements: readonly Statement[], stopAt: number, unbounded: boolean, ran?: (ms: number) => void): Promise<StatementResult[]> {
    const connection = this.mayStart(unbounded) ? this.take(unbounded) : await this.wait(statements[0]!.sql, stopAt, unbounded);
    const started = performance.now();
    try {
      return await connection.batch(statements, stopAt);
    } finally {
      ran?.(performance.now() - started);
      if (unbounded) this.unboundedRunning--;
      if (connection.full) void this.replace(connection);
      else this.release(connection);
    }
  }

  /** An idle connection, counted as running an unbounded read when it will. */
  private take(unbounded: boolean): AsyncConnection {
    if (unbounded) this.unboundedRunning++;
    return this.idle.pop()!;
  }

  private mayStart(unbounded: boolean): boolean {
    return this.idle.length > 0 && (!unbounded || this.unboundedRunning < this.unboundedMost);
  }

  private release(connection: AsyncConnection): void {
    if (this.closed) return connection.db.close();
    this.idle.push(connection);
    // The server's own reads first, then the clients' queries as far as they may run.
    for (const unbounded of [false, true]) {
      while (this.mayStart(unbounded)) {
        const i = this.waiting.findIndex((w) => w.unbounded === unbounded);
        if (i < 0) break;
        const [next] = this.waiting.splice(i, 1);
        next!.take(this.take(unbounded));
      }
    }
  }

  private async replace(connection: AsyncConnection): Promise<void> {
    connection.db.close();
    this.release(await this.connect());
  }

  private wait(sql: string, stopAt: number, unbounded: boolean): Promise<AsyncConnection> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waiter: Waiter = {
        unbounded,
        take: (connection) => {
          clearTimeout(timer);
          resolve(connection);
        },
      };
      this.waiting.push(waiter);
      if (stopAt !== Infinity) {
        timer = setTimeout(
          () => {
            this.waiting.splice(this.waiting.indexOf(waiter), 1);
            reject(new Stopped(sql));
          },
          Math.max(0, stopAt - Date.now()),
        );
      }
    });
  }

  close(): void {
    this.closed = true;
    for (const c of this.idle) c.db.close();
  }
}
