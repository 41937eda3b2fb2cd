/**
 * What a query costs: one round trip for the candidates and their fetch plan (while they fit the
 * first page; beyond, a streamed answer's round trip a page), a number of statements that does not
 * grow with the number of matches, and parsing/compiling once per text.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { loadModel } from "../src/config/load-model.ts";
import { prepareJdoql } from "../src/query/prepare.ts";
import { startHarness, type Harness } from "./support/harness.ts";

const MODEL = `<jdo><package name="c">
  <class name="Team" identity-type="application">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="players" mapped-by="team"><collection element-type="c.Player"/></field>
  </class>
  <class name="Player" identity-type="application">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="score" field-type="int"/>
    <field name="team" field-type="c.Team" default-fetch-group="true"/>
  </class>
</package></jdo>`;

let h: Harness;
const enc = encodeURIComponent;

async function addTeams(count: number, playersEach: number): Promise<void> {
  for (let t = 0; t < count; t++) {
    const players = Array.from({ length: playersEach }, (_, i) => ({ name: `p${t}-${i}`, score: i }));
    assert.equal((await h.post("/c.Team", { name: `team${t}`, players })).status, 201);
  }
}

async function cost(path: string): Promise<{ statements: number; roundTrips: number; size: number }> {
  h.store.reset();
  const r = await h.get(path);
  assert.equal(r.status, 200, r.text);
  return { statements: h.store.statements, roundTrips: h.store.roundTrips, size: Array.isArray(r.body) ? r.body.length : 1 };
}

before(async () => {
  h = await startHarness({ metadata: [{ source: "c.jdo", text: MODEL }] });
});
after(() => h.close());

test("a candidate query with the fetch plan costs one round trip while its answer fits the first page, the same for 10 and 100 matches", async () => {
  const query = (range = "") => `/jdoql?query=${enc(`SELECT FROM c.Player WHERE score >= 0 ORDER BY name${range}`)}&fetchGroup=all&maxFetchDepth=2`;
  await addTeams(2, 5);
  const small = await cost(query());
  await addTeams(20, 50);
  const page = await cost(query(" RANGE 0, 100"));
  assert.equal(small.size, 10);
  assert.equal(page.size, 100);
  assert.equal(page.statements, small.statements, `statements: ${small.statements} for 10, ${page.statements} for 100`);
  assert.equal(small.roundTrips, 1);
  assert.equal(page.roundTrips, 1);
  // More than the first page streams (README, "Query answers of objects stream too"): the first
  // read, the keys (one statement), then a round trip a page, none costing more than the first.
  const large = await cost(query());
  assert.equal(large.size, 1010);
  assert.ok(large.roundTrips >= 4, `${large.roundTrips} round trips`);
  assert.ok(large.statements <= 1 + (large.roundTrips - 1) * small.statements, `statements: ${large.statements} in ${large.roundTrips} round trips`);
});

test("a projection selecting objects costs two round trips, whatever the number of rows", async () => {
  const a = await cost(`/jdoql?query=${enc("SELECT name, team FROM c.Player WHERE score < 1")}`);
  const b = await cost(`/jdoql?query=${enc("SELECT name, team FROM c.Player WHERE score < 40")}`);
  assert.ok(b.size > a.size);
  assert.equal(a.roundTrips, 2);
  assert.equal(b.roundTrips, 2);
  assert.equal(a.statements, b.statements);
});

test("a query text is parsed and compiled once per model: the second request reuses the prepared query", () => {
  const model = loadModel({ metadata: [{ source: "c.jdo", text: MODEL }] });
  const text = "SELECT FROM c.Team WHERE name.startsWith(:p)";
  const first = prepareJdoql(model, text);
  assert.equal(prepareJdoql(model, text), first);
  assert.notEqual(prepareJdoql(model, text + " "), first);
  assert.notEqual(prepareJdoql(loadModel({ metadata: [{ source: "c.jdo", text: MODEL }] }), text), first, "another model compiles its own");
});
