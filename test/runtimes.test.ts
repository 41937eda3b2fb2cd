/**
 * Conformance across runtimes (issue 6): the sample served by the local entry on Node, Bun and
 * Deno (embedded libSQL files), by the worker entry in workerd via `wrangler dev` (local D1, and
 * a libSQL server over HTTP through @libsql/client's web build), and by the local entry on Node
 * over HTTP. Every one must answer the conformance script exactly as the handler does in this
 * process, at the same cost: reads in one round trip, writes in one batch after at most one
 * lookup. Each serves the explorer page and its renderers' files. Against the libSQL server, a proxy counts the HTTP requests on the wire, which must
 * equal the round trips the server reports.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { createRestHandler } from "../src/handler.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { type Answer, SCRIPT, type Step, overHttp, runScript } from "./conformance/sample-script.ts";
import { ROOT } from "./support/processes.ts";
import { type TargetName, startTarget } from "./support/runtime-targets.ts";
import { locateSqld } from "./support/sqld.ts";

let reference: Answer[];

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-reference-"));
  const handler = createRestHandler({
    context: {
      name: "sample",
      url: `file:${join(dir, "sample.db")}`,
      metadata: [{ source: "package.jdo", text: readFileSync(`${ROOT}schema/jdo/package.jdo`, "utf8") }],
    },
    prefix: "/api",
    serverTiming: true,
  });
  await handler.ready;
  await seedIfEmpty(handler, JSON.parse(readFileSync(`${ROOT}schema/sample-data.json`, "utf8")), "/api");
  reference = await runScript((path, init) => handler.fetch(new Request(`http://localhost/api${path}`, init)));
  handler.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the reference run meets every step's status and cost", () => {
  reference.forEach((answer, i) => checkStep(SCRIPT[i]!, answer));
});

const sqld = await locateSqld();
const noSqld = typeof sqld === "string" ? undefined : sqld.missing;

const TARGETS: { name: TargetName; skip?: string }[] = [
  { name: "node" },
  { name: "bun" },
  { name: "deno" },
  { name: "workerd-d1" },
  { name: "workerd-libsql-http", skip: noSqld },
  { name: "node-libsql-http", skip: noSqld },
];

describe("the sample answers alike on every runtime and store", { concurrency: 3 }, () => {
  for (const { name, skip } of TARGETS) {
    test(name, { skip, timeout: 180_000 }, async () => {
      const target = await startTarget(name);
      try {
        const wire: number[] = [];
        const answers = await runScript(
          overHttp(`${target.url}/api`),
          () => target.sqld && wire.push(target.sqld.requests),
          () => target.sqld?.resetCount(),
        );
        answers.forEach((answer, i) => {
          checkStep(SCRIPT[i]!, answer);
          assert.deepEqual(answer, reference[i], `${name}: ${answer.request} answers differently from the handler in process`);
        });
        await checkExplorer(`${target.url}/api`);
        if (target.sqld) {
          answers.forEach((answer, i) => assert.equal(wire[i], answer.roundTrips, `${answer.request}: HTTP requests to the libSQL server`));
        }
      } catch (error) {
        (error as Error).message += `\n--- ${name} output ---\n${target.output().slice(-4000)}`;
        throw error;
      } finally {
        await target.stop();
      }
    });
  }
});

/**
 * The explorer page and a renderer's file, as each entry serves them: `extent serve` reads the file
 * from node_modules, the worker from Workers Static Assets (wrangler.toml [assets]); both with an
 * ETag that a conditional GET answers 304.
 */
async function checkExplorer(api: string): Promise<void> {
  const page = await fetch(`${api}/`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  const html = await page.text();
  assert.ok(html.includes('data-renderers="on"') && html.includes("/api/_explorer/mermaid.min.js"), "the page loads the renderers");
  const css = await fetch(`${api}/_explorer/swagger-ui.css`);
  assert.equal(css.status, 200, await css.clone().text());
  assert.match(css.headers.get("content-type") ?? "", /^text\/css/);
  assert.ok((await css.text()).includes(".swagger-ui"), "Swagger UI's stylesheet");
  const etag = css.headers.get("etag");
  assert.ok(etag, "an ETag");
  assert.equal((await fetch(`${api}/_explorer/swagger-ui.css`, { headers: { "if-none-match": etag } })).status, 304);
}

function checkStep(step: Step, answer: Answer): void {
  const where = answer.request;
  assert.equal(answer.status, step.status, `${where}: status (${JSON.stringify(answer.body)})`);
  if (answer.status >= 400) assert.match(answer.contentType ?? "", /^application\/problem\+json/, `${where}: a problem document`);
  assert.equal(answer.roundTrips, step.roundTrips, `${where}: round trips to the store`);
}
