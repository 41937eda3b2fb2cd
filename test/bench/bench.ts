/**
 * `npm run bench [-- --runtime all|node|bun] [--duration 5] [--rounds 3] [--warmup 1] [--connections 10] [--processes 1] [--no-sql-cost] [--no-worker] [--no-large] [--no-wire] [--only TEXT] [--profile DIR]`
 * (--rounds R: each server's --duration split into R loads, every server taken in turn in each
 * round, each ratio the median of the rounds' own ratios)
 * (--processes N: N processes of Extent, of each floor and of the hand-written server, each
 * operation driven on each in turn and the measures pooled; a process's own speed stays with it
 * through a run, by up to a quarter on Bun, so one process per server can tilt a ratio by that)
 * (--profile: Extent's server and the native floor run under `--cpu-prof`, their profiles written
 * to DIR/extent-RUNTIME and DIR/native-floor-RUNTIME when the bench stops them; `node --import tsx
 * test/bench/profile-top.ts DIR/extent-node/*.cpuprofile` prints the top frames)
 * (before the tables: each read's statement timed against the hand-written one in this process,
 * sql-cost.ts, unless --no-sql-cost; after the tables: the worker bundle's gzip size and its cold start, unless --no-worker; a
 * streamed extent of 100,000 objects against one of 100, and pages 1 and 1,000 of it by cursor and
 * by range (test/bench/listing-pages.ts), unless --no-large; the bytes on the wire of those extents
 * with and without gzip, unless --no-wire. autocannon sends no Accept-Encoding, so the table's
 * answers are not compressed)
 *
 * Generates the data set (test/bench/data.ts), captures the SQL Extent runs for each operation,
 * starts five servers as their own processes on this machine — Extent (src/local.ts), two floors
 * (test/bench/floor-server.ts: Hono running Extent's exact SQL, on @libsql/client and on the
 * libsql binding Extent itself uses), the hand-written SQL a person would write for each request
 * (test/bench/hand-server.ts, on the same binding) and json-server — checks that the floors and
 * the hand-written server answer what Extent answers, then drives each operation on each server with autocannon and prints one table:
 * requests/s, p50 and p99 latency, statements per request, and the ratios to each baseline from
 * this same run. Claims of speed live here,
 * never in a timed test.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import { ROOT, type Running, cpuMicros, freePort, startServer } from "../support/processes.ts";
import { COUNTS, type DataSet, generate } from "./data.ts";
import type { Captured } from "./floor-app.ts";
import { OPERATIONS, type Operation } from "./operations.ts";
import { type Runtime, benchRequest, capture, metadata, startExtent, startFloor, startHand } from "./servers.ts";
import { spawnSync } from "node:child_process";
import { BENCH_CASES, measureLargeExtents } from "./large-extent.ts";
import { buildWorkerBundle, measureColdStart } from "./worker-metrics.ts";
import { measureWireBytes } from "./wire-bytes.ts";
import { measureSqlCost } from "./sql-cost.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
/** Both runtimes by default, one table each, each on its own copy of the same data. */
const runtimes: Runtime[] = flag("runtime", "all") === "all" ? ["node", "bun"] : [flag("runtime", "all") as Runtime];
const duration = Number(flag("duration", "5"));
/** Seconds of load before each measured run, not counted: JIT compilation, first statements prepared. */
const warmup = Number(flag("warmup", "1"));
const connections = Number(flag("connections", "10"));
/** Processes per server (json-server aside), driven in turn and pooled. */
const processes = Number(flag("processes", "1"));
/**
 * Rounds per operation: each server's `duration` split into this many loads, the servers taken in
 * turn in every round, so that a baseline is measured seconds from Extent rather than up to a
 * minute; each ratio is the median of the rounds' own ratios. One 4 s load per server moved an
 * operation's ratio by ±10–25 % between runs on this machine (its speed moves with the machine's).
 */
const rounds = Math.max(1, Number(flag("rounds", "3")));

/** With --profile DIR, `argv` run under the CPU profiler, its profile written to DIR/NAME when the server stops. */
function profiled(argv: string[], name: string): string[] {
  const dir = flag("profile", "");
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${resolve(dir, name)}`, ...argv] : argv;
}

async function startJsonServer(jsonFile: string): Promise<Running> {
  const port = await freePort();
  return startServer(process.execPath, [`${ROOT}node_modules/json-server/lib/cli/bin.js`, "--port", String(port), "--host", "127.0.0.1", "--quiet", jsonFile], {
    probe: `http://127.0.0.1:${port}/items/1`,
  });
}

