/**
 * What the code run between two calls of a statement does to the statement. One read of the
 * bench, on a connection of its own, timed alone, called in a loop with, between two calls:
 * nothing; a busy loop of about as long as a request; garbage made; memory walked; a request to a
 * bare Hono route (what the floors run around their statement); a request to Extent whose store
 * replays its answers (Extent's own JavaScript, no SQLite). Alternating rounds in one process;
 * prints the statement's median µs in each case. The statement and the data are the same every time: what changes its time is the
 * code that ran before it (test/bench/README.md, fifth and tenth parts).
 *
 *   bun test/bench/between-calls.ts [--only "get by key"] [--rounds 10]
 *   node --import tsx test/bench/between-calls.ts …   (Node's Request and Response are heavy in-process)
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Hono } from "hono";
import { createRestHandler } from "../../src/handler.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { Statement, Store } from "../../src/store/store.ts";
import { generate } from "./data.ts";
import { OPERATIONS } from "./operations.ts";
import { metadata } from "./servers.ts";

const { values } = parseArgs({ options: { only: { type: "string", default: "get by key" }, rounds: { type: "string", default: "10" } } });
const dir = mkdtempSync(join(tmpdir(), "extent-between-"));
const file = join(dir, "bench.db");
await generate(file, join(dir, "db.json"), metadata);
const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };

for (const op of OPERATIONS.filter((o) => o.method === "GET" && o.name.includes(values.only!))) {
  const copy = join(dir, `${op.name.replace(/\W+/g, "-")}.db`);
  copyFileSync(file, copy);
  // Extent over a store that runs the first batch and replays it after; the first batch's statement is the one timed.
  const real = openStore({ name: "bench", url: `file:${copy}` });
  let first: Statement | undefined;
  let answered: Awaited<ReturnType<Store["batch"]>> | undefined;
  const store: Store = {
    interrupts: real.interrupts,
    migrate: (statements) => real.migrate(statements),
    close: () => real.close(),
    async batch(statements, mode, deadline) {
      if (answered) return answered;
      first = statements[0];
      return (answered = await real.batch(statements, mode, deadline));
    },
  };
  const handler = createRestHandler({ context: { name: "bench", url: `file:${copy}`, metadata }, prefix: "/api", store });
  await handler.ready;
  const extent = async () => void (await (await handler.fetch(new Request(`http://bench/api${op.path}`))).text());
  await extent();
  const app = new Hono().basePath("/api");
  app.get("/*", (c) => new Response(`{"path":${JSON.stringify(c.req.path)},"fetchGroup":${JSON.stringify(c.req.query("fetchGroup") ?? null)}}`));
  const hono = async () => void (await (await app.fetch(new Request(`http://bench/api${op.path}`))).text());

  const db = new Database(copy);
  const stmt = db.prepare(first!.sql).raw(true);
  const params = first!.params;
  const spin = () => {
    const start = performance.now();
    while (performance.now() - start < 0.02);
  };
  // What kind of work slows the statement: garbage (the collector's work lands in whatever
  // allocates next, the binding's result included) or memory walked (SQLite's pages and code
  // pushed out of the caches).
  const garbage = () => {
    const made: unknown[] = [];
    for (let i = 0; i < 2000; i++) made.push({ at: i, text: `x${i}`, list: [i] });
    return made.length;
  };
  const walked = new Int32Array(512 * 1024).fill(1);
  const walk = () => {
    let sum = 0;
    for (let i = 0; i < walked.length; i += 16) sum += walked[i]!;
    return sum;
  };
  const cases: [string, () => unknown][] = [
    ["nothing", () => undefined],
    ["a busy loop of 20 µs", spin],
    ["2,000 small objects made and dropped", garbage],
    ["a walk over 2 MB", walk],
    ["a bare Hono request", hono],
    ["an Extent request, its store replayed", extent],
  ];
  for (let i = 0; i < 3000; i++) for (const [, between] of cases) await between();
  const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  for (let round = 0; round < Number(values.rounds); round++)
    for (const [name, between] of cases) {
      let inCall = 0;
      let calls = 0;
      const start = performance.now();
      while (performance.now() - start < 200) {
        await between();
        const t = performance.now();
        stmt.get(params);
        inCall += performance.now() - t;
        calls++;
      }
      times.get(name)!.push((inCall * 1000) / calls);
    }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  const alone = median(times.get("nothing")!);
  for (const [name, t] of times)
    console.log(
      `${op.name.padEnd(24)} between calls: ${name.padEnd(40)} the statement ${median(t).toFixed(1).padStart(6)} µs  ${(median(t) / alone).toFixed(2)}×`,
    );
  db.close();
  handler.close();
}
rmSync(dir, { recursive: true, force: true });
process.exit(0);
