/**
 * A reference (a to-one) kept in a join table (`<join>`, JPA's `@JoinTable`), and the mapped-by
 * field on its other side: both read and write the owning side's join table, as a collection
 * over a join table and its mapped-by side do (test/join-inverse.test.ts).
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";

const MODEL = `<jdo><package name="jr">
  <class name="Team" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="players" field-type="java.util.Set" mapped-by="team"><collection element-type="jr.Player"/></field>
  </class>
  <class name="Player" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="team" field-type="jr.Team" table="PLAYER_TEAM"><join column="PLAYER"/></field>
  </class>
  <class name="Desk" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="occupant" field-type="jr.Clerk" mapped-by="desk"/>
  </class>
  <class name="Clerk" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="desk" field-type="jr.Desk" table="CLERK_DESK"><join column="CLERK"/></field>
  </class>
</package></jdo>`;

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "jr.jdo", text: MODEL }] });
  for (const id of [1, 2]) assert.equal((await h.post("/jr.Team", { id })).status, 201);
  for (const id of [10, 11]) assert.equal((await h.post("/jr.Player", { id })).status, 201);
  assert.equal((await h.post("/jr.Desk", { id: 1 })).status, 201);
  assert.equal((await h.post("/jr.Clerk", { id: 5 })).status, 201);
});
after(() => h?.close());

const jdoql = (q: string) => h.get(`/jdoql?query=${encodeURIComponent(q)}`);

test("the mapped-by collection writes the reference's join table, and both sides read it", async () => {
  const r = await h.put("/jr.Team/2", { players: [{ id: 10 }] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await h.sql("SELECT PLAYER, team_id FROM PLAYER_TEAM"), [[10, 2]]);
  assert.deepEqual((await h.get("/jr.Team/2?fetchGroup=all")).body.players, [{ class: "jr.Player", id: 10, team: { class: "jr.Team", id: 2 } }]);
  assert.deepEqual((await h.get("/jr.Team/2?fetchGroup=all&maxFetchDepth=-1")).body.players, [
    { class: "jr.Player", id: 10, team: { class: "jr.Team", id: 2 } },
  ]);
  assert.deepEqual((await h.get("/jr.Player/10?fetchGroup=all")).body.team, { class: "jr.Team", id: 2, players: [{ class: "jr.Player", id: 10 }] });
});

test("queries over the mapped-by collection read the join table", async () => {
  const contains = await jdoql("SELECT FROM jr.Team WHERE players.contains(p) && p.id == 10 VARIABLES jr.Player p");
  assert.equal(contains.status, 200, contains.text);
  assert.deepEqual(contains.body, [{ class: "jr.Team", id: 2 }]);
  const empty = await jdoql("SELECT FROM jr.Team WHERE players.isEmpty()");
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(empty.body, [{ class: "jr.Team", id: 1 }]);
});

test("the mapped-by reference writes and reads the join table; navigating it is refused as for any join table", async () => {
  const r = await h.put("/jr.Desk/1", { occupant: { id: 5 } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await h.sql("SELECT CLERK, desk_id FROM CLERK_DESK"), [[5, 1]]);
  assert.deepEqual((await h.get("/jr.Desk/1?fetchGroup=all")).body.occupant, { class: "jr.Clerk", id: 5, desk: { class: "jr.Desk", id: 1 } });
  const nav = await jdoql("SELECT FROM jr.Desk WHERE occupant == null");
  assert.equal(nav.status, 400, nav.text);
  assert.match(nav.body.detail, /navigation through occupant .* is not supported/);
});

test("the reference itself writes its join table: set, moved, cleared", async () => {
  const created = await h.post("/jr.Player", { id: 12, team: { id: 1 } });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual((await h.get("/jr.Player/12?fetchGroup=all")).body.team, { class: "jr.Team", id: 1, players: [{ class: "jr.Player", id: 12 }] });
  assert.deepEqual(await h.sql("SELECT PLAYER, team_id FROM PLAYER_TEAM WHERE PLAYER = 12"), [[12, 1]]);
  assert.deepEqual((await h.get("/jr.Team/1?fetchGroup=all")).body.players, [{ class: "jr.Player", id: 12, team: { class: "jr.Team", id: 1 } }]);
  const moved = await h.put("/jr.Player/12", { team: { id: 2 } });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(await h.sql("SELECT PLAYER, team_id FROM PLAYER_TEAM WHERE PLAYER = 12"), [[12, 2]]);
  assert.deepEqual((await h.get("/jr.Player/12?fetchGroup=all")).body.team, {
    class: "jr.Team",
    id: 2,
    players: [
      { class: "jr.Player", id: 10 },
      { class: "jr.Player", id: 12 },
    ],
  });
  assert.deepEqual((await h.put("/jr.Player/12", { team: null })).body.team, null);
  assert.deepEqual(await h.sql("SELECT * FROM PLAYER_TEAM WHERE PLAYER = 12"), []);
  // A write that leaves the reference out leaves its link.
  assert.equal((await h.put("/jr.Player/10", {})).status, 200);
  assert.deepEqual(await h.sql("SELECT PLAYER, team_id FROM PLAYER_TEAM"), [[10, 2]]);
});

test("the mapped-by collection takes an element from its previous owner: a reference holds one", async () => {
  const r = await h.put("/jr.Team/1", { players: [{ id: 10 }] });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(await h.sql("SELECT PLAYER, team_id FROM PLAYER_TEAM"), [[10, 1]]);
  assert.deepEqual((await h.get("/jr.Team/2?fetchGroup=all")).body.players, []);
});

test("a one-to-one reference in a join table is written from its owning side", async () => {
  const r = await h.post("/jr.Clerk", { id: 6, desk: { id: 1 } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(await h.sql("SELECT CLERK, desk_id FROM CLERK_DESK WHERE CLERK = 6"), [[6, 1]]);
  assert.equal((await h.put("/jr.Clerk/6", { desk: null })).status, 200);
  assert.deepEqual(await h.sql("SELECT * FROM CLERK_DESK WHERE CLERK = 6"), []);
});

test("deleting either side removes its join-table rows", async () => {
  assert.equal((await h.del("/jr.Team/1")).status, 204);
  assert.deepEqual(await h.sql("SELECT * FROM PLAYER_TEAM"), []);
  assert.equal((await h.del("/jr.Desk/1")).status, 204);
  assert.deepEqual(await h.sql("SELECT * FROM CLERK_DESK"), []);
});

test("versions: the other side steps when a reference in a join table changes, from either side", async () => {
  const versioned = MODEL.replace(/<class name="(Team|Player)" identity-type="application">/g, '$&<version strategy="version-number" column="VERSION"/>');
  const v = await startHarness({ metadata: [{ source: "jr.jdo", text: versioned }] });
  try {
    for (const [path, id] of [
      ["/jr.Team", 1],
      ["/jr.Team", 2],
      ["/jr.Player", 10],
    ] as const)
      assert.equal((await v.post(path, { id })).status, 201);
    const versions = async () => [
      (await v.get("/jr.Team/1")).body._version,
      (await v.get("/jr.Team/2")).body._version,
      (await v.get("/jr.Player/10")).body._version,
    ];
    assert.equal((await v.put("/jr.Player/10", { team: { id: 2 } })).status, 200);
    assert.deepEqual(await versions(), [1, 2, 2]);
    // Team 1 takes the player: team 2 loses it, the player's reference changes.
    assert.equal((await v.put("/jr.Team/1", { players: [{ id: 10 }] })).status, 200);
    assert.deepEqual(await versions(), [2, 3, 3]);
  } finally {
    v.close();
  }
});
