/**
 * A few connections that run reads on the binding's worker threads, each one batch at a time, and
 * the reads waiting for one in arrival order. A read that is still waiting at its `stopAt` time
 * leaves the queue with `Stopped`, without having run. A connection that is `full` of prepared
 * statements is closed once idle and a fresh one takes its place (see AsyncConnection).
 */
import { type AsyncConnection, Stopped } from "./embedded-connection.ts";
import type { Statement, StatementResult } from "./store.ts";

interface Waiter {
  take(connection: AsyncConnection): void;
}

export class ReaderPool {
  private readonly idle: AsyncConnection[];
  private readonly waiting: Waiter[] = [];
  private readonly open = new Set<AsyncConnection>();
  private closed = false;

  constructor(
    connections: readonly AsyncConnection[],
    private readonly connect: () => Promise<AsyncConnection>,
  ) {
    this.idle = [...connections];
    for (const c of connections) this.open.add(c);
  }

  async batch(statements: readonly Statement[], stopAt: number): Promise<StatementResult[]> {
    const connection = this.idle.pop() ?? (await this.wait(statements[0]!.sql, stopAt));
    try {
      return await connection.batch(statements, stopAt);
    } finally {
      if (connection.full) void this.replace(connection);
      else this.release(connection);
    }
  }

  private release(connection: AsyncConnection): void {
    if (this.closed) return connection.db.close();
    const next = this.waiting.shift();
    if (next) next.take(connection);
    else this.idle.push(connection);
  }

  private async replace(connection: AsyncConnection): Promise<void> {
    this.open.delete(connection);
    connection.db.close();
    const fresh = await this.connect();
    this.open.add(fresh);
    this.release(fresh);
  }

  private wait(sql: string, stopAt: number): Promise<AsyncConnection> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waiter: Waiter = {
        take: (connection) => {
          clearTimeout(timer);
          resolve(connection);
        },
      };
      this.waiting.push(waiter);
      if (stopAt !== Infinity) {
        timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new Stopped(sql));
        }, Math.max(0, stopAt - Date.now()));
      }
    });
  }

  close(): void {
    this.closed = true;
    for (const c of this.idle) c.db.close();
  }
}
