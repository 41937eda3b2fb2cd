/**
 * Size and cold start of the worker (src/worker.ts, wrangler.toml), measured the way it ships.
 *
 * - `buildWorkerBundle(outDir)` bundles exactly as `wrangler deploy` would, offline and without an
 *   account: `wrangler deploy --dry-run --outdir <outDir> --metafile <outDir>/meta.json`, from the
 *   repository root. `bytes` is the upload (the entry `worker.js` plus the modules it imports, here
 *   the JDO metadata as a Text module; not the source map). `gzipBytes` is node:zlib's `gzipSync`
 *   at its default level (6) over those modules concatenated, which is how wrangler computes the
 *   "Total Upload: … / gzip: …" line it prints and checks the plan limit against.
 * - `measureColdStart(bundleDir, runs)` starts that bundle `runs` times, each in a fresh workerd
 *   (miniflare's `Miniflare`, in-process) on an empty local D1 database (a temporary persist
 *   directory), with wrangler.toml's compatibility date, module rules and vars except
 *   `EXTENT_SEED` (no seeding), and reports medians of: start-up (`new Miniflare` until `ready`),
 *   the first request (GET {prefix}/org.extent.sample.Book, to the end of its body: the handler is
 *   built on it, D1 schema checked; the model is built as the module is evaluated, in start-up) and
 *   a warm request (the same GET again). With
 *   `{ baseline: true }` it measures a minimal D1 worker alongside, to tell Extent's share from
 *   workerd's, miniflare's and local D1's.
 *
 * Beside wall-clock time, each first request's CPU time in the workerd process (its threads' run
 * time in /proc/<pid>/task/<tid>/schedstat, Linux only: the isolate, local D1's SQLite and the HTTP
 * hop's workerd side, all on its one thread): on a machine shared with other work it moves far less
 * than wall-clock time does.
 *
 * All request times include the loopback HTTP hop from Node to workerd (`dispatchFetch`). workerd
 * compiles and evaluates the worker's modules while it starts, so module evaluation counts in
 * start-up, not in the first request. These are local figures on this machine's workerd, not
 * Cloudflare's edge; they are for comparing builds, so no test asserts them.
 *
 * Run directly for a table: `node --import tsx test/bench/worker-metrics.ts [--runs N]` (N
 * defaults to 5).
 */
import { execFile } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const ENTRY = "worker.js";
const METAFILE = "meta.json";
/** The request of the cold-start measure: a class extent, empty (no seed). */
const CLASS_PATH = "/org.extent.sample.Book";

export interface BundleModule {
  /** File name inside the bundle directory. */
  name: string;
  bytes: number;
}

export interface WorkerBundle {
  /** Absolute path of the entry module (`<outDir>/worker.js`). */
  file: string;
  /** Bytes uploaded: the entry plus its additional modules (no source map). */
  bytes: number;
  /** gzip (node:zlib, default level 6) of the uploaded modules concatenated, as wrangler reports. */
  gzipBytes: number;
  /** The uploaded modules, entry first. */
  modules: BundleModule[];
  /** esbuild's metafile (`--metafile`), for what makes up the bundle. */
  metafile: string;
  /** wrangler's own "Total Upload" line, as a cross-check (undefined if it changes its wording). */
  wranglerReport?: string;
  /** Time the dry run took. */
  buildMs: number;
}

