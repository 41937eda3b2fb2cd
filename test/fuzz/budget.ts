/**
 * The budget of one fuzz case (issue 16): its answer must come within the world's `requestTimeMs`
 * plus a margin, and the process may not grow by more than MEMORY_BUDGET while it runs. A case
 * that gets no answer at all within HANG_MS is a hang, reported as such rather than waited for.
 *
 * Memory is the process's peak resident size while the case ran, less what it was before: on
 * Linux the kernel's own high-water mark (VmHWM), reset before each case through
 * /proc/self/clear_refs, so a peak between two samples is not missed; it counts SQLite's native
 * heap and the reader threads as well as V8's heap. Elsewhere a 5 ms sampler of the RSS stands in.
 * The heap's growth (V8's `heapUsed`, after less before, garbage included) is the other measure;
 * the larger of the two is held to the budget.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { FUZZ_LIMITS } from "./world.ts";

/** What a case may take beyond the time limit: parsing, writing and reading its answer, a busy machine. */
export const TIME_MARGIN_MS = 1000;
export const TIME_BUDGET_MS = FUZZ_LIMITS.requestTimeMs + TIME_MARGIN_MS;
/** A case past this has no answer coming. */
export const HANG_MS = 30_000;
/**
 * Well above noise (an answer of answerBytes, 1 MiB here, costs a few MiB to build, send and
 * parse; honest cases grow the process by at most about 15 MiB) and far below what an unbounded
 * answer takes (a fetch plan 9 deep over the dense graph: hundreds of MiB).
 */
export const MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;

export interface Measure {
  ms: number;
  /** The peak resident size while the case ran, less the size before it, in bytes. */
  rssBytes: number;
  /** V8's `heapUsed` after the case, less before it, in bytes (garbage included). */
  heapBytes: number;
  /** The larger of the two. */
  memoryBytes: number;
}

const CLEAR_REFS = "/proc/self/clear_refs";
let kernelPeak: boolean | undefined;

/** Resets the kernel's high-water mark of RSS to the current RSS; false where it cannot. */
function resetPeak(): boolean {
  if (kernelPeak === false) return false;
  try {
    writeFileSync(CLEAR_REFS, "5");
    return (kernelPeak = true);
  } catch {
    return (kernelPeak = false);
  }
}

function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) * 1024 : process.memoryUsage.rss();
}

/** No answer within HANG_MS. */
export class Hang extends Error {}

/** Runs `run`, timing it and measuring the memory it took; throws a Hang past HANG_MS. */
export async function measured<T>(run: () => Promise<T>): Promise<{ value: T } & Measure> {
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  let sampled = rssBefore;
  const sampler = resetPeak() ? undefined : setInterval(() => (sampled = Math.max(sampled, process.memoryUsage.rss())), 5);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Hang(`no answer after ${HANG_MS} ms: a hang`)), HANG_MS)));
    const value = await Promise.race([run(), hang]);
    const ms = performance.now() - started;
    const peak = sampler ? Math.max(sampled, process.memoryUsage.rss()) : peakRss();
    const rssBytes = peak - rssBefore;
    const heapBytes = process.memoryUsage().heapUsed - heapBefore;
    return { value, ms, rssBytes, heapBytes, memoryBytes: Math.max(rssBytes, heapBytes) };
  } finally {
    clearTimeout(timer);
    clearInterval(sampler);
  }
}

/** What is over budget in `m`, or undefined. */
export function overBudget(m: Measure): string | undefined {
  if (m.ms > TIME_BUDGET_MS)
    return `took ${m.ms.toFixed(0)} ms, past its budget of ${TIME_BUDGET_MS} ms (requestTimeMs ${FUZZ_LIMITS.requestTimeMs} + ${TIME_MARGIN_MS})`;
  if (m.memoryBytes > MEMORY_BUDGET_BYTES)
    return `grew the process by ${mib(m.memoryBytes)} (peak RSS ${mib(m.rssBytes)}, heap ${mib(m.heapBytes)}), past its budget of ${mib(MEMORY_BUDGET_BYTES)}`;
  return undefined;
}

export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
