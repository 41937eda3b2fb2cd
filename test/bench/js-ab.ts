/**
 * Extent's own JavaScript per request, checkouts compared in one process. Each checkout's handler
 * runs the bench's operations in-process over a store that runs each batch on a real embedded file
 * once and then answers it again from what it answered (no SQLite at all), so what is timed is
 * routing, reading the request, planning, binding and building the answer, with the Request and
 * Response around them. The checkouts alternate in rounds of 150 ms in one process (their order
 * swapped every round), which keeps out what moves between processes on a shared machine: the
 * same checkout against itself reads 0.95–1.02×, where server-ab.ts needs a dozen rounds to see 10 %.
 * Prints each checkout's median µs per request and the paired median of B/A per round.
 *
 *   bun test/bench/js-ab.ts [--only TEXT] [--rounds 20] CHECKOUT [CHECKOUT]
 *   node --import tsx test/bench/js-ab.ts …   (Node's Request and Response cost more than the rest)
 *
 * A checkout is a folder with Extent's src/ (a git worktree with node_modules linked, as for ab.ts),
 * or the word `floor`: the native floor's routes (test/bench/floor-app.ts) over this checkout's
 * captured statements, their results replayed in the same way, so that Extent's JavaScript can be
 * set against the floor's for the same request (both without their store's driver).
 * What this cannot see is what the replayed store leaves out: SQLite's own time, and how Extent's
 * code around a statement slows the statement (test/bench/README.md, fifth part).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Statement, StatementResult, Store } from "../../src/store/store.ts";
import { generate } from "./data.ts";
import { OPERATIONS, type Operation } from "./operations.ts";
import { type Captured, type Results, type Run, floorApp } from "./floor-app.ts";
import { capture, metadata } from "./servers.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { only: { type: "string", default: "" }, rounds: { type: "string", default: "20" } },
});
if (!positionals.length) throw new Error("usage: js-ab.ts [--only TEXT] [--rounds N] CHECKOUT [CHECKOUT]");
const rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), "extent-js-ab-"));
const data = join(dir, "bench.db");
await generate(data, join(dir, "db.json"), metadata);

/** A store that runs each batch (by its statements' texts) once, then answers it as it did. */
function replaying(real: Store): Store & { replay: boolean } {
  // By the first statement's text, then its count and last text: enough to tell the bench's
  // batches apart. Looked up by the texts themselves, which Extent's caches hand out as the same
  // strings each time (their hashes kept), not by a key joined per batch: a joined key of a read's
  // long SQL cost the read about 3 µs here (its text made and hashed), which the floor's replay
  // (by operation name) never paid.
  const answered = new Map<string, { count: number; last: string | undefined; results: StatementResult[] }[]>();
  const find = (statements: readonly Statement[]) =>
    answered.get(statements[0]?.sql ?? "")?.find((a) => a.count === statements.length && a.last === statements.at(-1)?.sql);
  const record = (statements: readonly Statement[], results: StatementResult[]) => {
    const first = statements[0]?.sql ?? "";
    answered.set(first, [...(answered.get(first) ?? []), { count: statements.length, last: statements.at(-1)?.sql, results }]);
  };
  return {
    replay: false,
    interrupts: real.interrupts,
    // As the embedded store, which answers at once every batch it runs on the calling thread: a
    // replayed read is one that ran within its lane's time there.
    batchNow(statements, mode, deadline) {
      const known = this.replay ? find(statements) : undefined;
      if (known) return known.results;
      const results = real.batchNow?.(statements, mode, deadline);
      if (results) record(statements, results);
      return results;
    },
    migrate: (statements) => real.migrate(statements),
    close: () => real.close(),
    async batch(statements, mode, deadline) {
      const known = this.replay ? find(statements) : undefined;
      if (known) return known.results;
      const results = await real.batch(statements, mode, deadline);
      record(statements, results);
      return results;
    },
  };
}

interface Contender {
  root: string;
  once: () => Promise<void>;
  times: number[];
  close: () => void;
}

/** The request of `op` to a handler, its answer read; throws on an answer that is not 2xx. */
function requestOf(name: string, op: Operation, fetch: (request: Request) => Response | Promise<Response>): () => Promise<void> {
  const body = op.body === undefined ? undefined : JSON.stringify(op.body);
  const headers: Record<string, string> =
    body === undefined ? {} : { "content-type": "application/json", "content-length": String(new TextEncoder().encode(body).length) };
  return async () => {
    const response: Response = await fetch(new Request(`http://bench/api${op.path}`, { method: op.method, body, headers }));
    if (!response.ok) throw new Error(`${name} ${op.name}: ${response.status} ${await response.text()}`);
    await response.text();
  };
}

/** Warm: the JIT's tiers, every cache filled. */
async function warm(once: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 3000; i++) await once();
}

let captured: Record<string, Captured> | undefined;

/**
 * The native floor's routes over a Run that binds each statement's values as the floor's driver
 * is given them, and answers what the statements answered on a real file the first time.
 */
async function floorContender(op: Operation, n: number): Promise<Contender> {
  const file = join(dir, `${n}.db`);
  copyFileSync(data, file);
  captured ??= await capture(data);
  const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };
  const db = new Database(file);
  const answered = new Map<string, Results>();
  const run: Run = async (name, params) => {
    const c = captured![name]!;
    const args = c.statements.map((s, i) => (params ? params(i, s.params) : s.params));
    let results = answered.get(name);
    if (!results) {
      results = c.statements.map((s, i) => {
        const stmt = db.prepare(s.sql);
        return { rows: stmt.reader ? stmt.raw(true).all(args[i]) : (stmt.run(args[i]), []) };
      });
      answered.set(name, results);
    }
    return results;
  };
  const once = requestOf("floor", op, floorApp(run).fetch);
  await warm(once);
  return { root: "floor", once, times: [], close: () => db.close() };
}

async function contender(root: string, op: Operation, n: number): Promise<Contender> {
  if (root === "floor") return floorContender(op, n);
  const file = join(dir, `${n}.db`);
  copyFileSync(data, file);
  const { openStore } = await import(join(root, "src/store/open-store.ts"));
  const { createRestHandler } = await import(join(root, "src/handler.ts"));
  const store = replaying(openStore({ name: "bench", url: `file:${file}` }));
  const handler = createRestHandler({ context: { name: "bench", url: `file:${file}`, metadata }, prefix: "/api", store });
  await handler.ready;
  const once = requestOf(root, op, (request) => handler.fetch(request));
  await once();
  store.replay = true;
  await warm(once);
  return { root, once, times: [], close: () => handler.close() };
}

const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;

for (const op of OPERATIONS.filter((o) => o.name.includes(values.only!))) {
  const contenders: Contender[] = [];
  for (const [i, root] of positionals.entries()) contenders.push(await contender(root === "floor" ? root : resolve(root), op, i));
  for (let round = 0; round < rounds; round++)
    for (const c of round % 2 ? [...contenders].reverse() : contenders) {
      let count = 0;
      const start = performance.now();
      while (performance.now() - start < 150) {
        await c.once();
        count++;
      }
      c.times.push(((performance.now() - start) * 1000) / count);
    }
  const [a, b] = contenders;
  for (const c of contenders) console.log(`${op.name.padEnd(24)} ${c.root.padEnd(28)} median ${median(c.times).toFixed(1).padStart(7)} µs`);
  if (a && b) console.log(`${op.name.padEnd(24)} B/A per round, median ${median(b.times.map((t, i) => t / a.times[i]!)).toFixed(3)}×`);
  for (const c of contenders) c.close();
}
rmSync(dir, { recursive: true, force: true });
process.exit(0);
