/**
 * Write plans by graph shape (src/service/write-plans.ts): a body of a shape already planned is
 * written with that plan and its own values, never another request's; a new shape (other fields,
 * other objects, an If-Match) gets a plan of its own; generated keys are new per write; a value
 * that looks like the planner's stand-ins is stored as it is; and the check the test harness runs on
 * every cached plan (a fresh plan of the same write) does catch a planner that reads a value.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { type Harness, startHarness } from "./support/harness.ts";
import { cacheSizes } from "../src/cache/bounded-cache.ts";
import { cachedPlan, type Plan, verifyWritePlans } from "../src/service/write-plans.ts";
import type { Graph, GraphNode } from "../src/mapping/read-graph.ts";
import type { ClassMeta, Model } from "../src/metadata/model.ts";

const MODEL = `<jdo><package name="wp">
  <class name="Author" identity-type="application">
    <version strategy="version-number" column="VER"/>
    <field name="id" primary-key="true" field-type="long" value-strategy="native"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="born" field-type="int"/>
    <field name="works" field-type="java.util.List" mapped-by="author"><collection element-type="Book"/></field>
  </class>
  <class name="Book" identity-type="application">
    <field name="id" primary-key="true" field-type="long" value-strategy="native"/>
    <field name="title" field-type="java.lang.String"/>
    <field name="author" field-type="Author"/>
  </class>
  <class name="Tag" identity-type="application">
    <field name="code" primary-key="true" field-type="java.lang.String" value-strategy="uuid-string"/>
    <field name="label" field-type="java.lang.String"/>
  </class>
</package></jdo>`;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "wp.jdo", text: MODEL }] });
});
after(() => h?.close());

const plans = () => cacheSizes(h.model).writePlans!.size;

describe("a write of a known shape", () => {
  test("takes its shape's plan with its own values; other fields, objects or an If-Match make shapes of their own", async () => {
    const start = plans();
    const a = await h.post("/wp.Author", { name: "Ann", born: 1900, works: [{ title: "One" }, { title: "Two" }] });
    assert.equal(a.status, 201, a.text);
    assert.equal(plans(), start + 1);
    const b = await h.post("/wp.Author", { name: "Bob", born: 1950, works: [{ title: "Three" }, { title: "Four" }] });
    assert.equal(b.status, 201, b.text);
    assert.equal(plans(), start + 1, "the same shape: no new plan");
    assert.notEqual(b.body.id, a.body.id);
    assert.deepEqual(
      b.body.works.map((w: { title: string; author: unknown }) => w.title),
      ["Three", "Four"],
    );
    const read = await h.get(`/wp.Author/${b.body.id}?fetchGroup=all`);
    assert.equal(read.body.name, "Bob");
    assert.equal(read.body.born, 1950);
    assert.deepEqual(
      read.body.works.map((w: { title: string }) => w.title),
      ["Three", "Four"],
    );
    // Three works instead of two, a field left out: other shapes.
    assert.equal((await h.post("/wp.Author", { name: "Cy", born: 1, works: [{ title: "5" }, { title: "6" }, { title: "7" }] })).status, 201);
    assert.equal((await h.post("/wp.Author", { name: "Di", works: [{ title: "8" }, { title: "9" }] })).status, 201);
    assert.equal(plans(), start + 3);
    // PUTs of one shape, each with its own value; an If-Match is a shape of its own and still judged by its own version.
    for (const name of ["X", "Y"]) assert.equal((await h.put(`/wp.Author/${a.body.id}`, { name })).body.name, name);
    assert.equal(plans(), start + 4);
    const stale = await h.call("PUT", `/wp.Author/${a.body.id}`, { name: "Z" }, { "if-match": '"1"' });
    assert.equal(stale.status, 412, stale.text);
    const now = await h.get(`/wp.Author/${a.body.id}`);
    assert.equal(now.body.name, "Y", "a refused write changes nothing");
    const fresh = await h.call("PUT", `/wp.Author/${a.body.id}`, { name: "Z" }, { "if-match": now.headers.get("etag")! });
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal(fresh.body.name, "Z");
    assert.equal(plans(), start + 5);
  });

  test("generated UUID keys are new for every write of the shape", async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await h.post("/wp.Tag", { label: `t${i}` });
      assert.equal(r.status, 201, r.text);
      codes.add(r.body.code);
    }
    assert.equal(codes.size, 5);
    for (const code of codes) assert.equal((await h.get(`/wp.Tag/${code}`)).status, 200);
  });

  test("a value written like the planner's stand-ins is stored as it is", async () => {
    const looksLikeStandIn = "\uE000x0\uE000";
    const first = await h.post("/wp.Author", { name: "plain", born: 3 });
    assert.equal(first.status, 201, first.text);
    for (const name of [looksLikeStandIn, `"${looksLikeStandIn}"`, `\uE000x1\uE000 and \uE000x0\uE000`]) {
      const r = await h.post("/wp.Author", { name, born: 4 });
      assert.equal(r.status, 201, r.text);
      assert.equal((await h.get(`/wp.Author/${r.body.id}`)).body.name, name);
      const put = await h.put(`/wp.Author/${r.body.id}`, { name: `${name}!` });
      assert.equal(put.body.name, `${name}!`);
    }
  });
});

describe("the check of cached plans", () => {
  // A planner that reads a value (here: writes a different statement for a long name) breaks the
  // premise of the cache; the check the harness turns on must notice.
  const meta = { name: "t.C", fields: new Map() } as unknown as ClassMeta;
  const node = (name: string): GraphNode =>
    ({ meta, declared: meta, explicitClass: false, path: "", index: 0, values: new Map([["name", name]]), refs: new Map(), many: new Map() }) as GraphNode;
  const graphOf = (n: GraphNode): Graph => ({ root: n, nodes: [n], errors: [] });
  const readsValue: Plan = (graph) => {
    const name = graph.root.values.get("name") as string;
    const sql = name.length > 3 ? "UPDATE t SET name = ? /* long */" : "UPDATE t SET name = ?";
    return { statements: [{ sql, params: [name] }], back: { statements: [] }, root: { meta, mode: "update" }, diagnose: () => ({}) as never };
  };
  const model = {} as Model;
  const run = (name: string) => {
    const n = node(name);
    return cachedPlan({ model, answerBytes: 1 }, graphOf(n), [{ node: n, meta, mode: "update" }], [], { groups: [], maxDepth: 1 }, readsValue);
  };

  test("a plan that depends on a value is caught", () => {
    verifyWritePlans(true);
    // The stand-in is long: the shape's plan is the long one, right for long names only.
    assert.deepEqual(run("abcdef").statements[0]!.params, ["abcdef"]);
    assert.throws(() => run("ab"), /cached write plan .* differs/s);
  });

  test("the values go in by position, not by what they look like", () => {
    const planned = run("\uE000x0\uE000");
    assert.deepEqual(planned.statements[0]!.params, ["\uE000x0\uE000"]);
  });
});
