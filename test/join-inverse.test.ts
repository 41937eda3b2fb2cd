/**
 * A 1-N through a join table whose element side says `mapped-by` the collection: the element's
 * to-one reference is stored in the owner's join table, written and read from either side.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";

const MODEL = `<jdo><package name="ji">
  <class name="Team" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="members" table="TEAM_MEMBERS"><collection element-type="ji.Player"/><join column="TEAM"/><element column="PLAYER"/></field>
  </class>
  <class name="Player" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="team" field-type="ji.Team" mapped-by="members"/>
  </class>
</package></jdo>`;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "ji.jdo", text: MODEL }] });
});
after(() => h?.close());

test("setting the element's reference writes a row of the owner's join table", async () => {
  assert.equal((await h.post("/ji.Team", { id: 1 })).status, 201);
  assert.equal((await h.post("/ji.Team", { id: 2 })).status, 201);
  const p = await h.post("/ji.Player", { id: 10, team: { id: 1 } });
  assert.equal(p.status, 201, p.text);
  assert.deepEqual(await h.sql("SELECT TEAM, PLAYER FROM TEAM_MEMBERS"), [[1, 10]]);
  assert.deepEqual((await h.get("/ji.Team/1?fetchGroup=all")).body.members, [{ class: "ji.Player", id: 10, team: { class: "ji.Team", id: 1 } }]);
  assert.deepEqual((await h.get("/ji.Player/10?fetchGroup=all")).body.team, { class: "ji.Team", id: 1, members: [{ class: "ji.Player", id: 10 }] });
});

test("moving the element to another owner replaces its join-table row; null removes it", async () => {
  assert.equal((await h.put("/ji.Player/10", { team: { id: 2 } })).status, 200);
  assert.deepEqual(await h.sql("SELECT TEAM, PLAYER FROM TEAM_MEMBERS"), [[2, 10]]);
  assert.equal((await h.put("/ji.Player/10", { team: null })).status, 200);
  assert.deepEqual(await h.sql("SELECT TEAM, PLAYER FROM TEAM_MEMBERS"), []);
  assert.equal((await h.get("/ji.Player/10?fetchGroup=all")).body.team, null);
});
