/**
 * A client no one here wrote: openapi-typescript turns the sample's OpenAPI document into types,
 * a small openapi-fetch program uses them, the project's TypeScript checks it (strict), and the
 * program runs against the real sample served over HTTP. The program holds one call that must not
 * compile (`@ts-expect-error`); a variant where that call is correct must fail tsc (an unused
 * directive, TS2578), so the check is not vacuous.
 *
 * The temp folder sits in the repository root (gitignored `.tmp-client-*`) so that `openapi-fetch`
 * and `@types/node` resolve from the project's node_modules; it is outside `tsconfig.json`'s
 * `include` and the format globs, and removed afterwards.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { serve, type Served } from "../src/runtime/serve.ts";
import { startHarness, type Harness } from "./support/harness.ts";

const run = promisify(execFile);
const ROOT = new URL("..", import.meta.url).pathname;
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

let h: Harness;
let served: Served;
let dir: string;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2023", "DOM"],
    types: ["node"],
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: true,
    skipLibCheck: false,
  },
  include: ["*.ts"],
};

/** The program a user of Extent would write; `BAD` is the call that must not compile. */
const program = (bad: string) => `import createClient from "openapi-fetch";
import type { paths } from "./api";

const client = createClient<paths>({
  baseUrl: process.env.BASE!,
  // The document says fetchGroup is form, explode: false (comma-separated), as the server reads it.
  querySerializer: { array: { style: "form", explode: false } },
});
const SAMPLE = "org.extent.sample";

const books = await client.GET(\`/\${SAMPLE}.Book\`, { params: { query: { ordering: "title ascending", fetchGroup: ["default", "withAuthor"] } } });
if (!books.data || !Array.isArray(books.data)) throw new Error("no books: " + JSON.stringify(books.error));
const titles: (string | null | undefined)[] = books.data.map((b) => b.title);
const pages: number | undefined = books.data[0]?.pages;

const author = await client.GET(\`/\${SAMPLE}.Author/{key}\`, { params: { path: { key: 1 }, query: { fetchGroup: ["all"] } } });
if (!author.data) throw new Error("no author: " + JSON.stringify(author.error));
const name: string | undefined = author.data.name;
const born: number | null | undefined = author.data.born;
const city: string | null | undefined = author.data.address?.city;

const missing = await client.GET(\`/\${SAMPLE}.Author/{key}\`, { params: { path: { key: 999 } } });
const problem = missing.error && { status: missing.error.status, type: missing.error.type };

const created = await client.POST(\`/\${SAMPLE}.Author\`, { body: { name: "Octavia E. Butler", born: "1947-06-22" } });
if (!created.data) throw new Error("not created: " + JSON.stringify(created.error));
const location = created.response.headers.get("location");
const createdId: number = created.data._id;

${bad}

console.log(JSON.stringify({ titles, pages, name, born, city, problem, status: created.response.status, location, createdId }));
`;

const BAD = `// @ts-expect-error name is a string: a number must not compile
await client.POST(\`/\${SAMPLE}.Author\`, { body: { name: 42 } }).catch(() => undefined);`;
const NOT_BAD = `// @ts-expect-error a correct call: this directive is unused, so tsc must fail
await client.POST(\`/\${SAMPLE}.Author\`, { body: { name: "fine" } }).catch(() => undefined);`;

async function tsc(): Promise<{ ok: boolean; out: string }> {
  try {
    await run(process.execPath, [TSC, "-p", join(dir, "tsconfig.json")], { cwd: dir });
    return { ok: true, out: "" };
  } catch (e: any) {
    return { ok: false, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

before(async () => {
  const { context } = resolveContext(await loadConfigDir(`${ROOT}schema/jdo`), "sample");
  h = await startHarness({ metadata: context.metadata });
  await seedIfEmpty({ fetch: (r) => h.fetch(r) }, JSON.parse(readFileSync(`${ROOT}schema/sample-data.json`, "utf8")));
  served = await serve((r) => h.fetch(r), 0, "127.0.0.1");
  dir = mkdtempSync(join(ROOT, ".tmp-client-"));
  // The document as a client gets it: from the running server.
  const doc = await (await fetch(`${served.url}/openapi.json`)).json();
  writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(doc)));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
});
after(async () => {
  await served?.close();
  h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the generated types describe the sample's paths and schemas", () => {
  const types = readFileSync(join(dir, "api.d.ts"), "utf8");
  assert.match(types, /"\/org\.extent\.sample\.Author\/\{key\}": \{/);
  assert.match(types, /"org\.extent\.sample\.Author-write": \{/);
});

test("a call the document forbids does not compile: a variant where it is correct fails tsc", async () => {
  writeFileSync(join(dir, "program.ts"), program(NOT_BAD));
  const { ok, out } = await tsc();
  assert.equal(ok, false, "tsc must reject an unused @ts-expect-error");
  const errors = out.split("\n").filter((l) => /error TS\d+/.test(l));
  assert.equal(errors.length, 1, out);
  assert.match(errors[0]!, /program\.ts\(\d+,\d+\): error TS2578: Unused '@ts-expect-error' directive/, out);
});

test("the openapi-fetch program type-checks (strict) and runs against the served sample", async () => {
  writeFileSync(join(dir, "program.ts"), program(BAD));
  const checked = await tsc();
  assert.equal(checked.ok, true, checked.out);
  const { stdout } = await run(process.execPath, ["--import", "tsx", join(dir, "program.ts")], { cwd: dir, env: { ...process.env, BASE: served.url } });
  const result = JSON.parse(stdout.trim().split("\n").pop()!);
  assert.deepEqual(result.titles, [...result.titles].sort());
  assert.ok(result.titles.includes("The Dispossessed"), stdout);
  assert.equal(typeof result.pages, "number");
  assert.equal(result.name, "Ursula K. Le Guin");
  assert.equal(result.born, Date.UTC(1929, 9, 21));
  assert.equal(result.city, "Portland");
  assert.equal(result.problem.status, 404);
  assert.equal(typeof result.problem.type, "string");
  assert.equal(result.status, 201);
  assert.equal(result.location, `/org.extent.sample.Author/${result.createdId}`);
});
