/**
 * Servers A/B under HTTP load: Extent from one or more checkouts and the native floor, the bench's
 * operations, alternating rounds, each server's CPU time per request from /proc (user + system, all
 * its threads; Linux only). A change worth a few per cent of a request is lost in requests/s on a
 * shared machine; CPU per request, measured in alternating rounds, keeps it.
 *
 *   node --import tsx test/bench/server-ab.ts [--runtime node|bun] [--only TEXT | --path /bench.Book/42 [--method HEAD]] [--rounds 5] [--seconds 3] [--connections 10] [--processes 1] [--threads] CHECKOUT... [floor] [hand]
 *
 * A checkout is a folder holding Extent's src/ (a git worktree: `git worktree add --detach
 * ../before <commit>`, with node_modules linked); `floor` is the native floor of this checkout
 * (test/bench/floor-server.ts on the `libsql` binding, running the statements this checkout's
 * Extent runs), and `hand` the hand-written SQL (test/bench/hand-server.ts). Each server gets
 * its own copy of the generated data. Prints, per operation and server, the median and least CPU
 * µs per request, and the median's ratio to the floor's (floor / server: 1 is the floor's cost,
 * higher is cheaper). On a shared machine whose speed moves between runs (by 40 % within one
 * session, seen), a difference of 10 µs a request needs about 12 rounds to stand: 3 to 5 rounds
 * have put the same two servers in either order.
 *
 * `--processes N` starts N processes of each server (each on its own copy of the data), taken in
 * turn in every round, and reports each server over all of them, with each process's median
 * beside it: two processes of the same code on Bun have differed by 8–10 % in CPU per request
 * through a whole run (their JIT's choices, where the kernel put them), so one process per server
 * can put a difference of that size either way (test/bench/README.md, seventeenth part).
 *
 * `--threads` adds, per server, each thread that took at least 1 % of its CPU: the median of its
 * CPU µs and context switches per request (the binding's timer thread, the runtime's own).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { type Running, type ThreadStat, cpuMicros, threadStats } from "../support/processes.ts";
import { generate } from "./data.ts";
import { OPERATIONS } from "./operations.ts";
import { type Runtime, capture, metadata, startExtent, startFloor, startHand } from "./servers.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runtime: { type: "string", default: "node" },
    only: { type: "string", default: "" },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    /** A GET of this path (under /api) instead of the bench's operations: for the checkouts, not the baselines. */
    path: { type: "string" },
    /** The method of `--path`'s request (GET, HEAD). */
    method: { type: "string", default: "GET" },
    /** Each thread's CPU and context switches per request too. */
    threads: { type: "boolean", default: false },
    /** Processes started per server, taken in turn each round. */
    processes: { type: "string", default: "1" },
  },
});
if (!positionals.length) throw new Error("usage: server-ab.ts [--runtime node|bun] [--only TEXT] CHECKOUT... [floor] [hand]");
const runtime = values.runtime as Runtime;
const dir = mkdtempSync(join(tmpdir(), "extent-server-ab-"));
const dbFile = join(dir, "bench.db");
await generate(dbFile, join(dir, "db.json"), metadata);
const sqlFile = join(dir, "captured.json");
writeFileSync(sqlFile, JSON.stringify(await capture(dbFile)));

/** The servers named by a word instead of a checkout: the baselines of this checkout. */
const BASELINES = new Map<string, { name: string; start: (db: string) => Promise<Running> }>([
  ["floor", { name: "native floor", start: (db) => startFloor(runtime, db, sqlFile, "native") }],
  ["hand", { name: "hand-written SQL", start: (db) => startHand(runtime, db) }],
]);
/** Each server process, with its server's name (shared by its processes) and its own. */
const servers: { name: string; process: string; server: Running }[] = [];

/** Per operation and server, per thread id: its name and, each round, its CPU µs and switches per request. */
const threads = new Map<string, Map<number, { name: string; pid: number; cpu: number[]; switches: number[] }>>();

/** Per operation, server and process, the rounds measured: a thread absent from one of its process's rounds took nothing in it. */
const roundsOf = new Map<string, number>();

function perThread(key: string, pid: number, before: Map<number, ThreadStat>, after: Map<number, ThreadStat>, requests: number): void {
  const byTid = threads.get(key) ?? new Map();
  threads.set(key, byTid);
  roundsOf.set(`${key}\u0000${pid}`, (roundsOf.get(`${key}\u0000${pid}`) ?? 0) + 1);
  for (const [tid, now] of after) {
    const then = before.get(tid) ?? { cpuMicros: 0, switches: 0 };
    const t = byTid.get(tid) ?? { name: now.name, pid, cpu: [], switches: [] };
    t.cpu.push((now.cpuMicros - then.cpuMicros) / requests);
    t.switches.push((now.switches - then.switches) / requests);
    byTid.set(tid, t);
  }
}

