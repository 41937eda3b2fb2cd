/**
 * Projections written by SQL (src/query/sql/projection-json.ts) answer what JavaScript writes of
 * the same rows (decodeCell in src/service/query.ts): JDOQL and JPQL texts generated along the
 * grammars over the seeded sample (test/fuzz/queries.ts), each projection run both ways, equal
 * JSON or the same refusal. Also: the SQL answer holds to answerBytes.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { DEFAULT_LIMITS, resolveLimits } from "../src/config/limits.ts";
import { QueryError } from "../src/errors/query-error.ts";
import { bindParams, parseParams } from "../src/query/params.ts";
import { type PreparedQuery, prepareJdoql, prepareJpql } from "../src/query/prepare.ts";
import { runQuery } from "../src/service/query.ts";
import type { Runtime } from "../src/service/runtime.ts";
import { AnswerTooLargeError, StoreTooBigError } from "../src/errors/capacity-errors.ts";
import { jdoqlQuery, jpqlQuery, paramsFor } from "./fuzz/queries.ts";
import { sampleHarness } from "./fuzz/world.ts";
import type { Harness } from "./support/harness.ts";

const RUNS = Number(process.env.EXTENT_PROJECTION_RUNS ?? 400);

let h: Harness;
let rt: Runtime;

before(async () => {
  h = await sampleHarness();
  rt = {
    model: h.model,
    store: h.store,
    prefix: "",
    limits: resolveLimits({}),
    writeFetchPlan: { groups: ["all"], maxDepth: 1 },
    serverTiming: false,
    pageSize: 1000,
    firstPageSize: 100,
    pageBytes: 512 * 1024,
  };
});
after(() => h.close());

/** The answer, or the kind of refusal. */
async function outcome(run: () => Promise<string>): Promise<unknown> {
  try {
    return JSON.parse(await run());
  } catch (error) {
    if (error instanceof QueryError) return `QueryError: ${error.message}`;
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

test("every projection SQL writes is the JSON JavaScript writes of its rows", async () => {
  let compared = 0;
  const languages = fc.oneof(
    jdoqlQuery.map((f) => ({ prepare: prepareJdoql, frag: f })),
    jpqlQuery.map((f) => ({ prepare: prepareJpql, frag: f })),
  );
  await fc.assert(
    fc.asyncProperty(
      languages.chain((l) => paramsFor(l.frag.params).map((params) => ({ ...l, params }))),
      async ({ prepare, frag, params }) => {
        let prepared: PreparedQuery;
        let values: Record<string, unknown>;
        try {
          prepared = prepare(h.model, frag.tokens.join(" "));
          values = bindParams(h.model, prepared.params, parseParams(params ?? null), DEFAULT_LIMITS.keyBytes);
        } catch {
          return; // refused before it runs: no projection to compare
        }
        if (!prepared.projection?.json) return;
        const inJs: PreparedQuery = { ...prepared, projection: { ...prepared.projection!, json: undefined } };
        const fetch = { groups: [], maxDepth: 1 };
        const bySql = await outcome(async () => new Response(await runQuery(rt, prepared, values, fetch)).text());
        const byJs = await outcome(async () => new Response(await runQuery(rt, inJs, values, fetch)).text());
        assert.deepStrictEqual(bySql, byJs, frag.tokens.join(" "));
        compared++;
      },
    ),
    { numRuns: RUNS, seed: 20261125 },
  );
  console.log(`projections compared: ${compared} of ${RUNS} generated queries`);
  assert.ok(compared > RUNS / 10, `only ${compared} projections were written by SQL`);
});

test("a projection's answer past answerBytes is refused in SQL, before JavaScript sees a row", async () => {
  const small: Runtime = { ...rt, limits: resolveLimits({ answerBytes: 64 }) };
  const prepared = prepareJpql(h.model, "SELECT i.title, i.id FROM Item i");
  assert.ok(prepared.projection?.json, "written by SQL");
  await assert.rejects(
    async () => runQuery(small, prepared, {}, { groups: [], maxDepth: 1 }),
    (e: unknown) => e instanceof StoreTooBigError || e instanceof AnswerTooLargeError,
  );
  const answer = JSON.parse(await new Response(await runQuery(rt, prepared, {}, { groups: [], maxDepth: 1 })).text());
  assert.ok(Array.isArray(answer) && answer.length > 2);
});
