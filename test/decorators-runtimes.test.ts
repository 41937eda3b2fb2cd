/**
 * Decorators must mean the same on every runtime Extent serves from: Node (through tsx), Bun,
 * Deno, and a bundle as a worker would load it (esbuild, platform "neutral", ES2022, then run
 * by plain Node with code generation from strings disallowed, as in workerd).
 *
 * Each runtime runs test/support/print-decorated-models.ts, which builds the models of the
 * decorated sample classes (schema/ts/jdo-model.ts and schema/ts/jpa-model.ts) and prints them
 * as canonical JSON. Every runtime must print the same line, and both decorated models must
 * equal the model of their XML twin, schema/jdo/package.jdo.
 *
 * A runtime whose binary is not installed is skipped, saying why; the Bun and Deno binaries
 * come from the `bun` and `deno` devDependencies (npm packages that ship them).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadModel } from "../src/config/load-model.ts";
import { canonical } from "./support/canonical-model.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCRIPT = "test/support/print-decorated-models.ts";
const TIMEOUT = 30_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  error?: string;
}

/** The test runner's own variables (NODE_TEST_CONTEXT) stay out of the children. */
const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" };
delete childEnv.NODE_TEST_CONTEXT;

/** Runs a command in the project root; never rejects (a failure is in the result). */
function run(command: string, args: readonly string[]): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, timeout: TIMEOUT, maxBuffer: 64 * 1024 * 1024, env: childEnv }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr), ms: Date.now() - started, error: error ? error.message : undefined });
    });
  });
}

/** Why a runtime's binary cannot run, or undefined when it can (`npx <name> --version` answers). */
async function missing(name: string): Promise<string | undefined> {
  const bin = join(ROOT, "node_modules", ".bin", name);
  if (!existsSync(bin)) return `${name} is not installed: node_modules/.bin/${name} is missing (npm install --save-dev ${name})`;
  const version = await run("npx", ["--no-install", name, "--version"]);
  if (version.code !== 0)
    return `${name} is installed but its binary does not run (npx ${name} --version: ${(version.error ?? version.stderr).trim().split("\n")[0]})`;
  return undefined;
}

/** The line a run printed, after checking the run succeeded. */
function printed(name: string, r: Run): string {
  assert.equal(r.code, 0, `${name} failed (exit ${r.code}): ${r.error ?? ""}\n${r.stderr}`);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines.length, 1, `${name} printed one line of JSON, not:\n${r.stdout.slice(0, 2000)}`);
  return lines[0]!;
}

// Every runtime starts at once (they are independent processes); the tests await their results.
const npx = (name: string, args: string[]) =>
  missing(name).then(async (why) => (why ? { skip: why } : { run: await run("npx", ["--no-install", name, ...args]) }));

const runs = {
  node: run(process.execPath, ["--import", "tsx", SCRIPT]).then((r) => ({ run: r })),
  bun: npx("bun", [SCRIPT]),
  // Deno reads the .ts imports as they are (the sources import with .ts extensions) and the npm
  // packages from node_modules: no --unstable-sloppy-imports or other flag is needed.
  deno: npx("deno", ["run", "--allow-read", SCRIPT]),
  bundle: bundleAndRun(),
};

/**
 * Bundles the script as a worker bundle is built (esbuild's JS API: platform neutral, ESM,
 * ES2022, so the decorators are lowered by esbuild itself) and runs the bundle with plain Node.
 */
async function bundleAndRun(): Promise<{ run: Run; bytes: number; imports: string[] } | { skip: string }> {
  let esbuild: typeof import("esbuild");
  try {
    esbuild = await import("esbuild");
  } catch (error) {
    return { skip: `esbuild is not installed (it comes with tsx): ${(error as Error).message}` };
  }
  const dir = mkdtempSync(join(tmpdir(), "extent-bundle-"));
  try {
    const outfile = join(dir, "print-decorated-models.mjs");
    await esbuild.build({
      entryPoints: [join(ROOT, SCRIPT)],
      bundle: true,
      platform: "neutral",
      format: "esm",
      target: "es2022",
      mainFields: ["module", "main"],
      outfile,
      logLevel: "silent",
    });
    const code = readFileSync(outfile, "utf8");
    const imports = [...code.matchAll(/^\s*import\b[^;]*?from\s*["']([^"']+)["']/gm)].map((m) => m[1]!);
    // workerd refuses eval and new Function: so does this run.
    const result = await run(process.execPath, ["--disallow-code-generation-from-strings", outfile]);
    return { run: result, bytes: code.length, imports };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const xmlModel = (): unknown =>
  JSON.parse(JSON.stringify(canonical(loadModel({ metadata: [{ source: "package.jdo", text: readFileSync(join(ROOT, "schema/jdo/package.jdo"), "utf8") }] }))));

test("Node (tsx): the JDO- and JPA-decorated sample models equal the model of schema/jdo/package.jdo", async (t) => {
  const { run: r } = await runs.node;
  t.diagnostic(`node --import tsx: ${r.ms} ms`);
  const out = JSON.parse(printed("node", r));
  const xml = xmlModel();
  assert.deepEqual(Object.keys(out), ["jdo", "jpa"]);
  assert.ok(Object.keys((xml as { classes: object }).classes).length >= 8, "the XML model is the whole sample");
  assert.deepEqual(out.jdo, xml, "the JDO-decorated model is the XML model");
  assert.deepEqual(out.jpa, xml, "the JPA-decorated model is the XML model");
});

for (const name of ["bun", "deno", "bundle"] as const) {
  const label = { bun: "Bun (npx bun)", deno: "Deno (npx deno run --allow-read)", bundle: "an esbuild worker bundle run by plain Node" }[name];
  test(`${label} prints exactly what Node prints`, async (t) => {
    const result = await runs[name];
    if ("skip" in result) {
      t.skip(result.skip);
      return;
    }
    t.diagnostic(`${name}: ${result.run.ms} ms`);
    if ("imports" in result) {
      assert.deepEqual(result.imports, [], "the bundle is self-contained: no import is left for a worker to resolve");
      t.diagnostic(`bundle: ${Math.round(result.bytes / 1024)} KiB`);
    }
    const line = printed(name, result.run);
    const out = JSON.parse(line);
    const xml = xmlModel();
    assert.deepEqual(out.jdo, xml, `${name}: the JDO-decorated model is the XML model`);
    assert.deepEqual(out.jpa, xml, `${name}: the JPA-decorated model is the XML model`);
    assert.equal(line, printed("node", (await runs.node).run), `${name} prints exactly what Node prints`);
  });
}
