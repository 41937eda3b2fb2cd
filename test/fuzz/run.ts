/**
 * The long fuzz run: `npm run fuzz -- --runs N [--seed S] [--only TEXT]`. Runs N cases in all,
 * split evenly over the properties of properties.ts, and keeps going past failures (each is
 * recorded with its request rather than shrunk), then prints cases tried, failures, answers per
 * status, time and the seed that repeats the run. Exits 1 when any case failed.
 */
import fc from "fast-check";
import { PROPERTIES, type Tally, describeRequest, runCase } from "./properties.ts";
import { World } from "./world.ts";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Number(option("runs") ?? 1000);
const seed = Number(option("seed") ?? Date.now() % 2 ** 31);
const only = option("only");
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error("usage: npm run fuzz -- --runs N [--seed S] [--only TEXT]");
  process.exit(2);
}

const properties = PROPERTIES.filter((p) => !only || p.name.includes(only));
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
let tried = 0;
let failed = 0;
console.log(`fuzz: ${runs} cases over ${properties.length} properties, seed ${seed}`);

for (const [index, property] of properties.entries()) {
  // Spread the remainder over the first properties so that the total is exactly `runs`.
  const numRuns = Math.floor(runs / properties.length) + (index < runs % properties.length ? 1 : 0);
  const world = new World(property.resetAfter);
  const tally: Tally = new Map();
  const failures: string[] = [];
  let done = 0;
  await fc.check(
    fc.asyncProperty(property.arbitrary, async (request) => {
      const wrong = await runCase(world, request, tally).catch((error: unknown) => `the harness threw: ${(error as Error).stack ?? error}`);
      if (wrong) failures.push(`${wrong}\n      request: ${describeRequest(request)}`);
      if (++done % 2000 === 0) console.log(`  ${property.name}: ${done}/${numRuns} (${seconds()} s)`);
      return true; // keep going: every failure is collected, none is shrunk
    }),
    { seed: seed + index, numRuns },
  );
  world.close();
  tried += done;
  failed += failures.length;
  const statuses = [...tally.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
  console.log(`${property.name}: ${done} cases, ${failures.length} failures; answers ${statuses}`);
  for (const f of failures.slice(0, 10)) console.log(`  FAIL ${f}`);
  if (failures.length > 10) console.log(`  ... and ${failures.length - 10} more`);
}

console.log(`\nfuzz: ${tried} cases tried, ${failed} failures, ${seconds()} s, seed ${seed}`);
process.exitCode = failed ? 1 : 0;
