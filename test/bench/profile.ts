/**
 * Where Extent's own time goes: the bench's operations (test/bench/operations.ts) on the bench's
 * data, run in-process through `handler.fetch` (no sockets, no load generator on the same CPUs), for
 * a CPU profiler to sample. Prints µs per request of each operation run.
 *
 *   node --import tsx test/bench/profile.ts [--only TEXT] [--count N] [--profile FILE.cpuprofile]
 *   bun --cpu-prof --cpu-prof-dir=prof test/bench/profile.ts [--only TEXT] [--count N]
 *
 * On Node, `--profile` samples the measured requests only (node:inspector), from the first
 * operation's measured requests on (not the start-up, nor that operation's warm-up); on
 * Bun, give a `--count` large enough for the start-up to be a small part of the profile.
 *   node --import tsx test/bench/profile-top.ts prof/*.cpuprofile      (the top frames)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRestHandler } from "../../src/handler.ts";
import { ROOT } from "../support/processes.ts";
import { generate } from "./data.ts";
import { OPERATIONS } from "./operations.ts";

const { values } = parseArgs({
  options: { only: { type: "string", default: "" }, count: { type: "string", default: "" }, generate: { type: "string" }, profile: { type: "string" } },
});
const metadata = [{ source: "package.jdo", text: readFileSync(`${ROOT}test/bench/model/package.jdo`, "utf8") }];
if (values.generate) {
  await generate(values.generate, `${values.generate}.json`, metadata);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "extent-profile-"));
const dbFile = join(dir, "bench.db");
// In a process of its own: the data goes in through @libsql/client, whose copy of SQLite must not
// share this process with the binding's (two copies of SQLite in one process break each other's
// POSIX locks on the same file).
const self = fileURLToPath(import.meta.url);
const made = spawnSync(process.execPath, [...(process.versions.bun ? [] : ["--import", "tsx"]), self, "--generate", dbFile], { stdio: "inherit" });
if (made.status !== 0) throw new Error("generating the data failed");
const handler = createRestHandler({ context: { name: "bench", url: `file:${dbFile}`, metadata }, prefix: "/api" });
await handler.ready;

const request = (path: string, method: string, body?: unknown) =>
  new Request(`http://bench/api${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { "content-type": "application/json" },
  });

// Started after the first operation's warm-up, so its first-time work (parsing, planning) stays out.
let session: Awaited<ReturnType<typeof startProfiler>> | undefined;
for (const op of OPERATIONS.filter((o) => o.name.includes(values.only!))) {
  // About two seconds of each, whatever its cost: a first run tells how many make two seconds.
  const once = async () => {
    const response = await handler.fetch(request(op.path, op.method, op.body));
    if (!response.ok) throw new Error(`${op.name}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  const probe = performance.now();
  for (let i = 0; i < 50; i++) await once();
  const count = Number(values.count) || Math.max(100, Math.round(2000 / ((performance.now() - probe) / 50)));
  if (values.profile && !session) session = await startProfiler();
  const start = performance.now();
  for (let i = 0; i < count; i++) await once();
  console.log(`${op.name.padEnd(28)} ${(((performance.now() - start) / count) * 1000).toFixed(1).padStart(8)} µs  (${count} requests)`);
}
if (session) {
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(values.profile!, JSON.stringify(profile));
}
handler.close();
rmSync(dir, { recursive: true, force: true });

async function startProfiler() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  return session;
}