/**
 * The threads that took at least 1 % of the server's median CPU per request, most first. Each
 * thread's median is over every round, counting 0 for the rounds it was not there: the runtime's
 * compiler threads come and go, and one seen in a single round of compiling is not a steady cost.
 */
function printThreads(key: string, total: number): void {
  const mid = (xs: number[], pid: number) => {
    const rounds = roundsOf.get(`${key}\u0000${pid}`) ?? 0;
    const all = [...xs, ...Array<number>(Math.max(0, rounds - xs.length)).fill(0)].sort((a, b) => a - b);
    return all[Math.floor(all.length / 2)]!;
  };
  const rows = [...(threads.get(key) ?? new Map()).entries()].map(([tid, t]) => ({
    tid,
    name: t.name,
    cpu: mid(t.cpu, t.pid),
    switches: mid(t.switches, t.pid),
  }));
  for (const r of rows.filter((r) => r.cpu >= total / 100).sort((a, b) => b.cpu - a.cpu))
    console.log(
      `    thread ${String(r.tid).padEnd(8)} ${r.name.padEnd(16)} ${r.cpu.toFixed(1).padStart(7)} µs/req  ${r.switches.toFixed(2).padStart(6)} switches/req`,
    );
}
try {
  const processes = Number(values.processes);
  for (const [i, spec] of positionals.entries())
    for (let p = 0; p < processes; p++) {
      const db = join(dir, `server-${i}-${p}.db`);
      copyFileSync(dbFile, db);
      const baseline = BASELINES.get(spec);
      const server = baseline ? await baseline.start(db) : await startExtent(runtime, dir, db, { root: resolve(spec), name: `s${i}-${p}` });
      const name = baseline?.name ?? spec;
      servers.push({ name, process: `${name}#${p}`, server });
    }
  const names = [...new Set(servers.map((s) => s.name))];
  const cpu = new Map<string, number[]>();
  const operations = values.path
    ? [{ name: `${values.method} ${values.path}`, method: values.method as "GET", path: values.path, body: undefined }]
    : OPERATIONS;
  for (const op of operations.filter((o) => o.name.includes(values.only!))) {
    const options = (url: string) => ({
      url: `${url}/api${op.path}`,
      method: op.method,
      connections: Number(values.connections),
      body: op.body === undefined ? undefined : JSON.stringify(op.body),
      headers: op.body === undefined ? {} : { "content-type": "application/json" },
    });
    for (const { server } of servers) await autocannon({ ...options(server.url), duration: 1 });
    for (let round = 0; round < Number(values.rounds); round++)
      for (const { name, process, server } of servers) {
        const before = cpuMicros(server.pid)!;
        const threadsBefore = values.threads ? threadStats(server.pid) : undefined;
        const out = await autocannon({ ...options(server.url), duration: Number(values.seconds) });
        if (out.non2xx || out.errors) throw new Error(`${name}, ${op.name}: ${out.non2xx} non-2xx answers, ${out.errors} errors`);
        const key = `${op.name}\u0000${name}`;
        const perRequest = (cpuMicros(server.pid)! - before) / out.requests.total;
        cpu.set(key, [...(cpu.get(key) ?? []), perRequest]);
        cpu.set(`${op.name}\u0000${process}`, [...(cpu.get(`${op.name}\u0000${process}`) ?? []), perRequest]);
        if (threadsBefore) perThread(key, server.pid, threadsBefore, threadStats(server.pid), out.requests.total);
      }
    const median = (name: string) => {
      const all = [...cpu.get(`${op.name}\u0000${name}`)!].sort((a, b) => a - b);
      return { median: all[Math.floor(all.length / 2)]!, least: all[0]! };
    };
    const floor = servers.some((s) => s.name === "native floor") ? median("native floor").median : undefined;
    for (const name of names) {
      const { median: m, least } = median(name);
      const ratio = floor === undefined ? "" : `  floor/this ${(floor / m).toFixed(2)}×`;
      const own = servers.filter((s) => s.name === name);
      const each = own.length > 1 ? `  processes ${own.map((s) => median(s.process).median.toFixed(0)).join(" / ")}` : "";
      console.log(
        `${runtime} ${op.name.padEnd(24)} ${name.padEnd(28)} median ${m.toFixed(0).padStart(6)} µs  least ${least.toFixed(0).padStart(6)} µs${ratio}${each}`,
      );
      if (values.threads) printThreads(`${op.name}\u0000${name}`, m);
    }
  }
} finally {
  for (const { server } of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
