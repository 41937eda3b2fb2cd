/**
 * Memory under a flood of distinct query texts: the real handler (createRestHandler over an
 * embedded libSQL file), in-process, answers N queries whose texts are all different (a literal
 * varies), a mix of JDOQL (candidates, projections), JPQL (entities, projections with a join) and
 * filters (GET and HEAD of /{class}?filter=), some with fetch groups and depths. Every query is
 * valid and cheap (two books, one author). Requests go straight to `handler.fetch(new Request(...))`,
 * with no HTTP server, so the figures are Extent's own.
 *
 * `--store libsql` (the default) is the store as shipped: an embedded libSQL file. `--store null`
 * is a store that runs nothing (every statement answers no rows, a COUNT(*) answers 0): the same
 * parsing, compiling, planning, caching and Request/Response work, without the driver. It tells
 * Extent's memory from the driver's: the `libsql` binding (0.5.29) keeps native memory that no GC
 * frees, about 930 bytes per call of its row iterator and 3.5 KiB per statement it prepares. The
 * embedded store no longer calls the iterator (src/store/embedded-store.ts) and prepares each SQL
 * text once, so a million distinct queries leave the RSS growing by about 1.6 MiB per 100,000
 * (it grew 115 MiB per 100,000 before), while the JS heap is flat.
 *
 * `--length N` pads every condition with more terms of its kind to about N characters: long texts
 * fill the prepared queries and read plans by weight before count (plan-cache.ts), and the heap
 * then tells what a weight unit costs.
 *
 * Every `--every` queries (and at the start, after a warm-up) it prints the heap used and the RSS
 * (after a full GC when run with --expose-gc) and the size (and weight) of every request-path
 * cache (cacheSizes). The caches fill within the first few thousand queries; "flat" means no
 * growth trend after that, which the last line sums up as a least-squares slope of heapUsed and
 * RSS over the samples taken once the caches were full.
 *
 *   node --expose-gc --import tsx test/bench/distinct-queries.ts [--count 1000000] [--every 100000] [--store libsql|null] [--length 0]
 *
 * This is a measurement, not a test: nothing asserts its figures (test/caches.test.ts checks the
 * bounds themselves).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createRestHandler } from "../../src/handler.ts";
import { type CacheSize, cacheSizes } from "../../src/cache/bounded-cache.ts";
import type { Statement, StatementResult, Store } from "../../src/store/store.ts";
import { CACHE_MODEL } from "../models/cache-model.ts";

const MODEL = CACHE_MODEL;

const enc = encodeURIComponent;

/**
 * The i-th request: its text differs from every other one's. With `length`, each condition is
 * padded with more terms of its own kind to about that many characters (long texts).
 */
export function nthRequest(i: number, length = 0): { method: string; path: string } {
  const pad = (where: string, term: (j: number) => string) => {
    let text = where;
    for (let j = 0; text.length < length; j++) text += term(j);
    return text;
  };
  switch (i % 6) {
    case 0:
      return {
        method: "GET",
        path: `/jdoql?query=${enc(pad(`SELECT FROM cc.Book WHERE pages == ${i}`, (j) => ` || pages == ${j}`))}${i % 60 === 0 ? "&fetchGroup=withAuthor&maxFetchDepth=3" : ""}`,
      };
    case 1:
      return {
        method: "GET",
        path: `/jdoql?query=${enc(`${pad(`SELECT title, pages FROM cc.Book WHERE pages > ${i}`, (j) => ` && pages != ${j}`)} ORDER BY title`)}`,
      };
    case 2:
      return { method: "GET", path: `/jpql?query=${enc(pad(`SELECT b FROM Book b WHERE b.pages = ${i}`, (j) => ` OR b.title LIKE 't${j}%'`))}` };
    case 3:
      return {
        method: "GET",
        path: `/jpql?query=${enc(pad(`SELECT b.title FROM Book b JOIN b.author a WHERE a.name <> 'n${i}'`, (j) => ` AND a.name <> 'm${j}'`))}`,
      };
    case 4:
      return { method: "GET", path: `/cc.Book?filter=${enc(pad(`pages == ${i} || title == "One"`, (j) => ` || title.startsWith("t${j}")`))}` };
    default:
      return {
        method: "HEAD",
        path: `/cc.Author?filter=${enc(pad(`name == "n${i}"`, (j) => ` || name == "m${j}"`))}${i % 30 === 5 ? "&fetchGroup=withBooks&maxFetchDepth=-1" : ""}`,
      };
  }
}

interface Sample {
  done: number;
  seconds: number;
  heapUsed: number;
  rss: number;
  external: number;
  caches: Record<string, CacheSize>;
}

const MiB = 1024 * 1024;

