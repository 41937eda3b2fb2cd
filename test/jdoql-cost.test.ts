/**
 * What a query costs: one round trip for the candidates and their fetch plan, a number of
 * statements that does not grow with the number of matches, and parsing/compiling once per text.
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

test("a candidate query with the fetch plan costs one round trip, the same for 10 and 1000 matches", async () => {
  const query = `/jdoql?query=${enc("SELECT FROM c.Player WHERE score >= 0 ORDER BY name")}&fetchGroup=all&maxFetchDepth=2`;
  await addTeams(2, 5);
  const small = await cost(query);
  await addTeams(20, 50);
  const large = await cost(query);
  assert.equal(small.size, 10);
  assert.equal(large.size, 1010);
  assert.equal(large.statements, small.statements, `statements: ${small.statements} for 10, ${large.statements} for 1010`);
  assert.equal(small.roundTrips, 1);
  assert.equal(large.roundTrips, 1);
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
