/**
 * Large extents, measured (not a test: figures depend on the machine). GET of a 100,000-object
 * extent streams its JSON array page by page: this prints, per request, the server's peak
 * resident memory over its idle memory and the time to the first byte, next to a 100-object
 * extent, next to fixed pages of 1000 objects and next to the same extent read at once (one page
 * of 1,000,000). "auto" is the handler's own paging: a first page of 100 objects, then pages
 * sized so their JSON stays near 512 KiB, at most 1000 objects (src/service/read-extent.ts).
 *
 *   node --import tsx test/bench/large-extent.ts [--persons 100000]
 *
 * Each row is a fresh server process (src/runtime/serve.ts over the graph model of
 * test/support/graph-model.ts), so its peak belongs to that row's requests alone: the server
 * starts, answers one object (warm-up), reports its idle memory, answers 5 requests whose client
 * stops after the first chunk (time to first byte, median; the first of them compiles the plan),
 * then one whole read (the peak). Read at once (a page larger than the extent), the first byte
 * comes after the whole extent, so it is measured once.
 * The "4 MiB/s" client reads at that rate, slower than the server writes, so the server has to
 * wait for it (backpressure) rather than buffer the answer.
 * The rows are written with plain SQL (a recursive CTE), not through the API.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRestHandler } from "../../src/handler.ts";
import { GRAPH_PKG, graphModel, seedGraph } from "../support/graph-model.ts";

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const LARGE = Number(args[args.indexOf("--persons") + 1] || 100_000) || 100_000;
const SMALL = 100;
const PERSON = `${GRAPH_PKG}.Person`;
/** A page larger than the extent: the extent read at once, as before streaming. */
const AT_ONCE = 1_000_000;
/** The handler's own paging: a first page of 100 objects, then pages sized by their JSON (up to 1000). */
export const AUTO = 0;

interface Memory {
  rss: number;
  peak: number;
}

interface Server {
  url: string;
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

/** A database of the graph model with `persons` persons (and their cities, friends), written with plain SQL. */
export async function database(dir: string, persons: number): Promise<string> {
  const url = `file:${join(dir, `graph-${persons}.db`)}`;
  const api = createRestHandler({ context: { name: "schema", url, models: [graphModel] } });
  await api.ready;
  api.close();
  // Blocks of 20 neighbours per city: each page shares a few cities, as real data tends to.
  await seedGraph(url, persons, Math.max(1, Math.floor(persons / 20)));
  return url;
}

/** The server over `url` as its own process (large-extent-server.ts), paged as `pages` says. */
export async function start(url: string, pages: number): Promise<Server> {
  const entry = fileURLToPath(new URL("./large-extent-server.ts", import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", entry, url, ...(pages === AUTO ? [] : [String(pages)])], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url: JSON.parse(line).url,
    memory: () =>
      new Promise((resolve) => {
        child.once("message", (m) => resolve(m as Memory));
        child.send("memory");
      }),
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.disconnect();
      }),
  };
}

/** Time to the first byte of the body; the client then stops reading (the server stops too). */
async function firstByte(url: string): Promise<number> {
  const started = performance.now();
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const reader = response.body!.getReader();
  await reader.read();
  const ms = performance.now() - started;
  controller.abort();
  await reader.cancel().catch(() => {});
  return ms;
}

const SLOW_BYTES_PER_MS = (4 * MiB) / 1000;

/** Reads the whole body, keeping only its length; a slow client keeps to 4 MiB/s. */
async function readAll(url: string, slow: boolean): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const reader = response.body!.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    const ahead = started + bytes / SLOW_BYTES_PER_MS - performance.now();
    if (slow && ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
  }
  return { ms: performance.now() - started, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  extent: number;
  plan: string;
  pages: number;
  client: string;
  ttfb: number;
  total: number;
  bytes: number;
  idle: number;
  peak: number;
}

async function measure(url: string, extent: number, query: string, pages: number, slow: boolean): Promise<Row> {
  const server = await start(url, pages);
  try {
    const base = `${server.url}/${PERSON}`;
    await (await fetch(`${base}/1`)).text();
    const idle = (await server.memory()).rss;
    const ttfbs: number[] = [];
    // Read at once, the first byte comes after the whole extent: once is enough.
    for (let i = 0; i < (pages === AT_ONCE ? 1 : 5); i++) {
      ttfbs.push(await firstByte(`${base}?${query}`));
      // The server may still be reading the page it had started when the client left.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const { ms, bytes } = await readAll(`${base}?${query}`, slow);
    const { peak } = await server.memory();
    return { extent, plan: query || "default", pages, client: slow ? "4 MiB/s" : "fast", ttfb: median(ttfbs), total: ms, bytes, idle, peak };
  } finally {
    await server.stop();
  }
}

/** A measurement: `extent` persons with the fetch plan `query`, paged as `pages` says, read fast or slowly. */
export interface LargeExtentCase {
  large: boolean;
  query: string;
  pages: number;
  slow: boolean;
}

/** The graph seeded with SMALL and LARGE persons, each case measured on a fresh server, printed as one table. */
export async function measureLargeExtents(cases: readonly LargeExtentCase[], persons = LARGE): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "extent-large-"));
  try {
    const t = performance.now();
    const small = await database(dir, SMALL);
    const large = await database(dir, persons);
    console.log(`seeded ${SMALL} and ${persons} persons (+ cities, friends) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const rows: Row[] = [];
    for (const c of cases) rows.push(await measure(c.large ? large : small, c.large ? persons : SMALL, c.query, c.pages, c.slow));
    console.log("\nGET /Person?<plan>   (each row a fresh server; peak = the server's max RSS; growth = peak - idle RSS)\n");
    const pad = (cells: unknown[]) => cells.map((c, i) => String(c).padStart(i === 1 ? 16 : 11)).join("");
    console.log(pad(["objects", "fetch plan", "pages", "client", "TTFB ms", "total ms", "body MiB", "idle MiB", "peak MiB", "growth MiB"]));
    for (const r of rows) {
      const cells = [
        r.extent,
        r.plan,
        r.pages === AUTO ? "auto" : r.pages === AT_ONCE ? "at once" : `${r.pages} each`,
        r.client,
        r.ttfb.toFixed(1),
        r.total.toFixed(0),
        (r.bytes / MiB).toFixed(1),
        (r.idle / MiB).toFixed(1),
        (r.peak / MiB).toFixed(1),
        ((r.peak - r.idle) / MiB).toFixed(1),
      ];
      console.log(pad(cells));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `npm run bench` prints: 100 against 100,000 objects, both fetch plans, the handler's own paging. */
export const BENCH_CASES: LargeExtentCase[] = ["", "fetchGroup=all"].flatMap((query) => [
  { large: false, query, pages: AUTO, slow: false },
  { large: true, query, pages: AUTO, slow: false },
]);

/** Run directly: every case, with fixed pages and the extent read at once for comparison. */
const ALL_CASES: LargeExtentCase[] = ["", "fetchGroup=all"].flatMap((query) => [
  { large: false, query, pages: AUTO, slow: false },
  { large: true, query, pages: AUTO, slow: false },
  { large: true, query, pages: AUTO, slow: true },
  // Fixed pages, for comparison: the first byte waits for a whole page of 1000.
  { large: true, query, pages: 1000, slow: false },
  { large: true, query, pages: AT_ONCE, slow: false },
]);

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await measureLargeExtents(ALL_CASES);
