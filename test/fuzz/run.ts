/**
 * The long fuzz run: `npm run fuzz -- --runs N [--seed S] [--only TEXT] [--trace]`. Runs N cases
 * in all, split evenly over the properties of properties.ts (those whose name contains TEXT, or
 * one of its `|`-separated parts), and keeps going past failures (each is printed with its
 * request when it happens, not shrunk), then prints per property the cases tried, failures,
 * answers per status, the slowest case and the largest memory growth, and in all the time and
 * the seed that repeats the run. Exits 1 when any case failed. `--trace` prints each request
 * before it is sent: the case that takes the process down is the last one printed.
 */
import fc from "fast-check";
import { mib } from "./budget.ts";
import { PROPERTIES, Stats, describeRequest, runCase } from "./properties.ts";
import { World } from "./world.ts";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Number(option("runs") ?? 1000);
const seed = Number(option("seed") ?? Date.now() % 2 ** 31);
const only = option("only");
const trace = process.argv.includes("--trace");
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error("usage: npm run fuzz -- --runs N [--seed S] [--only TEXT] [--trace]");
  process.exit(2);
}

const properties = only ? PROPERTIES.filter((p) => only.split("|").some((text) => p.name.includes(text))) : PROPERTIES;
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
let tried = 0;
let failed = 0;
const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);
console.log(`fuzz: ${runs} cases over ${properties.length} properties, seed ${seed}`);

for (const [index, property] of properties.entries()) {
  // Spread the remainder over the first properties so that the total is exactly `runs`.
  const numRuns = Math.floor(runs / properties.length) + (index < runs % properties.length ? 1 : 0);
  const world = new World(property.resetAfter, property.world);
  const stats = new Stats();
  const failures: string[] = [];
  let done = 0;
  await fc.check(
    fc.asyncProperty(property.arbitrary, async (request) => {
      if (trace) console.log(`  > ${describeRequest(request)}`);
      const wrong = await runCase(world, request, stats).catch((error: unknown) => `the harness threw: ${(error as Error).stack ?? error}`);
      if (wrong) {
        // Printed at once: a case that takes the process down must not take the earlier findings with it.
        failures.push(wrong);
        console.log(`  FAIL ${cut(wrong)}\n      request: ${describeRequest(request, 4000)}`);
      }
      if (++done % 500 === 0) console.log(`  ${property.name}: ${done}/${numRuns} (${seconds()} s)`);
      return true; // keep going: every failure is collected, none is shrunk
    }),
    { seed: seed + index, numRuns },
  );
  world.close();
  tried += done;
  failed += failures.length;
  const statuses = [...stats.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(" ");
  console.log(`${property.name}: ${done} cases, ${failures.length} failures; answers ${statuses}`);
  if (stats.slowest) console.log(`  slowest ${stats.slowest.ms.toFixed(0)} ms: ${cut(stats.slowest.request)}`);
  if (stats.largest) console.log(`  largest memory growth ${mib(stats.largest.bytes)}: ${cut(stats.largest.request)}`);
}

console.log(`\nfuzz: ${tried} cases tried, ${failed} failures, ${seconds()} s, seed ${seed}`);
process.exitCode = failed ? 1 : 0;
