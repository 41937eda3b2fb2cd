/**
 * The sample model served by the real command line (`bin/extent.js serve`) as its own process, on
 * an embedded file in a temporary folder: for tests that load the server over HTTP, kill it and
 * start it again on the same file. The process runs in its own group, so a SIGKILL reaches all
 * of it; every server started here is stopped by `stopAllSamples()` (call it in `after()`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./processes.ts";

export const S = "org.extent.sample";
const BIN = join(ROOT, "bin/extent.js");

export interface SampleConfig {
  /** The config folder (persistence.xml + package.jdo); also the server's working directory. */
  dir: string;
  /** The database file the connection URL names. */
  file: string;
  remove(): void;
}

/** A temporary copy of schema/jdo whose connection URL is `file:<dir>/data/sample.db`. */
export function sampleConfig(prefix = "extent-sample-"): SampleConfig {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const file = join(dir, "data", "sample.db");
  copyFileSync(join(ROOT, "schema/jdo/package.jdo"), join(dir, "package.jdo"));
  writeFileSync(
    join(dir, "persistence.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>
<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
  <persistence-unit name="sample">
    <mapping-file>package.jdo</mapping-file>
    <properties>
      <property name="jakarta.persistence.jdbc.url" value="file:${file}"/>
    </properties>
  </persistence-unit>
</persistence>
`,
  );
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface SampleServer {
  /** `http://127.0.0.1:<port>` (no prefix). */
  url: string;
  pid: number;
  output(): string;
  /** SIGKILL to the whole process group; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM to the group (SIGKILL after 3 s); resolves once the process is gone. */
  stop(): Promise<void>;
  /** Resolves with the exit code (null: ended by a signal) when the process ends. */
  exited: Promise<number | null>;
}

const live = new Set<SampleServer>();

/** `extent serve --config <dir> --persistence-context sample --port 0` in its own process group. */
export async function startSample(config: SampleConfig, options: { timeoutMs?: number; args?: string[] } = {}): Promise<SampleServer> {
  const spawned = spawnSample(config, options.args);
  const timer = setTimeout(() => spawned.fail(`extent serve did not print its URL in time:\n${spawned.server.output()}`), options.timeoutMs ?? 30_000);
  try {
    await spawned.ready;
    return spawned.server;
  } catch (error) {
    await spawned.server.kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Spawns the server without waiting for it: `ready` resolves once it prints its URL (then
 * `server.url` is set) and rejects if it exits first. For killing a server during its start-up.
 */
export function spawnSample(config: SampleConfig, args: string[] = []): { server: SampleServer; ready: Promise<void>; fail(message: string): void } {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--config", config.dir, "--persistence-context", "sample", "--host", "127.0.0.1", "--port", "0", ...args],
    {
      cwd: config.dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  const exitCode = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const exited = exitCode.then(() => {});
  const server: SampleServer = {
    url: "",
    pid: child.pid!,
    exited: exitCode,
    output: () => output,
    kill: async () => {
      await signal(child, exited, "SIGKILL");
      live.delete(server);
    },
    stop: async () => {
      await signal(child, exited, "SIGTERM");
      live.delete(server);
    },
  };
  live.add(server);
  let fail!: (message: string) => void;
  const ready = new Promise<void>((resolve, reject) => {
    fail = (message) => reject(new Error(message));
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /serves "sample" at (http:\/\/\S+)/.exec(output);
      if (m && !server.url) {
        server.url = m[1]!;
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then(() => reject(new Error(`extent serve exited before it served:\n${output}`)));
  });
  ready.catch(() => {});
  return { server, ready, fail };
}

async function signal(child: ChildProcess, exited: Promise<void>, sig: "SIGKILL" | "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid!, sig);
  } catch {
    return;
  }
  const timer = sig === "SIGTERM" ? setTimeout(() => signal(child, exited, "SIGKILL"), 3000) : undefined;
  await exited;
  clearTimeout(timer);
}

/** Stops every sample server still running (for `after()`, whatever happened). */
export async function stopAllSamples(): Promise<void> {
  await Promise.all([...live].map((s) => s.stop()));
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** One HTTP request with a JSON body (if any); the answer's body parsed when it is JSON. A server that does not answer in 60 s fails it. */
export async function call(base: string, method: string, path: string, body?: unknown, signal: AbortSignal = AbortSignal.timeout(60_000)): Promise<Answer> {
  const init: RequestInit = { method, signal };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const response = await fetch(base + path, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A small seeded random source (mulberry32), so a failing run can be repeated with its seed. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T | undefined => (xs.length ? xs[Math.floor(next() * xs.length)] : undefined),
  };
}