/** The floor must answer what Extent answers, or the ratio means nothing. */
async function checkFloor(extent: string, floor: Running): Promise<void> {
  for (const op of OPERATIONS) {
    // One after the other: both write to the same database file.
    const answer = async (base: string) => {
      const r = await fetch(benchRequest(`${base}/api${op.path}`, op.method, op.body));
      const text = await r.text();
      try {
        return { status: r.status, body: JSON.parse(text) };
      } catch {
        throw new Error(`${op.name} on ${base}: ${r.status} ${text}\n${floor.output().slice(-2000)}`);
      }
    };
    const a = await answer(extent);
    const b = await answer(floor.url);
    const strip = (x: unknown): unknown => (op.method === "POST" ? JSON.parse(JSON.stringify(x).replace(/"id":\d+/g, '"id":0')) : x);
    assert.equal(b!.status, a!.status, `${op.name}: floor status`);
    assert.deepEqual(strip(b!.body), strip(a!.body), `${op.name}: the floor's answer differs from Extent's`);
  }
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time per request, in µs (Linux): steady when other work shares the machine. */
  cpu?: number | undefined;
}

/** One server's measures over its processes: the mean of each, the worst p99, every error. */
function pooled(measures: readonly Measure[]): Measure {
  if (measures.length === 1) return measures[0]!;
  const mean = (of: (m: Measure) => number) => measures.reduce((sum, m) => sum + of(m), 0) / measures.length;
  const cpu = measures.every((m) => m.cpu !== undefined) ? mean((m) => m.cpu!) : undefined;
  return {
    rps: mean((m) => m.rps),
    p50: Math.round(mean((m) => m.p50)),
    p99: Math.max(...measures.map((m) => m.p99)),
    errors: measures.reduce((sum, m) => sum + m.errors, 0),
    cpu,
  };
}

/** The median of some ratios (the mean of the middle two for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A server's measures over the rounds (each pooled over its processes), and its ratios to another's round by round. */
class Rounds {
  readonly each: Measure[] = [];
  get pooled(): Measure {
    return pooled(this.each);
  }
  /** The median over rounds of this server's requests/s over `other`'s in the same round. */
  speedOver(other: Rounds): number {
    return median(this.each.map((m, r) => m.rps / other.each[r]!.rps));
  }
  /** The median over rounds of `other`'s CPU per request over this server's (undefined without CPU times). */
  cpuUnder(other: Rounds): number | undefined {
    if (this.each.some((m, r) => m.cpu === undefined || other.each[r]!.cpu === undefined)) return undefined;
    return median(this.each.map((m, r) => other.each[r]!.cpu! / m.cpu!));
  }
}

async function load(url: string, method: string, body?: unknown, pid?: number, warm = true): Promise<Measure> {
  const options = {
    url,
    method: method as "GET",
    connections,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { "content-type": "application/json" },
  };
  if (warm && warmup > 0) await autocannon({ ...options, duration: warmup });
  const before = pid === undefined ? undefined : cpuMicros(pid);
  const r = await autocannon({ ...options, duration: duration / rounds });
  const after = pid === undefined ? undefined : cpuMicros(pid);
  const cpu = before === undefined || after === undefined ? undefined : (after - before) / r.requests.total;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts, cpu };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "extent-bench-"));
  const dbFile = join(dir, "bench.db");
  console.log(
    `Generating ${COUNTS.publishers} publishers, ${COUNTS.publishers * COUNTS.editorsPerPublisher} editors, ${COUNTS.authors} authors, ${COUNTS.items} works ...`,
  );
  const data = await generate(dbFile, join(dir, "db.json"), metadata);
  const captured = await capture(dbFile);
  const sqlFile = join(dir, "captured.json");
  writeFileSync(sqlFile, JSON.stringify(captured));
  if (args.includes("--show-sql")) {
    // What each operation runs, for whoever works on the plans; no load is driven.
    for (const op of OPERATIONS)
      console.log(`\n${op.name}\n${captured[op.name]!.statements.map((s, i) => `  ${i + 1}. ${s.sql}  -- ${JSON.stringify(s.params)}`).join("\n")}`);
    rmSync(dir, { recursive: true, force: true });
    return;
  }

  // Each read's statement against the hand-written one, before any server loads the machine.
  if (!args.includes("--no-sql-cost")) await measureSqlCost(dbFile, captured);

  for (const runtime of runtimes) {
    // Each runtime's servers on their own copy of the data: the POSTs of one table do not grow the next one's.
    const copy = join(dir, `bench-${runtime}.db`);
    copyFileSync(dbFile, copy);
    await table(runtime, dir, copy, sqlFile, captured, data);
  }
  try {
    if (!args.includes("--no-worker")) await printWorker(join(dir, "worker"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!args.includes("--no-large")) {
    // The server's memory and the first byte of a 100,000-object extent, against 100 objects
    // (test/bench/large-extent.ts prints more cases run alone).
    console.log("\nLarge extents, streamed:");
    await measureLargeExtents(BENCH_CASES);
    // Page 1 and page 1,000 of the same 100,000 objects, by cursor and by range (its own process).
    console.log("");
    spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "listing-pages.ts")], { stdio: "inherit" });
  }
  if (!args.includes("--no-wire")) await measureWireBytes();
}

