/**
 * A graceful stop for `extent serve`: on SIGTERM (a container or service manager stopping it) or
 * SIGINT (Ctrl-C), the server stops taking connections and lets the requests under way finish,
 * then the store is closed and the process exits 0, which
 * also lets `node --cpu-prof` write its profile. A second signal, or `GRACE_MS` without the
 * requests finishing, exits at once.
 */
import type { Served } from "../runtime/serve.ts";

const GRACE_MS = 5000;

export function stopOnSignals(served: Served, close: () => void): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`Extent stops (${signal}): finishing the requests under way`);
    const timer = setTimeout(() => process.exit(1), GRACE_MS);
    void served.close().finally(() => {
      clearTimeout(timer);
      close();
      process.exit(0);
    });
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
