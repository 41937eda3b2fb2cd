/**
 * The server test/bench/large-extent.ts measures, as a process of its own: the handler over the
 * graph model (test/support/graph-model.ts) on an existing database, served by the runtime's HTTP
 * server (src/runtime/serve.ts). Prints `{"url": ...}` once listening; answers `"memory"`
 * messages on its IPC channel with its resident set now and its peak since start (bytes).
 *
 *   node --import tsx test/bench/large-extent-server.ts file:/path/to.db [pages]
 *
 * `pages`: a number N for pages of N objects each (first and later alike, whatever their JSON
 * weighs); absent, the handler's own paging (a first page of 100, then pages sized by their JSON).
 */
import { createRestHandler } from "../../src/handler.ts";
import { serve } from "../../src/runtime/serve.ts";
import { graphModel } from "../support/graph-model.ts";

const [url, pages] = process.argv.slice(2);
if (!url) throw new Error("usage: large-extent-server.ts <libsql url> [pages]");
const fixed = pages ? { pageSize: Number(pages), firstPageSize: Number(pages), pageBytes: Number.MAX_SAFE_INTEGER } : {};
const api = createRestHandler({ context: { name: "large-extent", url, models: [graphModel] }, ...fixed });
await api.ready;
const served = await serve(api.fetch, 0, "127.0.0.1");
process.on("message", (message) => {
  if (message === "memory") process.send!({ rss: process.memoryUsage().rss, peak: process.resourceUsage().maxRSS * 1024 });
});
process.on("disconnect", () => void served.close().then(() => process.exit(0)));
console.log(JSON.stringify({ url: served.url }));
