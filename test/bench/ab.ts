/**
 * Two checkouts of Extent, the same requests, one machine: which is faster at its own work?
 * Each checkout's handler runs in-process (no HTTP, so the noise of sockets and of a load
 * generator sharing the CPUs stays out), over the sample model on a temporary embedded file, in
 * a process of its own; the two alternate, `--rounds` times each, and the best round of each
 * counts (the least disturbed). Prints µs per request and the ratio of B's to A's per operation.
 *
 *   node --import tsx test/bench/ab.ts <checkout A> <checkout B> [--runtime node|bun] [--rounds 3]
 *
 * A checkout is a folder with Extent's src/, test/support/harness.ts and node_modules (a git
 * worktree: `git worktree add --detach ../before <commit>`). Run without checkouts by this file
 * itself (`--child <checkout>`) to measure one.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const OPERATIONS = { "GET by key": 5000, "PUT partial": 2000, "POST a graph (1+5)": 800 } as const;
type Operation = keyof typeof OPERATIONS;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runtime: { type: "string", default: "node" }, rounds: { type: "string", default: "3" }, child: { type: "string" } },
});

if (values.child) await measure(resolve(values.child));
else compare();

/** One checkout, one process: µs per request of each operation (best of 5 runs), as JSON on stdout. */
async function measure(root: string): Promise<void> {
  // The harness checks every cached write plan against a fresh one in tests: not in a measurement.
  process.env.EXTENT_VERIFY_WRITE_PLANS = "0";
  const { startHarness } = await import(join(root, "test/support/harness.ts"));
  const { resolveContext } = await import(join(root, "src/config/resolve-context.ts"));
  const { loadConfigDir } = await import(join(root, "src/runtime/load-config-dir.ts"));
  const resolved = resolveContext(await loadConfigDir(join(root, "schema/jdo")), "sample");
  const h = await startHarness({ metadata: (resolved.context ?? resolved).metadata });
  const AUTHOR = "/org.extent.sample.Author";
  let n = 0;
  const expect = (r: { status: number; text: string; body?: any }, status: number) => {
    if (r.status !== status) throw new Error(`${r.status}: ${r.text.slice(0, 200)}`);
    return r;
  };
  const post = async () => {
    n++;
    const works = [1, 2, 3, 4, 5].map((i) => ({ class: "org.extent.sample.Book", title: `Work ${n}.${i}`, isbn: `${n}-${i}`, pages: i }));
    return expect(await h.post(AUTHOR, { name: `Author ${n}`, works }), 201).body._id;
  };
  const id = await post();
  const run: Record<Operation, () => Promise<unknown>> = {
    "GET by key": async () => expect(await h.get(`${AUTHOR}/${id}`), 200),
    "PUT partial": async () => expect(await h.put(`${AUTHOR}/${id}`, { name: `Renamed ${n++}` }), 200),
    "POST a graph (1+5)": post,
  };
  const result: Record<string, number> = {};
  for (const [name, count] of Object.entries(OPERATIONS) as [Operation, number][]) {
    for (let i = 0; i < count / 4; i++) await run[name]();
    let best = Infinity;
    for (let r = 0; r < 5; r++) {
      const start = performance.now();
      for (let i = 0; i < count; i++) await run[name]();
      best = Math.min(best, ((performance.now() - start) / count) * 1000);
    }
    result[name] = best;
  }
  h.close();
  console.log(JSON.stringify(result));
}

function compare(): void {
  const [a, b] = positionals.map((p) => resolve(p));
  if (!a || !b) throw new Error("usage: ab.ts <checkout A> <checkout B> [--runtime node|bun] [--rounds 3]");
  const best = { A: {} as Record<string, number>, B: {} as Record<string, number> };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [label, root] of [
      ["A", a],
      ["B", b],
    ] as const) {
      const args = ["--child", root];
      const self = new URL(import.meta.url).pathname;
      const [cmd, argv] =
        values.runtime === "bun" ? [join(root, "node_modules/.bin/bun"), [self, ...args]] : [process.execPath, ["--import", "tsx", self, ...args]];
      const child = spawnSync(cmd, argv, { cwd: root, encoding: "utf8" });
      if (child.status !== 0) throw new Error(`${label} (${root}) failed:\n${child.stderr}`);
      const measured = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Record<string, number>;
      for (const [op, us] of Object.entries(measured)) best[label][op] = Math.min(best[label][op] ?? Infinity, us);
    }
  }
  console.log(`A: ${a}\nB: ${b}\nruntime ${values.runtime}, in-process, best of ${values.rounds} alternating rounds of 5 runs each\n`);
  console.log(`${"operation".padEnd(22)}${"A µs".padStart(10)}${"B µs".padStart(10)}${"B/A".padStart(8)}`);
  for (const op of Object.keys(OPERATIONS)) {
    const [x, y] = [best.A[op]!, best.B[op]!];
    console.log(`${op.padEnd(22)}${x.toFixed(1).padStart(10)}${y.toFixed(1).padStart(10)}${(y / x).toFixed(2).padStart(7)}×`);
  }
}
