/**
 * Cascades and required references (issue 23 items 1 and 2), over a JDO XML model
 * (test/fixtures/cascades/cascades.jdo): a deletion takes its dependents along, through several
 * levels and around cycles, in one batch whose statements do not grow with the objects; a PUT
 * deletes what it releases from a dependent relation; a required reference refuses what would
 * leave it pointing at nothing (409, naming class, field and count) and nothing is written; the
 * access rules judge every object a cascade deletes.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { type Harness, startHarness } from "./support/harness.ts";
import { databaseDigest } from "./support/digest.ts";
import { hs256 } from "./support/tokens.ts";

const metadata = [{ source: "cascades.jdo", text: readFileSync(new URL("./fixtures/cascades/cascades.jdo", import.meta.url), "utf8") }];
const C = "/org.c.";

function ok(r: { status: number; text: string }, status: number) {
  assert.equal(r.status, status, r.text);
}
const count = async (h: Harness, table: string) => Number((await h.sql(`SELECT count(*) FROM ${table}`))[0]![0]);

describe("deleting takes the dependents along", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metadata });
  });
  after(() => h.close());

  test("through several levels: a department, its employees (a manager in its own table), their badges and notes; links and versions stay consistent", async () => {
    ok(await h.post(`${C}Project`, { id: 1 }), 201);
    ok(await h.post(`${C}Project`, { id: 2 }), 201);
    ok(
      await h.post(`${C}Dept`, {
        id: 1,
        name: "R&D",
        employees: [
          {
            id: 1,
            name: "Ada",
            badge: { id: 1, code: "A" },
            notes: [
              { id: 1, text: "n1" },
              { id: 2, text: "n2" },
            ],
            projects: [{ id: 1 }],
          },
          { class: "org.c.Manager", id: 2, name: "Bo", level: 3, badge: { id: 2, code: "B" }, projects: [{ id: 1 }, { id: 2 }] },
        ],
      }),
      201,
    );
    ok(await h.post(`${C}Dept`, { id: 2, name: "Ops", employees: [{ id: 3, name: "Cy", badge: { id: 3, code: "C" }, projects: [{ id: 2 }] }] }), 201);
    const v1 = (await h.get(`${C}Project/1`)).body.version ?? (await h.sql("SELECT VERSION FROM PROJECT WHERE ID = 1"))[0]![0];
    ok(await h.del(`${C}Dept/1`), 204);
    assert.deepEqual(await h.sql("SELECT ID FROM EMPLOYEE ORDER BY ID"), [[3]]);
    assert.equal(await count(h, "MANAGER"), 0);
    assert.deepEqual(await h.sql("SELECT ID FROM BADGE ORDER BY ID"), [[3]]);
    assert.equal(await count(h, "NOTE"), 0);
    assert.deepEqual(await h.sql("SELECT EMPLOYEE_ID, PROJECT_ID FROM EMPLOYEE_PROJECTS"), [[3, 2]]);
    assert.equal(await count(h, "extent_doomed"), 0, "the batch empties its doomed set");
    // Project 1 lost two members in one request: one version step.
    const [[v]] = (await h.sql("SELECT VERSION FROM PROJECT WHERE ID = 1")) as [[number]];
    assert.equal(Number(v), Number(v1) + 1);
    assert.deepEqual((await h.get(`${C}Project/1?fetchGroup=all`)).body.members ?? [], []);
  });

  test("through a cycle: a ring of nodes goes whole, from any of its nodes", async () => {
    ok(await h.post(`${C}Node`, { id: 10 }), 201);
    ok(await h.post(`${C}Node`, { id: 11, next: { id: 10 } }), 201);
    ok(await h.post(`${C}Node`, { id: 12, next: { id: 11 } }), 201);
    ok(await h.put(`${C}Node/10`, { next: { id: 12 } }), 200);
    ok(await h.post(`${C}Node`, { id: 20 }), 201);
    ok(await h.del(`${C}Node/11`), 204);
    assert.deepEqual(await h.sql("SELECT ID FROM NODE"), [[20]]);
  });

  test("DELETE of the extent takes the dependents of every object", async () => {
    ok(await h.post(`${C}Dept`, { id: 5, employees: [{ id: 50, badge: { id: 50 } }] }), 201);
    ok(await h.del(`${C}Dept`), 204);
    assert.equal(await count(h, "DEPT"), 0);
    assert.equal(await count(h, "EMPLOYEE"), 0);
    assert.equal(await count(h, "BADGE"), 0);
  });
});

describe("a PUT deletes what it releases from a dependent relation", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metadata });
    ok(
      await h.post(`${C}Dept`, {
        id: 1,
        employees: [
          { id: 1, badge: { id: 1 }, notes: [{ id: 1 }] },
          { id: 2, badge: { id: 2 }, notes: [{ id: 2 }] },
          { id: 3, badge: { id: 3 } },
        ],
      }),
      201,
    );
    ok(await h.post(`${C}Dept`, { id: 2 }), 201);
  });
  after(() => h.close());

  test("an element dropped from a dependent collection is deleted, with its own dependents", async () => {
    ok(await h.put(`${C}Dept/1`, { employees: [{ id: 1 }, { id: 3 }] }), 200);
    assert.deepEqual(await h.sql("SELECT ID FROM EMPLOYEE ORDER BY ID"), [[1], [3]]);
    assert.deepEqual(await h.sql("SELECT ID FROM BADGE ORDER BY ID"), [[1], [3]]);
    assert.deepEqual(await h.sql("SELECT ID FROM NOTE ORDER BY ID"), [[1]]);
    assert.equal(await count(h, "extent_doomed"), 0);
  });

  test("an element moved to another owner in the same request is not an orphan", async () => {
    ok(await h.put(`${C}Dept/1`, { employees: [{ id: 1 }] }), 200);
    // Employee 3 went (released from 1); now move 1 to department 2 through 2's collection.
    ok(await h.post(`${C}Employee`, { id: 4, dept: { id: 1 } }), 201);
    ok(await h.put(`${C}Dept/2`, { employees: [{ id: 4 }] }), 200);
    assert.deepEqual(await h.sql("SELECT id, dept FROM EMPLOYEE ORDER BY id"), [
      [1, 1],
      [4, 2],
    ]);
  });

  test("a dependent reference replaced: the former target is deleted; set to null: too", async () => {
    ok(await h.put(`${C}Employee/1`, { badge: { id: 9, code: "new" } }), 200);
    assert.deepEqual(await h.sql("SELECT ID FROM BADGE ORDER BY ID"), [[9]]);
    ok(await h.put(`${C}Employee/1`, { badge: null }), 200);
    assert.equal(await count(h, "BADGE"), 0);
  });
});

describe("required references refuse, and nothing is written", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metadata });
    ok(await h.post(`${C}Dept`, { id: 1, employees: [{ id: 1, badge: { id: 1 }, notes: [{ id: 1 }] }, { id: 2 }] }), 201);
    ok(await h.post(`${C}Ticket`, { id: 1, owner: { id: 1 } }), 201);
    ok(await h.post(`${C}Ticket`, { id: 2, owner: { id: 1 } }), 201);
  });
  after(() => h.close());

  for (const [what, method, path, body] of [
    ["deleting the referenced object", "DELETE", `${C}Employee/1`, undefined],
    ["deleting an object whose cascade reaches it", "DELETE", `${C}Dept/1`, undefined],
    ["DELETE of an extent whose cascade reaches it", "DELETE", `${C}Dept`, undefined],
    ["a PUT that releases it from a dependent collection", "PUT", `${C}Dept/1`, { employees: [{ id: 2 }] }],
  ] as const) {
    test(`${what}: 409 naming Ticket.owner and 2 objects; every table's digest unchanged`, async () => {
      const before = await databaseDigest(h.sql);
      const r = await h.call(method, path, body);
      ok(r, 409);
      assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
      assert.match(r.body.detail, /2 org\.c\.Ticket objects refer to an object it deletes through org\.c\.Ticket\.owner/);
      assert.deepEqual(
        r.body.errors.map((e: { path: string }) => e.path),
        ["org.c.Ticket.owner"],
      );
      assert.equal(await databaseDigest(h.sql), before);
    });
  }

  test("the note's required author is no obstacle: the cascade deletes the notes", async () => {
    ok(await h.del(`${C}Ticket`), 204);
    ok(await h.del(`${C}Employee/1`), 204);
    assert.equal(await count(h, "NOTE"), 0);
    assert.equal(await count(h, "BADGE"), 0);
  });
});

describe("round trips and statements do not grow with the dependents", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metadata });
  });
  after(() => h.close());

  async function cost(dept: number, employees: number) {
    const list = Array.from({ length: employees }, (_, i) => ({ id: dept * 10_000 + i, badge: { id: dept * 10_000 + i }, notes: [{ id: dept * 10_000 + i }] }));
    ok(await h.post(`${C}Dept`, { id: dept, employees: list }), 201);
    h.store.reset();
    ok(await h.del(`${C}Dept/${dept}`), 204);
    assert.equal(await count(h, "EMPLOYEE"), 0);
    assert.equal(await count(h, "BADGE"), 0);
    assert.equal(await count(h, "NOTE"), 0);
    return { roundTrips: h.store.roundTrips, statements: h.store.statements };
  }

  test("a cascading delete of 10 and of 1,000 dependents (each with a badge and a note): one round trip, the same statements", async () => {
    const ten = await cost(1, 10);
    const thousand = await cost(2, 1000);
    assert.equal(ten.roundTrips, 1);
    assert.deepEqual(thousand, ten);
  });
});

describe("access rules judge every object a cascade deletes", () => {
  const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
  const all = [{ role: "*" }];
  const rules = {
    default: "deny",
    classes: Object.fromEntries(
      ["Dept", "Employee", "Manager", "Note", "Ticket", "Project", "Node", "Labelled", "Badge"].map((c) => [
        `org.c.${c}`,
        { read: all, create: all, update: all, delete: c === "Badge" ? [{ role: "admin" }] : all },
      ]),
    ),
  };
  let h: Harness;
  let as: (who: string) => Record<string, string>;
  before(async () => {
    h = await startHarness({ metadata, access: { jwt: { secret: SECRET }, anonymousRole: "guest", rules } });
    const tokens = { admin: await hs256({ sub: "a", roles: ["admin"] }, SECRET), clerk: await hs256({ sub: "c", roles: ["clerk"] }, SECRET) };
    as = (who) => ({ authorization: `Bearer ${tokens[who as keyof typeof tokens]}` });
    ok(await h.call("POST", `${C}Dept`, { id: 1, employees: [{ id: 1, badge: { id: 1 } }] }, as("admin")), 201);
    ok(await h.call("POST", `${C}Dept`, { id: 2, employees: [{ id: 2 }] }, as("admin")), 201);
  });
  after(() => h.close());

  test("a principal that may not delete a dependent is refused (403), nothing written; one that may, deletes", async () => {
    const before = await databaseDigest(h.sql);
    ok(await h.call("DELETE", `${C}Dept/1`, undefined, as("clerk")), 403);
    ok(await h.call("DELETE", `${C}Dept`, undefined, as("clerk")), 403);
    ok(await h.call("PUT", `${C}Employee/1`, { badge: null }, as("clerk")), 403);
    assert.equal(await databaseDigest(h.sql), before);
    // Without a badge to delete, the clerk may.
    ok(await h.call("DELETE", `${C}Dept/2`, undefined, as("clerk")), 204);
    ok(await h.call("DELETE", `${C}Dept/1`, undefined, as("admin")), 204);
    assert.equal(await count(h, "BADGE"), 0);
  });
});