/** Runs nothing: no rows for every statement, 0 for a count (HEAD). */
class NullStore implements Store {
  async batch(statements: readonly Statement[]): Promise<StatementResult[]> {
    return statements.map((s) => ({ rows: /^SELECT COUNT\(\*\)/i.test(s.sql) ? [[0]] : [], rowsAffected: 0 }));
  }
  async migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.batch(statements);
  }
  close(): void {}
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "1000000" },
      every: { type: "string" },
      store: { type: "string", default: "libsql" },
      length: { type: "string", default: "0" },
    },
  });
  const length = Number(values.length);
  if (values.store !== "libsql" && values.store !== "null") throw new Error("--store takes libsql or null");
  const nullStore = values.store === "null";
  const count = Number(values.count);
  const every = Number(values.every ?? Math.min(100_000, Math.max(1, Math.floor(count / 10))));
  if (!(Number.isSafeInteger(count) && count > 0 && Number.isSafeInteger(every) && every > 0 && Number.isSafeInteger(length) && length >= 0)) {
    throw new Error("--count and --every take positive integers, --length a number of characters");
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc)
    console.log(
      "note: run with `node --expose-gc --import tsx ...` so each sample follows a full GC; without it heapUsed includes garbage not yet collected.\n",
    );

  const dir = mkdtempSync(join(tmpdir(), "extent-distinct-"));
  const handler = createRestHandler({
    context: { name: "bench", url: `file:${join(dir, "bench.db")}`, metadata: [{ source: "cc.jdo", text: MODEL }] },
    store: nullStore ? new NullStore() : undefined,
  });
  console.log(
    `store: ${nullStore ? "null (runs nothing)" : "embedded libSQL file"}; ${count.toLocaleString("en")} distinct queries${length ? ` of about ${length} characters` : ""}, a sample every ${every.toLocaleString("en")}\n`,
  );
  try {
    await handler.ready;
    const call = async (method: string, path: string, body?: unknown): Promise<number> => {
      const init: RequestInit = { method };
      if (body !== undefined) ((init.body = JSON.stringify(body)), (init.headers = { "content-type": "application/json" }));
      const response = await handler.fetch(new Request(`http://localhost${path}`, init));
      const text = await response.text();
      if (response.status >= 300 && !(method === "HEAD" && response.status === 404)) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return response.status;
    };
    if (!nullStore)
      await call("POST", "/cc.Author", {
        id: 1,
        name: "Ann",
        books: [
          { id: 1, title: "One", pages: 7 },
          { id: 2, title: "Two", pages: 9 },
        ],
      });
    // Warm-up: the same texts again later are distinct from these (negative literals).
    for (let i = 1; i <= 600; i++) await call("GET", `/jdoql?query=${enc(`SELECT FROM cc.Book WHERE pages == ${-i}`)}`);

    const samples: Sample[] = [];
    const started = performance.now();
    const sample = (done: number) => {
      if (gc) (gc(), gc());
      const m = process.memoryUsage();
      const s: Sample = {
        done,
        seconds: (performance.now() - started) / 1000,
        heapUsed: m.heapUsed / MiB,
        rss: m.rss / MiB,
        external: m.external / MiB,
        caches: cacheSizes(handler.model),
      };
      samples.push(s);
      print(s, samples.length === 1);
    };
    sample(0);
    for (let i = 0; i < count; i++) {
      const { method, path } = nthRequest(i, length);
      await call(method, path);
      if ((i + 1) % every === 0 || i + 1 === count) sample(i + 1);
    }
    summary(samples);
  } finally {
    handler.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function print(s: Sample, header: boolean): void {
  const names = Object.keys(s.caches);
  if (header) {
    console.log(
      [
        "queries",
        "seconds",
        "heapUsed MiB",
        "RSS MiB",
        "external MiB",
        ...names.map((n) => `${n} (limit${s.caches[n]!.weightLimit ? "; weight/limit" : ""})`),
      ].join(" | "),
    );
    console.log(
      Array(5 + names.length)
        .fill("---")
        .join(" | "),
    );
  }
  const cache = (n: string) => {
    const c = s.caches[n]!;
    return `${c.size} (${c.limit}${c.weightLimit ? `; ${c.weight!.toLocaleString("en")}/${c.weightLimit.toLocaleString("en")}` : ""})`;
  };
  console.log(
    [s.done.toLocaleString("en"), s.seconds.toFixed(1), s.heapUsed.toFixed(1), s.rss.toFixed(1), s.external.toFixed(1), ...names.map(cache)].join(" | "),
  );
}

/** Growth of heapUsed once every cache is full: a least-squares slope, in MiB per 100k queries. */
function summary(samples: Sample[]): void {
  const last = samples[samples.length - 1]!;
  console.log(
    `\n${last.done.toLocaleString("en")} distinct queries in ${last.seconds.toFixed(0)} s (${(last.done / last.seconds).toFixed(0)} queries/s, ${((last.seconds * 1000) / last.done).toFixed(3)} ms each)`,
  );
  // Full: at its entry limit, or within 5% of its weight limit (long texts).
  const isFull = (c: CacheSize) => c.size === c.limit || (c.weightLimit !== undefined && c.weight! > 0.95 * c.weightLimit);
  const full = samples.filter((s) => s.done > 0 && isFull(s.caches["preparedQueries"]!));
  if (full.length < 3) return void console.log("too few samples once the caches were full to tell a trend (use a larger --count or a smaller --every)");
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const slope = (ys: number[]) => {
    const xs = full.map((s) => s.done / 100_000);
    const mx = mean(xs);
    const my = mean(ys);
    return xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  };
  const heap = full.map((s) => s.heapUsed);
  const rss = full.map((s) => s.rss);
  console.log(
    `caches full from ${full[0]!.done.toLocaleString("en")} queries on: heapUsed ${Math.min(...heap).toFixed(1)}–${Math.max(...heap).toFixed(1)} MiB, slope ${slope(heap).toFixed(3)} MiB per 100k queries; RSS ${Math.min(...rss).toFixed(1)}–${Math.max(...rss).toFixed(1)} MiB, slope ${slope(rss).toFixed(3)} MiB per 100k`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
