/**
 * What a request allocates, garbage included, by function: V8's sampling heap profiler (through
 * node:inspector, keeping the samples of objects already collected) over the bench's operations
 * run in-process through `handler.fetch`, on a store that answers a batch as it first did (no
 * SQLite, whose memory V8 does not see; a write is written once). Allocation is what makes the next statement slower
 * (test/bench/README.md, eleventh part). Node only: Bun has no such profiler.
 *
 *   node --import tsx test/bench/allocations.ts [--only "get by key (+to-one)"] [--count 20000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createRestHandler } from "../../src/handler.ts";
import { openStore } from "../../src/store/open-store.ts";
import type { StatementResult, Store } from "../../src/store/store.ts";
import { generate } from "./data.ts";
import { OPERATIONS } from "./operations.ts";
import { benchRequest, metadata } from "./servers.ts";

const { values } = parseArgs({ options: { only: { type: "string", default: "get by key (+to-one)" }, count: { type: "string", default: "20000" } } });
const op = OPERATIONS.find((o) => o.name === values.only) ?? OPERATIONS.find((o) => o.name.includes(values.only!));
if (!op) throw new Error(`no operation named ${values.only}`);
const count = Number(values.count);
const dir = mkdtempSync(join(tmpdir(), "extent-allocations-"));
const file = join(dir, "bench.db");
await generate(file, join(dir, "db.json"), metadata);
const real = openStore({ name: "bench", url: `file:${file}` });
const answered = new Map<string, StatementResult[]>();
const store: Store = {
  interrupts: real.interrupts,
  migrate: (statements) => real.migrate(statements),
  close: () => real.close(),
  async batch(statements, mode, deadline) {
    const key = statements.map((s) => s.sql).join("\u0000");
    const known = answered.get(key);
    if (known) return known;
    const results = await real.batch(statements, mode, deadline);
    answered.set(key, results);
    return results;
  },
};
const handler = createRestHandler({ context: { name: "bench", url: `file:${file}`, metadata }, prefix: "/api", store });
await handler.ready;
const request = async () => {
  const response = await handler.fetch(benchRequest(`http://bench/api${op.path}`, op.method, op.body));
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  await response.text();
};
for (let i = 0; i < 3000; i++) await request();
const session = new Session();
session.connect();
await session.post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (let i = 0; i < count; i++) await request();
const { profile } = await session.post("HeapProfiler.stopSampling");

type Node = (typeof profile)["head"];
const bytes = new Map<string, number>();
let total = 0;
const walk = (node: Node): void => {
  const f = node.callFrame;
  const where = `${f.functionName || "(anonymous)"}  ${f.url.replace(/^.*\/(src|node_modules)\//, "$1/").replace(/^node:internal\//, "node:")}`;
  total += node.selfSize;
  bytes.set(where, (bytes.get(where) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(profile.head);
console.log(`${op.name}: about ${(total / count / 1024).toFixed(1)} KiB allocated per request (sampled), by function:`);
for (const [where, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`${String(Math.round(b / count)).padStart(7)} B  ${where}`);
handler.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