/** One runtime's table: Extent, the two floors and json-server on `dbFile`, every operation on each. */
async function table(runtime: Runtime, dir: string, dbFile: string, sqlFile: string, captured: Record<string, Captured>, data: DataSet): Promise<void> {
  const servers: Running[] = [];
  try {
    // One set per process: Extent, the two floors and the hand-written server (the first set profiled with --profile).
    const sets: Running[][] = [];
    for (let p = 0; p < processes; p++) {
      const profile = (name: string) => (p === 0 ? (argv: string[]) => profiled(argv, `${name}-${runtime}`) : undefined);
      const set = await Promise.all([
        startExtent(runtime, dir, dbFile, { name: `${runtime}-${p}`, wrap: profile("extent") }),
        startFloor(runtime, dbFile, sqlFile, "client"),
        startFloor(runtime, dbFile, sqlFile, "native", profile("native-floor")),
        startHand(runtime, dbFile),
      ]);
      servers.push(...set);
      sets.push(set);
    }
    const jsonServer = await startJsonServer(data.jsonFile);
    servers.push(jsonServer);
    for (const [extent, ...baselines] of sets) for (const baseline of baselines) await checkFloor(extent!.url, baseline!);
    const each = processes > 1 ? `, on each of ${processes} processes of every server but json-server in turn, pooled` : "";
    const split = rounds > 1 ? ` in ${rounds} rounds (the servers in turn in each; a ratio is the median of the rounds' own)` : "";
    console.log(
      `\n${runtime}: ${data.objects} objects; autocannon ${connections} connections × ${duration} s per operation and server${split}${each}, after ${warmup} s of warm-up; the floors and the hand-written SQL answer what Extent answers.\n`,
    );

    const rows: string[][] = [];
    // --only TEXT: the operations whose name holds TEXT (while working on one).
    const only = flag("only", "");
    for (const op of OPERATIONS.filter((o) => o.name.includes(only))) {
      // Extent, the two floors and the hand-written server (a set's order), then json-server.
      const measured = [new Rounds(), new Rounds(), new Rounds(), new Rounds()] as const;
      const json = new Rounds();
      for (let round = 0; round < rounds; round++) {
        const warm = round === 0;
        const perProcess = measured.map((): Measure[] => []);
        for (const set of sets) {
          for (const [i, server] of set.entries()) perProcess[i]!.push(await load(`${server.url}/api${op.path}`, op.method, op.body, server.pid, warm));
        }
        measured.forEach((server, i) => server.each.push(pooled(perProcess[i]!)));
        if (op.jsonServer) json.each.push(await load(`${jsonServer.url}${op.jsonServer.path}`, op.jsonServer.method, op.jsonServer.body, undefined, warm));
      }
      rows.push(row(op, captured[op.name]!.statements.length, ...measured, op.jsonServer ? json : undefined));
    }
    printTable(rows);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** The worker bundle as `wrangler deploy` builds it, and its cold start in a fresh local workerd. */
async function printWorker(outDir: string): Promise<void> {
  const bundle = await buildWorkerBundle(outDir);
  const cold = await measureColdStart(outDir, 3, { baseline: true });
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(`\nWorker bundle: ${(bundle.bytes / 1024).toFixed(0)} KiB, ${(bundle.gzipBytes / 1024).toFixed(0)} KiB gzip (budget 1024 KiB gzip).`);
  console.log(
    `Cold start in local workerd (median of ${cold.runs}): ready ${ms(cold.median.startMs)}, first request ${ms(cold.median.firstRequestMs)} (on a database whose schema is made: ${ms(cold.median.firstOnExistingMs)}), warm request ${ms(cold.median.warmRequestMs)}` +
      (cold.baseline
        ? `; a minimal D1 worker: ${ms(cold.baseline.median.startMs)}, ${ms(cold.baseline.median.firstRequestMs)} (${ms(cold.baseline.median.firstOnExistingMs)}), ${ms(cold.baseline.median.warmRequestMs)}.`
        : "."),
  );
}

const TARGET_JSON = 3;
/** Against the SQL a person would write for each request (issue 22). */
const TARGET_HAND = 0.8;

function row(op: Operation, statements: number, e: Rounds, f: Rounds, n: Rounds, m: Rounds, j?: Rounds): string[] {
  const vsFloor = e.speedOver(f);
  const vsNative = e.speedOver(n);
  const vsHand = e.speedOver(m);
  const vsJson = j ? e.speedOver(j) : undefined;
  const cpuVsNative = e.cpuUnder(n);
  /** A ratio against its target, ✗ when short of it; three decimals where two would round a miss up to the target. */
  const judged = (ratio: number, target: number) => {
    const shown = ratio < target && ratio.toFixed(2) === target.toFixed(2) ? ratio.toFixed(3) : ratio.toFixed(2);
    return `${shown}×${ratio >= target ? "" : " ✗"}`;
  };
  const cell = (r: Rounds) => {
    const m = r.pooled;
    return `${m.rps.toFixed(0)} ${m.p50}/${m.p99}${m.errors ? ` (${m.errors} errors)` : ""}`;
  };
  const [eCpu, nCpu] = [e.pooled.cpu, n.pooled.cpu];
  return [
    op.name,
    String(statements),
    cell(e),
    cell(f),
    cell(n),
    cell(m),
    j ? cell(j) : "—",
    judged(vsFloor, op.floorTarget),
    judged(vsNative, op.floorTarget),
    judged(vsHand, TARGET_HAND),
    vsJson === undefined ? "—" : `${vsJson.toFixed(1)}×${vsJson >= TARGET_JSON ? "" : " ✗"}`,
    eCpu === undefined || nCpu === undefined || cpuVsNative === undefined
      ? "—"
      : `${eCpu.toFixed(0)}/${nCpu.toFixed(0)} ${judged(cpuVsNative, op.floorTarget)}`,
  ];
}

function printTable(rows: string[][]): void {
  const head = [
    "operation",
    "stmts",
    "Extent req/s p50/p99 ms",
    "floor req/s p50/p99",
    "native floor req/s p50/p99",
    "hand SQL req/s p50/p99",
    "json-server req/s p50/p99",
    "/floor",
    "/native",
    "/hand",
    "/json-server",
    "CPU µs/req Extent/native",
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
  console.log(
    `\nRatios are Extent's requests/s over each baseline's${rounds > 1 ? ", the median of the rounds' own" : ""}. Targets (issue 22, for both floors): ≥ 0.9× on get by key and extents, ≥ 0.85× on queries, ≥ 0.8× on writes; ≥ ${TARGET_HAND}× the hand-written SQL; ≥ ${TARGET_JSON}× json-server where both serve (✗ marks a miss).` +
      `\nfloor: Hono + @libsql/client; native floor: Hono + the libsql binding Extent itself runs embedded files on (both run Extent's own statements);` +
      `\nhand SQL: Hono + the same binding running the SQL a person would write for each request (test/bench/hand-server.ts). stmts: SQL statements per request (one batch each).` +
      `\nCPU µs/req: each server process's CPU time (user + system, from /proc) over the requests it answered, and the native floor's over Extent's: unlike requests/s, it holds when other work loads the machine.`,
  );
}

await main();
