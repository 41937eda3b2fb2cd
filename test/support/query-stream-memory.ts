/**
 * The child process of test/query-stream.test.ts's memory test (run with --expose-gc): a handler
 * over the database at argv[2] answers the query at argv[3] (a path) to a client that reads the
 * stream and keeps nothing. Every few chunks a full garbage collection leaves what is live, and the
 * resident memory is sampled: its peak over what it was before the request is what the server held
 * at once. Garbage is no measure here (V8 lets it grow far while the heap limit is far). Prints one
 * JSON line. (The same answer read at once, as before streaming, grows it by several times its size.)
 */
import { createRestHandler } from "../../src/handler.ts";
import { graphModel } from "./graph-model.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const [url, path] = process.argv.slice(2) as [string, string];
const api = createRestHandler({ context: { name: "memory", url, models: [graphModel], limits: { answerBytes: 1024 ** 3 } } });
await api.ready;
/**
 * The resident memory after a full collection: what is live, in V8's heap and outside it (the
 * texts SQLite writes reach JavaScript as external strings, which `heapUsed` does not count).
 */
function live(): number {
  gc!();
  return process.memoryUsage.rss();
}
const read = async () => {
  const reader = (await api.fetch(new Request(`http://localhost${path}`))).body!.getReader();
  let bytes = 0;
  let peak = live();
  for (let n = 0; ; n++) {
    const { done, value } = await reader.read();
    if (done) return { bytes, peak, chunks: n };
    bytes += value.byteLength;
    if (n % 4 === 0) {
      peak = Math.max(peak, live());
    }
  }
};
// Once before, so that what every request shares (plans, caches, SQLite's page cache) is there before the measure.
await read();
const before = live();
const { bytes, peak, chunks } = await read();
console.log(JSON.stringify({ bytes, chunks, residentGrowth: peak - before }));
api.close();
