/**
 * The local entry: serves the sample model (what `npm start` serves) with whichever runtime runs
 * this file, on an embedded libSQL file under `./data/`:
 *
 *   node --import tsx src/local.ts      (npm start)
 *   npx bun src/local.ts
 *   npx deno run -A src/local.ts
 *
 * Arguments are `extent serve`'s and override the sample's (e.g. `--port 8081`); a first argument
 * that is not a flag runs the `extent` command as given (`src/local.ts serve --config DIR ...`).
 */
import { fileURLToPath } from "node:url";
import { runCli } from "./cli/main.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const SAMPLE = [
  "serve",
  "--config",
  here("../schema/jdo"),
  "--persistence-context",
  "sample",
  "--port",
  "8080",
  "--prefix",
  "/api",
  "--seed",
  here("../schema/sample-data.json"),
  // Any page may call the sample (a front end on its own dev server): `--cors` given again overrides it.
  "--cors",
  "*",
];

const args = process.argv.slice(2);
await runCli(args.length && !args[0]!.startsWith("-") ? args : [...SAMPLE, ...args]);