function run(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd,
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", FORCE_COLOR: "0" },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** The file names the entry imports (esbuild leaves the Text/Data modules external, relative). */
async function externalModules(metafile: string): Promise<string[]> {
  const meta = JSON.parse(await readFile(metafile, "utf8")) as {
    outputs: Record<string, { entryPoint?: string; imports: { path: string; external?: boolean }[] }>;
  };
  const entry = Object.values(meta.outputs).find((output) => output.entryPoint);
  if (!entry) throw new Error(`${metafile}: no entry output`);
  return entry.imports.filter((i) => i.external && i.path.startsWith("./")).map((i) => i.path.slice(2));
}

export async function buildWorkerBundle(outDir: string): Promise<WorkerBundle> {
  const metafile = join(outDir, METAFILE);
  const started = performance.now();
  const { stdout } = await run(WRANGLER, ["deploy", "--dry-run", "--outdir", outDir, "--metafile", metafile], ROOT);
  const buildMs = performance.now() - started;
  const file = join(outDir, ENTRY);
  const names = [ENTRY, ...(await externalModules(metafile))];
  const contents = await Promise.all(names.map((name) => readFile(join(outDir, name))));
  const modules = names.map((name, i) => ({ name, bytes: contents[i]!.byteLength }));
  // wrangler gzips its additional modules followed by the entry, as one stream.
  const gzipBytes = gzipSync(Buffer.concat([...contents.slice(1), contents[0]!])).byteLength;
  const bytes = modules.reduce((sum, m) => sum + m.bytes, 0);
  const wranglerReport = /Total Upload: .*/.exec(stdout)?.[0];
  return { file, bytes, gzipBytes, modules, metafile, wranglerReport, buildMs };
}

/** The imports that leave the bundle (`node:*`, bare built-ins…), from the metafile. */
export async function bundleImports(metafile: string): Promise<{ path: string; kind: string }[]> {
  const meta = JSON.parse(await readFile(metafile, "utf8")) as {
    outputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
  };
  return Object.values(meta.outputs).flatMap((output) => output.imports.map(({ path, kind }) => ({ path, kind })));
}

/** The biggest contributors to the entry module, grouped by npm package or source folder. */
export async function bundleContributors(metafile: string): Promise<{ name: string; bytes: number }[]> {
  const meta = JSON.parse(await readFile(metafile, "utf8")) as {
    outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const entry = Object.values(meta.outputs).find((output) => output.entryPoint);
  const groups = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(entry?.inputs ?? {})) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    const name = pkg ?? input.replace(/\/[^/]*$/, "/");
    groups.set(name, (groups.get(name) ?? 0) + bytesInOutput);
  }
  return [...groups].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

// ---------------------------------------------------------------------------------------------
// Cold start

export interface ColdStartRun {
  /** `new Miniflare(...)` until `ready`: workerd started, the worker's modules loaded. */
  startMs: number;
  /** The first GET, to the end of its body: handler built, D1 schema checked. */
  firstRequestMs: number;
  /** The same GET once the isolate is warm (median of a few). */
  warmRequestMs: number;
  /** The first GET of a second fresh workerd on the same D1 database: cold isolate, schema already made. */
  firstOnExistingMs: number;
  /** workerd's CPU time over the first GET and over the first GET on the made schema (undefined off Linux). */
  firstRequestCpuMs?: number;
  firstOnExistingCpuMs?: number;
  /** The Server-Timing header (store cost) of the first and of the last warm response. */
  firstServerTiming?: string;
  warmServerTiming?: string;
}

export type Timings = Pick<ColdStartRun, "startMs" | "firstRequestMs" | "warmRequestMs" | "firstOnExistingMs" | "firstRequestCpuMs" | "firstOnExistingCpuMs">;

export interface ColdStart {
  runs: number;
  median: Timings;
  all: ColdStartRun[];
  /**
   * The same measures for a minimal worker (each request runs `select 1` on D1 and answers `[]`)
   * under the same options and bindings, run alternately with the bundle: what workerd, miniflare
   * and local D1 cost by themselves on this machine. Present with `{ baseline: true }`.
   */
  baseline?: { median: Timings; all: ColdStartRun[] };
}

interface WranglerRule {
  type: "ESModule" | "CommonJS" | "Text" | "Data" | "CompiledWasm" | "PythonModule" | "PythonRequirement";
  globs: string[];
  fallthrough?: boolean;
}

interface WranglerConfig {
  compatibility_date?: string;
  compatibility_flags?: string[];
  rules?: WranglerRule[];
  vars?: Record<string, string>;
  d1_databases?: { binding: string; database_id?: string; database_name?: string }[];
}

/** wrangler.toml, read by wrangler's own reader. */
export async function readWranglerConfig(): Promise<WranglerConfig> {
  const { experimental_readRawConfig } = (await import("wrangler")) as unknown as {
    experimental_readRawConfig(args: { config: string }): { rawConfig: WranglerConfig };
  };
  return experimental_readRawConfig({ config: join(ROOT, "wrangler.toml") }).rawConfig;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function medians(all: ColdStartRun[]): Timings {
  const cpu = (values: (number | undefined)[]) => (values.every((v) => v !== undefined) ? median(values as number[]) : undefined);
  return {
    startMs: median(all.map((r) => r.startMs)),
    firstRequestMs: median(all.map((r) => r.firstRequestMs)),
    warmRequestMs: median(all.map((r) => r.warmRequestMs)),
    firstOnExistingMs: median(all.map((r) => r.firstOnExistingMs)),
    firstRequestCpuMs: cpu(all.map((r) => r.firstRequestCpuMs)),
    firstOnExistingCpuMs: cpu(all.map((r) => r.firstOnExistingCpuMs)),
  };
}

/**
 * CPU time so far of the workerd process this one started (the only `workerd` child at a time:
 * runs are sequential), in ms, or undefined where /proc does not tell it.
 */
function workerdCpuMs(): number | undefined {
  try {
    const children = readdirSync("/proc").filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === process.pid && readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "workerd";
      } catch {
        return false; // gone meanwhile
      }
    });
    if (children.length !== 1) return undefined;
    let ns = 0;
    for (const task of readdirSync(`/proc/${children[0]}/task`))
      ns += Number(readFileSync(`/proc/${children[0]}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** `timedGet` with workerd's CPU time over it. */
async function timedFirstGet(mf: Dispatcher, url: string): Promise<{ ms: number; cpuMs?: number; serverTiming?: string }> {
  const before = workerdCpuMs();
  const answer = await timedGet(mf, url);
  const after = workerdCpuMs();
  return { ...answer, cpuMs: before !== undefined && after !== undefined ? after - before : undefined };
}

interface Dispatcher {
  dispatchFetch(url: string): Promise<{ status: number; text(): Promise<string>; headers: { get(name: string): string | null } }>;
}

async function timedGet(mf: Dispatcher, url: string): Promise<{ ms: number; serverTiming?: string }> {
  const started = performance.now();
  const response = await mf.dispatchFetch(url);
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${body}`);
  if (body.trim() !== "[]") throw new Error(`GET ${url}: expected an empty extent, got ${body.slice(0, 200)}`);
  return { ms, serverTiming: response.headers.get("server-timing") ?? undefined };
}

const WARM_REQUESTS = 5;
/** The baseline: one D1 statement per request, as Extent's GET of an empty extent (warm). */
const MINIMAL_WORKER = `export default {
  async fetch(request, env) {
    await env.DB.prepare("select 1").all();
    return new Response("[]", { headers: { "content-type": "application/json" } });
  },
};`;

export interface ColdStartOptions {
  /** Also measure a minimal D1 worker under the same options (see `ColdStart.baseline`). */
  baseline?: boolean;
  /**
   * Let miniflare locate the modules (`modules: true`, `scriptPath`, `modulesRules`) instead of
   * handing workerd the bundle's modules (default): its Node-side parse of worker.js then counts
   * in `startMs`.
   */
  locateModules?: boolean;
}

type RuleType = WranglerRule["type"];

/** The type of the first rule whose globs match (wrangler's and miniflare's order). */
function ruleType(rules: { type: RuleType; include: string[] }[], name: string): RuleType {
  const regex = (glob: string) => {
    let source = "";
    for (let i = 0; i < glob.length; i++) {
      const c = glob[i]!;
      if (glob.startsWith("**/", i)) {
        source += "(?:.*/)?";
        i += 2;
      } else if (glob.startsWith("**", i)) {
        source += ".*";
        i += 1;
      } else if (c === "*") source += "[^/]*";
      else if (c === "?") source += "[^/]";
      else source += c.replace(/[.+^${}()|[\]\\]/, "\\$&");
    }
    return new RegExp(`^${source}$`);
  };
  const rule = rules.find((r) => r.include.some((glob) => regex(glob).test(name)));
  if (!rule) throw new Error(`no module rule for ${name}`);
  return rule.type;
}

export async function measureColdStart(bundleDir: string, runs: number, options: ColdStartOptions = {}): Promise<ColdStart> {
  const { Miniflare } = await import("miniflare");
  type Options = ConstructorParameters<typeof Miniflare>[0];
  const config = await readWranglerConfig();
  const { EXTENT_SEED: _noSeed, ...vars } = config.vars ?? {};
  const prefix = vars.EXTENT_PREFIX ?? "/api";
  const url = `http://localhost${prefix}${CLASS_PATH}`;
  const d1Databases = Object.fromEntries((config.d1_databases ?? []).map((d) => [d.binding, d.database_id ?? d.database_name ?? d.binding]));
  if (!d1Databases.DB) throw new Error("wrangler.toml binds no D1 database as DB");
  const shared = {
    name: "extent-worker-metrics",
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: vars,
    d1Databases,
    host: "127.0.0.1",
    port: 0,
  };
  const rules = [
    // wrangler's output is ES modules (miniflare reads a bare .js as CommonJS otherwise).
    { type: "ESModule" as const, include: [ENTRY] },
    ...(config.rules ?? []).map((rule) => ({ type: rule.type, include: rule.globs, fallthrough: rule.fallthrough })),
  ];
  // By default the modules are given to workerd as they are (what wrangler dev does too):
  // `modules: true` makes miniflare find them itself by parsing worker.js in Node first, which
  // adds most of a second to the start-up that is not workerd's.
  const names = options.locateModules ? [] : [ENTRY, ...(await externalModules(join(bundleDir, METAFILE)))];
  const bundle = options.locateModules
    ? { ...shared, scriptPath: join(bundleDir, ENTRY), modulesRoot: bundleDir, modules: true, modulesRules: rules }
    : {
        ...shared,
        modulesRoot: bundleDir,
        modules: await Promise.all(
          names.map(async (name) => {
            const type = ruleType(rules, name);
            const bytes = await readFile(join(bundleDir, name));
            const text = type === "ESModule" || type === "CommonJS" || type === "Text";
            return { type, path: join(bundleDir, name), contents: text ? bytes.toString("utf8") : new Uint8Array(bytes) };
          }),
        ),
      };
  const minimal = {
    ...shared,
    modulesRoot: bundleDir,
    modules: [{ type: "ESModule" as const, path: join(bundleDir, "minimal.js"), contents: MINIMAL_WORKER }],
  };

  /** One fresh workerd on a fresh, empty D1 database; always disposed. */
  async function once(workerOptions: Omit<Options, "d1Persist">): Promise<ColdStartRun> {
    const persist = await mkdtemp(join(tmpdir(), "extent-worker-d1-"));
    let mf: InstanceType<typeof Miniflare> | undefined;
    try {
      const started = performance.now();
      mf = new Miniflare({ ...workerOptions, d1Persist: persist } as Options);
      await mf.ready;
      const startMs = performance.now() - started;
      const first = await timedFirstGet(mf, url);
      const warm: { ms: number; serverTiming?: string }[] = [];
      for (let w = 0; w < WARM_REQUESTS; w++) warm.push(await timedGet(mf, url));
      await mf.dispose();
      // Again in a fresh workerd, on the database the first one made: what a deployed worker's cold isolates see.
      mf = new Miniflare({ ...workerOptions, d1Persist: persist } as Options);
      await mf.ready;
      const again = await timedFirstGet(mf, url);
      return {
        startMs,
        firstRequestMs: first.ms,
        warmRequestMs: median(warm.map((r) => r.ms)),
        firstOnExistingMs: again.ms,
        firstRequestCpuMs: first.cpuMs,
        firstOnExistingCpuMs: again.cpuMs,
        firstServerTiming: first.serverTiming,
        warmServerTiming: warm.at(-1)?.serverTiming,
      };
    } finally {
      try {
        await mf?.dispose();
      } finally {
        await rm(persist, { recursive: true, force: true });
      }
    }
  }

  const all: ColdStartRun[] = [];
  const baseline: ColdStartRun[] = [];
  for (let i = 0; i < runs; i++) {
    all.push(await once(bundle));
    if (options.baseline) baseline.push(await once(minimal));
  }
  return {
    runs,
    median: medians(all),
    all,
    ...(options.baseline ? { baseline: { median: medians(baseline), all: baseline } } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// CLI

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf("--runs");
  const runs = at >= 0 ? Number(argv[at + 1]) : 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs wants a positive integer");
  const outDir = await mkdtemp(join(tmpdir(), "extent-worker-bundle-"));
  try {
    const bundle = await buildWorkerBundle(outDir);
    const cold = await measureColdStart(outDir, runs, { baseline: true });
    const base = cold.baseline!.median;
    const rows: [string, string, string][] = [
      ["bundle, uploaded modules", `${kib(bundle.bytes)} (${bundle.bytes} B)`, ""],
      ["bundle, gzip (zlib level 6)", `${kib(bundle.gzipBytes)} (${bundle.gzipBytes} B)`, ""],
      ["start: new Miniflare → ready", ms(cold.median.startMs), ms(base.startMs)],
      ["first request (cold isolate, empty D1)", ms(cold.median.firstRequestMs), ms(base.firstRequestMs)],
      ["first request (cold isolate, schema made)", ms(cold.median.firstOnExistingMs), ms(base.firstOnExistingMs)],
      ...(cold.median.firstRequestCpuMs !== undefined && base.firstRequestCpuMs !== undefined
        ? ([["  its workerd CPU time, empty D1", ms(cold.median.firstRequestCpuMs), ms(base.firstRequestCpuMs)]] as [string, string, string][])
        : []),
      ...(cold.median.firstOnExistingCpuMs !== undefined && base.firstOnExistingCpuMs !== undefined
        ? ([["  its workerd CPU time, schema made", ms(cold.median.firstOnExistingCpuMs), ms(base.firstOnExistingCpuMs)]] as [string, string, string][])
        : []),
      ["warm request", ms(cold.median.warmRequestMs), ms(base.warmRequestMs)],
    ];
    const header: [string, string, string] = [`medians of ${runs} fresh workerd runs`, "Extent worker", "minimal D1 worker"];
    const w0 = Math.max(...[header, ...rows].map((r) => r[0].length));
    const w1 = Math.max(...[header, ...rows].map((r) => r[1].length));
    console.log(`wrangler deploy --dry-run: ${bundle.modules.map((m) => m.name).join(" + ")} (${ms(bundle.buildMs)})`);
    for (const [k, a, b] of [header, ...rows]) console.log(`  ${k.padEnd(w0)}  ${a.padStart(w1)}  ${b}`.trimEnd());
    if (bundle.wranglerReport) console.log(`  (wrangler's own line: ${bundle.wranglerReport})`);
    const first = cold.all.map((r) => r.firstServerTiming).find(Boolean);
    if (first) console.log(`  Server-Timing, first request of run 1: ${first}`);
    console.log("Biggest contributors to worker.js (bytes before gzip):");
    for (const { name, bytes } of (await bundleContributors(bundle.metafile)).slice(0, 10)) {
      console.log(`  ${name.padEnd(w0)}  ${kib(bytes).padStart(w1)}`);
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
