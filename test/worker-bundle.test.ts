/**
 * The worker bundle (src/worker.ts as `wrangler deploy` builds it, offline, with `--dry-run`)
 * stays small and edge-only: under 1 MiB gzip, and no Node built-in that needs a file system,
 * processes or sockets. Sizes are deterministic; times are not, so none is asserted here (see
 * test/bench/worker-metrics.ts for the cold start).
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWorkerBundle, bundleContributors, bundleImports, type WorkerBundle } from "./bench/worker-metrics.ts";

const MiB = 1024 * 1024;
/** Built-ins that cannot work on Workers (no file system, processes or raw sockets). */
const FORBIDDEN = ["fs", "fs/promises", "child_process", "net", "tls", "dgram", "worker_threads", "cluster"];

let outDir: string;
let bundle: WorkerBundle;

before(async () => {
  outDir = await mkdtemp(join(tmpdir(), "extent-worker-bundle-"));
  bundle = await buildWorkerBundle(outDir);
});

after(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

test("the worker bundle is under 1 MiB gzip", async (t) => {
  t.diagnostic(`upload ${bundle.bytes} B (${kib(bundle.bytes)}), gzip ${bundle.gzipBytes} B (${kib(bundle.gzipBytes)})`);
  const top = (await bundleContributors(bundle.metafile)).slice(0, 5);
  t.diagnostic(`biggest: ${top.map((c) => `${c.name} ${kib(c.bytes)}`).join(", ")}`);
  assert.ok(bundle.gzipBytes > 0 && bundle.bytes > bundle.gzipBytes, `implausible sizes: ${JSON.stringify(bundle)}`);
  assert.ok(bundle.gzipBytes < MiB, `worker bundle is ${kib(bundle.gzipBytes)} gzip, over 1 MiB`);
});

test("the bundle is the entry, with the model prepared (no XML to parse at start-up), sized as wrangler reports", async () => {
  assert.equal(bundle.modules[0]!.name, "worker.js");
  assert.ok(!bundle.modules.some((m) => m.name.endsWith(".jdo")), `the worker bundles XML metadata: ${bundle.modules.map((m) => m.name).join(", ")}`);
  assert.match(await readFile(bundle.file, "utf8"), /"?format"?:\s*"extent-prepared-model"/, "the prepared model is in the bundle");
  // wrangler prints "Total Upload: X KiB / gzip: Y KiB"; ours must be the same figures.
  const report = bundle.wranglerReport && /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(bundle.wranglerReport);
  if (report) {
    assert.equal(report[1], (bundle.bytes / 1024).toFixed(2), bundle.wranglerReport);
    assert.equal(report[2], (bundle.gzipBytes / 1024).toFixed(2), bundle.wranglerReport);
  }
});

test("the bundle imports no Node built-in that Workers lack, and nothing unbundled", async (t) => {
  const imports = await bundleImports(bundle.metafile);
  const builtin = (path: string) => path.startsWith("node:") || builtinModules.includes(path.split("/")[0]!);
  const node = [...new Set(imports.filter((i) => builtin(i.path)).map((i) => i.path))];
  t.diagnostic(`node built-ins imported: ${node.length ? node.join(", ") : "none"}`);
  const forbidden = node.filter((path) => FORBIDDEN.includes(path.replace(/^node:/, "")));
  assert.deepEqual(forbidden, [], `the worker bundle imports ${forbidden.join(", ")}`);
  // Anything else left outside the bundle must be one of its own modules (./…) or workerd's own
  // (`cloudflare:workers`, which gives the bindings as the isolate starts), not an npm package.
  const strays = imports.filter((i) => !builtin(i.path) && !i.path.startsWith("./") && i.path !== "cloudflare:workers");
  assert.deepEqual(strays, [], "imports left unbundled");
});
