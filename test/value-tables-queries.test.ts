/**
 * Queries over collections of values kept in tables of their own (test/value-tables.test.ts):
 * JDOQL and JPQL read them as they read any collection of values.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startHarness, type Harness } from "./support/harness.ts";
import { withParams } from "./support/query-client.ts";

const MODEL = readFileSync(new URL("./models/value-tables/package.jdo", import.meta.url), "utf8");

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "value-tables/package.jdo", text: MODEL }] });
  const items = [
    { id: 1, name: "one", tags: ["red", "blue"], scores: [5, 7] },
    { id: 2, name: "two", tags: ["red"], scores: [1] },
    { id: 3, name: "three", tags: [], scores: [] },
  ];
  for (const i of items) assert.equal((await h.post("/vt.Item", i)).status, 201);
  assert.equal((await h.post("/vt.Book", { id: 4, name: "four", tags: ["blue", "green", "red"], flags: [true, false] })).status, 201);
  // The queries below read these rows: the owner's table has no column for the collection.
  assert.deepEqual(await h.sql("SELECT count(*) FROM ITEM_TAGS"), [[6]]);
});
after(() => h?.close());

async function ids(language: "jdoql" | "jpql", q: string, params?: unknown): Promise<unknown[]> {
  const r = await h.get(withParams(`/${language}?query=${encodeURIComponent(q)}`, params));
  assert.equal(r.status, 200, `${q}: ${r.text}`);
  return r.body.map((o: any) => (typeof o === "object" && o !== null && "id" in o ? o.id : o)).sort();
}
const jdoql = (q: string, params?: unknown) => ids("jdoql", q, params);
const jpql = (q: string, params?: unknown) => ids("jpql", q, params);

test("JDOQL: contains, isEmpty, size, variables over the values", async () => {
  assert.deepEqual(await jdoql("SELECT FROM vt.Item WHERE tags.contains(:t)", { t: "red" }), [1, 2, 4]);
  assert.deepEqual(await jdoql("SELECT FROM vt.Item WHERE tags.contains('blue') && !tags.contains('green')"), [1]);
  assert.deepEqual(await jdoql("SELECT FROM vt.Item WHERE tags.isEmpty()"), [3]);
  assert.deepEqual(await jdoql("SELECT FROM vt.Item WHERE tags.size() >= 2"), [1, 4]);
  assert.deepEqual(await jdoql("SELECT FROM vt.Item WHERE scores.contains(s) && s > 6 VARIABLES int s"), [1]);
  assert.deepEqual(await jdoql("SELECT FROM vt.Book WHERE flags.contains(false)"), [4]);
  assert.deepEqual(await jdoql("SELECT FROM vt.Item WHERE tags.contains(t) && t.startsWith('g') VARIABLES String t"), [4]);
});

test("JDOQL: a collection in a table is refused as a result item as one in a JSON column is", async () => {
  for (const field of ["tags", "notes"]) {
    const r = await h.get(`/jdoql?query=${encodeURIComponent(`SELECT id, ${field} FROM vt.Item`)}`);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /column 12: a collection or map cannot be a result item/);
  }
});

test("JPQL: MEMBER OF, JOIN over the values, IS EMPTY, SIZE", async () => {
  assert.deepEqual(await jpql("SELECT i FROM Item i WHERE :t MEMBER OF i.tags", { t: "blue" }), [1, 4]);
  assert.deepEqual(await jpql("SELECT i FROM Item i WHERE 'red' NOT MEMBER OF i.tags"), [3]);
  assert.deepEqual(await jpql("SELECT DISTINCT i FROM Item i JOIN i.tags t WHERE t LIKE 'g%' OR t = 'blue'"), [1, 4]);
  assert.deepEqual(await jpql("SELECT i FROM Item i WHERE i.tags IS EMPTY"), [3]);
  assert.deepEqual(await jpql("SELECT i FROM Item i WHERE i.tags IS NOT EMPTY AND SIZE(i.scores) = 1"), [2]);
  const r = await h.get(`/jpql?query=${encodeURIComponent("SELECT i.id, t FROM Item i JOIN i.tags t WHERE i.id = 1 ORDER BY t")}`);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, [
    [1, "blue"],
    [1, "red"],
  ]);
});
