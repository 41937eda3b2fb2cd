/**
 * Where a server's CPU goes, by shared object: Extent's server and the native floor under the same
 * GET load, each sampled by Linux `perf record` (the cpu-clock event, so it works without hardware
 * counters), and each object's samples given as µs per request: the JavaScript the JIT compiled
 * (`[JIT]`), the runtime's own code (`bun.exe`, `node`: natives such as Request, Response and
 * Headers, promises, the interpreter, the garbage collector), libc, the libsql binding (SQLite
 * and its Rust wrapper) and the kernel (the network). js-ab.ts times Extent's JavaScript
 * in-process; this tells what of a server's gap is that JavaScript and the runtime work it asks
 * for, and what is SQLite running slower in Extent's process (test/bench/README.md,
 * seventeenth part). The servers take turns, `--rounds` times each.
 *
 *   node --import tsx test/bench/perf-dso.ts [--runtime bun|node] [--path /bench.Book/42 | --only OPERATION] [--seconds 5] [--rounds 2] [--sort dso|sym] [--dso NAME] [--top 12]
 *
 * `--only` takes the first of the bench's operations whose name holds the text (test/bench/operations.ts),
 * its method and body too: `--only PUT`, `--only POST` (each POST adds six objects to both servers' files).
 *
 * Needs `perf` (Debian's linux-perf) and leave to sample other processes (perf_event_paranoid ≤ 2
 * as root). Bun's binary is stripped, so `--sort sym` names only the binding's and libc's functions.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { generate } from "./data.ts";
import { OPERATIONS } from "./operations.ts";
import { type Runtime, capture, metadata, startExtent, startFloor } from "./servers.ts";

const { values } = parseArgs({
  options: {
    runtime: { type: "string", default: "bun" },
    path: { type: "string", default: "/bench.Book/42" },
    only: { type: "string" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "2" },
    sort: { type: "string", default: "dso" },
    dso: { type: "string" },
    top: { type: "string", default: "12" },
  },
});
const HZ = 2000;
const op = values.only === undefined ? { method: "GET" as const, path: values.path!, body: undefined } : OPERATIONS.find((o) => o.name.includes(values.only!));
if (!op) throw new Error(`no operation's name holds ${JSON.stringify(values.only)}`);
const request = {
  method: op.method,
  body: op.body === undefined ? undefined : JSON.stringify(op.body),
  headers: op.body === undefined ? {} : { "content-type": "application/json" },
};
const dir = mkdtempSync(join(tmpdir(), "extent-perf-dso-"));
const db = join(dir, "bench.db");
await generate(db, join(dir, "db.json"), metadata);
writeFileSync(join(dir, "captured.json"), JSON.stringify(await capture(db)));
const runtime = values.runtime as Runtime;
const servers = {
  extent: await startExtent(runtime, dir, db),
  "native floor": await startFloor(runtime, db, join(dir, "captured.json"), "native"),
};
try {
  for (let round = 0; round < Number(values.rounds); round++)
    for (const [name, server] of Object.entries(servers)) {
      const url = `${server.url}/api${op.path}`;
      await autocannon({ url, ...request, connections: 10, duration: 1 });
      const data = join(dir, `${name.replace(" ", "-")}-${round}.data`);
      const perf = spawn("perf", ["record", "-q", "-F", String(HZ), "-e", "cpu-clock", "-o", data, "-p", String(server.pid)], { stdio: "ignore" });
      // perf attaches to the process's threads before the load starts.
      await new Promise((started) => setTimeout(started, 300));
      const load = await autocannon({ url, ...request, connections: 10, duration: Number(values.seconds) });
      perf.kill("SIGINT");
      await new Promise((stopped) => perf.on("close", stopped));
      const report = execFileSync(
        "perf",
        ["report", "-i", data, "--sort", values.sort!, "--stdio", "-q", "-F", `sample,${values.sort}`, ...(values.dso ? ["--dsos", values.dso] : [])],
        { encoding: "utf8", maxBuffer: 1 << 26 },
      );
      const rows = report
        .split("\n")
        .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
        .filter((m): m is RegExpMatchArray => m !== null)
        .map((m) => ({ us: (Number(m[1]) * 1e6) / HZ / load.requests.total, what: m[2]! }))
        .sort((a, b) => b.us - a.us);
      const total = rows.reduce((sum, r) => sum + r.us, 0);
      console.log(`${runtime} ${name}, round ${round + 1}: ${load.requests.total} requests, ${total.toFixed(1)} µs sampled per request`);
      for (const r of rows.slice(0, Number(values.top))) console.log(`  ${r.us.toFixed(1).padStart(7)} µs  ${r.what}`);
    }
} finally {
  for (const server of Object.values(servers)) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
