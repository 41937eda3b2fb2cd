/**
 * Every cache on the request path is bounded and LRU: a flood of distinct query texts (JDOQL,
 * JPQL, filters), fetch plans and parameter values, sent as real Requests to the real handler,
 * never takes a cache past its limit, and a query used all along stays compiled while twice a
 * cache's worth of one-off queries passes. (The memory measurement over a million distinct
 * queries is a script: test/bench/distinct-queries.ts.)
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { BoundedCache, PREPARED_QUERY_LIMIT, PREPARED_QUERY_WEIGHT, READ_PLAN_LIMIT, READ_PLAN_WEIGHT, cacheSizes } from "../src/cache/bounded-cache.ts";
import { prepareFilter, prepareJdoql, prepareJpql } from "../src/query/prepare.ts";
import { classOf } from "../src/metadata/model.ts";
import { type HiddenFields, fetchPlanOfParams, narrowedPlan } from "../src/read/fetch-plan.ts";
import { CACHE_MODEL } from "./models/cache-model.ts";

const MODEL = CACHE_MODEL;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "cc.jdo", text: MODEL }] });
  const created = await h.post("/cc.Author", {
    id: 1,
    name: "Ann",
    books: [
      { id: 1, title: "One", pages: 7 },
      { id: 2, title: "Two", pages: 9 },
    ],
  });
  assert.equal(created.status, 201, created.text);
});
after(() => h?.close());

const enc = encodeURIComponent;
const jdoql = (q: string, extra = "") => h.get(`/jdoql?query=${enc(q)}${extra}`);
const jpql = (q: string, extra = "") => h.get(`/jpql?query=${enc(q)}${extra}`);
const filter = (cls: string, f: string, extra = "") => h.get(`/${cls}?filter=${enc(f)}${extra}`);

async function ok(reply: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await reply;
  assert.equal(r.status, 200, r.text);
}

function assertWithinLimits(): void {
  for (const [name, { size, limit, weight, weightLimit }] of Object.entries(cacheSizes(h.model))) {
    assert.ok(size <= limit, `cache ${name} holds ${size} entries, over its limit ${limit}`);
    if (weightLimit !== undefined) assert.ok(weight! <= weightLimit, `cache ${name} weighs ${weight}, over its limit ${weightLimit}`);
  }
}

test("BoundedCache is an LRU: a hit makes an entry the newest, a full cache drops the least recently used", () => {
  const cache = new BoundedCache<string>(3);
  const built: string[] = [];
  const get = (k: string) => cache.get(k, () => (built.push(k), k.toUpperCase()));
  assert.equal(get("a"), "A");
  get("b");
  get("c");
  assert.equal(get("a"), "A"); // a hit: a is now the newest, b the oldest
  get("d"); // evicts b
  assert.equal(cache.size, 3);
  assert.deepEqual(built, ["a", "b", "c", "d"]);
  get("a");
  get("c");
  get("d");
  assert.deepEqual(built, ["a", "b", "c", "d"], "a, c and d are still cached");
  get("b");
  assert.deepEqual(built, ["a", "b", "c", "d", "b"], "b was evicted");
  assert.equal(cache.size, 3);
  assert.throws(
    () =>
      cache.get("e", () => {
        throw new Error("no");
      }),
    /no/,
  );
  assert.equal(cache.size, 3, "a build that throws caches nothing");
  assert.throws(() => new BoundedCache(0), RangeError);
});

test("a weight bound evicts the least recently used entries until the total fits, and keeps no entry heavier than it", () => {
  const cache = new BoundedCache<string>(100, { limit: 10, weigh: (key) => key.length });
  const built: string[] = [];
  const get = (k: string) => cache.get(k, () => (built.push(k), k));
  get("aaaa");
  get("bbb");
  get("cc");
  assert.equal(cache.weightUsed, 9);
  get("aaaa"); // the newest now; bbb is the least recently used
  get("ddd"); // 12 > 10: bbb goes
  assert.equal(cache.size, 3);
  assert.equal(cache.weightUsed, 9);
  get("cc");
  get("aaaa");
  get("ddd");
  assert.deepEqual(built, ["aaaa", "bbb", "cc", "ddd"]);
  assert.equal(get("x".repeat(11)), "x".repeat(11), "too heavy: built and answered...");
  assert.equal(cache.size, 3, "...but not kept, and nothing was evicted for it");
  assert.equal(cache.weightUsed, 9);
  get("y".repeat(10)); // fits alone: everything else goes
  assert.equal(cache.size, 1);
  assert.equal(cache.weightUsed, 10);
});

test("the prepared queries and read plans also have weight bounds: a long text weighs its length and its SQL", async () => {
  const before = cacheSizes(h.model);
  assert.equal(before.preparedQueries!.weightLimit, PREPARED_QUERY_WEIGHT);
  assert.equal(before.readPlans!.weightLimit, READ_PLAN_WEIGHT);
  assert.equal(before.jsonSelects!.weightLimit, READ_PLAN_WEIGHT);
  const long = `SELECT FROM cc.Book WHERE ${Array.from({ length: 150 }, (_, j) => `pages == ${j + 5}`).join(" || ")}`;
  const r = await jdoql(long);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.map((b: { id: number }) => b.id).sort(), [1, 2]);
  const after = cacheSizes(h.model);
  // Its text, and SQL longer than its text.
  assert.ok(after.preparedQueries!.weight! - before.preparedQueries!.weight! > 1.5 * long.length);
  // Its candidates are written by a JSON select (the read plan's twin).
  assert.ok(after.jsonSelects!.weight! - before.jsonSelects!.weight! > 1.5 * long.length);
  assertWithinLimits();
});

test("a flood of distinct JDOQL, JPQL and filter texts never takes a cache past its limit", async () => {
  const n = (PREPARED_QUERY_LIMIT * 3) / 4; // × 4 kinds of text: three times the prepared queries' limit
  for (let i = 0; i < n; i++) {
    await ok(jdoql(`SELECT FROM cc.Book WHERE pages == ${i}`, i % 4 === 0 ? "&fetchGroup=withAuthor&maxFetchDepth=3" : ""));
    await ok(jpql(i % 2 ? `SELECT b FROM Book b WHERE b.pages = ${i}` : `SELECT b.title, b.pages FROM Book b WHERE b.pages > ${i}`));
    await ok(filter("cc.Book", `pages == ${i} || title == "One"`));
    await ok(filter("cc.Author", `name.startsWith("x${i}")`, i % 3 === 0 ? "&fetchGroup=withBooks&maxFetchDepth=-1" : ""));
    if (i % 250 === 0) assertWithinLimits();
  }
  assertWithinLimits();
  const sizes = cacheSizes(h.model);
  assert.equal(sizes.preparedQueries!.size, PREPARED_QUERY_LIMIT, "the flood filled the prepared queries");
  // A JSON select weighs its SQL, which holds every level of the plan: the weight bound fills first.
  assert.ok(
    sizes.jsonSelects!.size === READ_PLAN_LIMIT || sizes.jsonSelects!.weight! > 0.95 * READ_PLAN_WEIGHT,
    `the flood filled the JSON selects: ${JSON.stringify(sizes.jsonSelects)}`,
  );
  // Default, withAuthor, withBooks and the write's `all`, for each class at most.
  assert.ok(sizes.fetchPlans!.size <= 4 * h.model.classes.size, `a few fetch plans per class, got ${sizes.fetchPlans!.size}`);
});

test("fetch plans a client spells differently (order, repeats, all) share one entry", async () => {
  const before = cacheSizes(h.model).fetchPlans!.size;
  for (let i = 1; i <= 100; i++) {
    const groups = Array.from({ length: i }, (_, j) => (j % 2 ? "withAuthor" : "default")).join(",");
    await ok(h.get(`/cc.Book?fetchGroup=${groups}`));
    await ok(h.get(`/cc.Book?fetchGroup=${"all,".repeat(i)}withAuthor`));
    await ok(jpql(`SELECT b FROM Book b${" JOIN FETCH b.author".repeat(1 + (i % 5))}`));
  }
  const after = cacheSizes(h.model).fetchPlans!.size;
  assert.ok(after - before <= 4, `fetch plans grew from ${before} to ${after}`);
  assertWithinLimits();
});

test("parameter values are bound per request, never part of a cache key", async () => {
  const before = cacheSizes(h.model);
  for (let i = 0; i < 200; i++) {
    await ok(jdoql("SELECT FROM cc.Book WHERE pages == :p", `&params=${enc(JSON.stringify({ p: i }))}`));
    await ok(jpql("SELECT b FROM Book b WHERE b.title = ?1", `&params=${enc(JSON.stringify([`t${i}`]))}`));
  }
  const after = cacheSizes(h.model);
  // Two texts: at most two prepared queries, and their read plans, are new.
  assert.ok(after.preparedQueries!.size - before.preparedQueries!.size <= 2);
  assert.ok(after.readPlans!.size - before.readPlans!.size <= 2);
  const rows = await jdoql("SELECT FROM cc.Book WHERE pages == :p", `&params=${enc(JSON.stringify({ p: 9 }))}`);
  assert.deepEqual(
    rows.body.map((b: { id: number }) => b.id),
    [2],
  );
});

test("queries in use stay compiled while twice a cache's worth of one-off queries passes (LRU)", async () => {
  const book = classOf(h.model, "cc.Book");
  const hot = {
    jdoql: "SELECT FROM cc.Book WHERE title == 'One' ORDER BY id",
    jpql: "SELECT b.title FROM Book b WHERE b.pages < 8",
    filter: "pages < 8",
  };
  const cold = "SELECT FROM cc.Book WHERE title == 'cold'";
  const useHot = async () => {
    await ok(jdoql(hot.jdoql));
    await ok(jpql(hot.jpql));
    await ok(filter("cc.Book", hot.filter));
  };
  await ok(jdoql(cold));
  await useHot();
  // The same model, the same caches as the requests: these are hits, returning the cached objects.
  const cached = {
    jdoql: prepareJdoql(h.model, hot.jdoql),
    jpql: prepareJpql(h.model, hot.jpql),
    filter: prepareFilter(h.model, book, hot.filter),
    cold: prepareJdoql(h.model, cold),
  };
  assert.equal(prepareJdoql(h.model, hot.jdoql), cached.jdoql);
  for (let i = 0; i < 2 * PREPARED_QUERY_LIMIT; i++) {
    await ok(i % 2 ? jdoql(`SELECT FROM cc.Book WHERE id == ${1_000_000 + i}`) : jpql(`SELECT b FROM Book b WHERE b.id = ${1_000_000 + i}`));
    if (i % 100 === 99) await useHot();
  }
  assert.equal(prepareJdoql(h.model, hot.jdoql), cached.jdoql, "the hot JDOQL query is still cached");
  assert.equal(prepareJpql(h.model, hot.jpql), cached.jpql, "the hot JPQL query is still cached");
  assert.equal(prepareFilter(h.model, book, hot.filter), cached.filter, "the hot filter is still cached");
  assert.notEqual(prepareJdoql(h.model, cold), cached.cold, "a query used once before the flood was evicted");
  assertWithinLimits();
  const r = await jdoql(hot.jdoql);
  assert.deepEqual(
    r.body.map((b: { id: number }) => b.id),
    [1],
  );
});

// A query's parameters (kept once per query string) keep their fetch plan: a repeated query gets
// the same plan object, which what is cached by plan finds again; another cap or fallback parses anew.
// Under access rules, a plan narrowed by a principal's hidden fields is made once per plan and
// hidden set too (both kept objects), so what is cached by plan is found again.
test("a plan narrowed by hidden fields is made once per plan and set of hidden fields", () => {
  const none: ReadonlySet<string> = new Set();
  const a: HiddenFields = { key: "h1", of: () => none };
  const b: HiddenFields = { key: "h2", of: () => none };
  const plan = { groups: ["all"], maxDepth: 1 };
  const narrowed = narrowedPlan(plan, a);
  assert.deepEqual(narrowed, { groups: ["all"], maxDepth: 1, hidden: a });
  assert.equal(narrowedPlan(plan, a), narrowed, "the same plan and hidden set: the same object");
  assert.notEqual(narrowedPlan(plan, b), narrowed, "another hidden set: its own plan");
  assert.equal(narrowedPlan(plan, b).hidden, b);
  assert.deepEqual(plan, { groups: ["all"], maxDepth: 1 }, "the plan itself unchanged");
});

test("a query string's fetch plan is parsed once, and again for another cap or fallback", () => {
  const params = new URLSearchParams("filter=x&fetchGroup=all&maxFetchDepth=3");
  const first = fetchPlanOfParams(h.model, params);
  assert.ok(first.ok);
  assert.equal(fetchPlanOfParams(h.model, params), first, "the same parameters give the same plan object");
  assert.deepEqual(first.plan, { groups: ["all"], maxDepth: 3 });
  const capped = fetchPlanOfParams(h.model, params, undefined, 2);
  assert.ok(!capped.ok, "a cap of 2 refuses maxFetchDepth=3");
  assert.equal(capped.parameter, "maxFetchDepth");
  const other = fetchPlanOfParams(h.model, new URLSearchParams("filter=x"), { groups: ["all"], maxDepth: 2 });
  assert.deepEqual(other.ok && other.plan, { groups: ["all"], maxDepth: 2 }, "no parameters: the fallback's plan");
  assert.deepEqual(fetchPlanOfParams(h.model, params), first, "back to no cap: allowed again");
});
