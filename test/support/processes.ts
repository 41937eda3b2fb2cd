/**
 * Child processes for tests that run Extent (or a database server) on another runtime: a free
 * loopback port, a spawn that waits until the server answers, and a stop that never leaves a
 * process behind. Output is kept so a failed start says why.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = (name: string) => `${ROOT}node_modules/.bin/${name}`;
/** `node --import <this>` runs TypeScript sources from any working directory. */
export const TSX_LOADER = import.meta.resolve("tsx");

/**
 * A free port below the ephemeral range (32768 and up on Linux), so that between this check and
 * the server's own bind no `listen(0)` or outgoing connection of another process can take it;
 * chosen at random so that servers starting in parallel do not pick the same one.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

export interface Running {
  url: string;
  /** The spawned process (with a runtime that runs in one process, the server itself). */
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** A URL that answers (any HTTP status) once the server is up. */
  probe: string;
  /** The base URL callers use (default: the probe's origin). */
  url?: string;
  timeoutMs?: number;
}

/** Spawns `command`, waits until `probe` answers, returns the running server. */
export async function startServer(command: string, args: readonly string[], options: SpawnOptions): Promise<Running> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const running: Running = { url: options.url ?? new URL(options.probe).origin, pid: child.pid!, output: () => output, stop: () => stop(child, exited) };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < deadline && !gone) {
    try {
      await fetch(options.probe, { signal: AbortSignal.timeout(2000) });
      return running;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await running.stop();
  throw new Error(`${command} ${args.join(" ")} did not start${gone ? " (it exited)" : ""}:\n${output}`);
}

/** Stops the process group (wrangler and workerd, or a runtime and its children). */
async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {}
  }, 3000);
  await exited;
  clearTimeout(timer);
}

/**
 * CPU time (user + system) `pid` has used, in µs, from /proc (Linux): what a server spends on its
 * requests whatever else runs on the machine, unlike its requests per second. Undefined elsewhere.
 */
export function cpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces), from its closing parenthesis: utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** One thread of a process, from /proc: its name, CPU time (user + system, µs) and context switches. */
export interface ThreadStat {
  name: string;
  cpuMicros: number;
  /** Voluntary and involuntary: how often the thread gave up or lost its CPU (a wait, a wake). */
  switches: number;
}

/** Every thread of `pid` by thread id (Linux; empty elsewhere): what each of a server's threads costs its requests. */
export function threadStats(pid: number): Map<number, ThreadStat> {
  const threads = new Map<number, ThreadStat>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
      const switches = [...status.matchAll(/ctxt_switches:\s+(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      threads.set(Number(tid), { name, cpuMicros: ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS, switches });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const CLOCK_TICKS = 100;
