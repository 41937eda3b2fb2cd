/**
 * The SQL alone, counted in instructions: SQLite's work on each read's statement, Extent's
 * (captured) and the hand-written one (hand-sql.ts), counted by valgrind's callgrind inside
 * `sqlite3_step` only, so that neither JavaScript nor the binding's crossing counts. A count is
 * the same from one run to the next, where sql-cost.ts's timings move by 10–30 % with a shared
 * machine; it cannot see what only time shows (cache misses, a slower instruction), so a change
 * it finds is then timed as well. Each count is of N calls less one call, in a process of its own.
 *
 *   node --import tsx test/bench/sql-instructions.ts [--only TEXT] [--calls 50]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../support/processes.ts";
import { generate } from "./data.ts";
import { HAND_READS } from "./hand-sql.ts";
import { capture, metadata } from "./servers.ts";

const { values } = parseArgs({ options: { only: { type: "string", default: "" }, calls: { type: "string", default: "50" } } });
try {
  execFileSync("valgrind", ["--version"], { stdio: "ignore" });
} catch {
  console.log("valgrind is not installed (apt-get install -y valgrind): nothing counted");
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), "extent-sql-instructions-"));
const db = join(dir, "bench.db");
await generate(db, join(dir, "db.json"), metadata);
const captured = await capture(db);

/** Instructions SQLite runs in `calls` calls of the statement (all of a process's calls of sqlite3_step). */
function counted(sql: string, params: unknown[], calls: number): number {
  const spec = join(dir, "spec.json");
  writeFileSync(spec, JSON.stringify({ db, sql, params, calls }));
  const run = spawnSync(
    "valgrind",
    ["--tool=callgrind", "--toggle-collect=sqlite3_step", "--callgrind-out-file=/dev/null", process.execPath, `${ROOT}test/bench/sql-step.mjs`, spec],
    { encoding: "utf8", cwd: ROOT },
  );
  const match = /Collected : (\d+)/.exec(run.stderr);
  if (run.status !== 0 || !match) throw new Error(`callgrind failed: ${run.stderr.slice(-2000)}`);
  return Number(match[1]);
}

const calls = Number(values.calls);
const perCall = (sql: string, params: unknown[]) => (counted(sql, params, calls) - counted(sql, params, 1)) / (calls - 1);
const rows: string[][] = [];
for (const [name, hand] of Object.entries(HAND_READS)) {
  if (!name.includes(values.only!)) continue;
  const extent = captured[name]!.statements[0]!;
  const e = perCall(extent.sql, extent.params);
  const h = perCall(hand.sql, hand.params);
  rows.push([name, Math.round(e).toLocaleString("en"), Math.round(h).toLocaleString("en"), `${(h / e).toFixed(2)}×`]);
}
rmSync(dir, { recursive: true, force: true });
const head = ["operation", "Extent's SQL", "hand-written SQL", "/hand"];
const widths = head.map((x, i) => Math.max(x.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ");
console.log(`SQLite's instructions per call of each read's statement (callgrind, inside sqlite3_step; ${calls} calls less one):`);
console.log([line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n"));
process.exit(0);
