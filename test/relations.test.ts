/**
 * Relations over HTTP (contract sections 3 to 5): N-1, 1-1 (uni- and bidirectional), 1-N with
 * mapped-by, 1-N with a join table (List order), M-N with a join table, nested objects with
 * identities, bidirectional consistency, DELETE releasing references, and POST of a whole
 * graph as one transaction. Model: test/models/relations/package.jdo.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startHarness, type Harness, type Reply } from "./support/harness.ts";

const MODEL = readFileSync(new URL("./models/relations/package.jdo", import.meta.url), "utf8");
const PKG = "org.test.rel";
const path = (cls: string, key?: unknown, query = "") =>
  `/${PKG}.${cls}${key === undefined ? "" : `/${encodeURIComponent(String(key))}`}${query ? `?${query}` : ""}`;
const ALL = "fetchGroup=all";

function start(): Promise<Harness> {
  return startHarness({ metadata: [{ source: "relations/package.jdo", text: MODEL }] });
}

async function count(h: Harness, table: string, where = "1=1", args: unknown[] = []): Promise<number> {
  const rows = await h.sql(`SELECT COUNT(*) FROM "${table}" WHERE ${where}`, args);
  return Number(rows[0]![0]);
}

async function column(h: Harness, table: string, col: string, keyCol: string, key: unknown): Promise<unknown> {
  const rows = await h.sql(`SELECT "${col}" FROM "${table}" WHERE "${keyCol}" = ?`, [key]);
  assert.equal(rows.length, 1, `one ${table} row with ${keyCol} = ${String(key)}`);
  const v = rows[0]![0];
  return typeof v === "bigint" ? Number(v) : v;
}

/** Asserts a status, showing the body when it differs. */
function expectStatus(r: Reply, status: number): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
}

async function created(h: Harness, cls: string, body: unknown): Promise<any> {
  const r = await h.post(path(cls), body);
  expectStatus(r, 201);
  return r.body;
}

async function getAll(h: Harness, cls: string, key: unknown): Promise<any> {
  const r = await h.get(path(cls, key, ALL));
  expectStatus(r, 200);
  return r.body;
}

const ids = (list: any[], key = "id") => list.map((o) => o[key]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const stub = (cls: string, key: Record<string, unknown>) => ({ class: `${PKG}.${cls}`, ...key });

function assertProblem(r: Reply, status: number): void {
  expectStatus(r, status);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(r.body.status, status);
}

let h: Harness;
before(async () => {
  h = await start();
});
after(() => h.close());

describe("N-1 (foreign key in the owner's table)", () => {
  test("POST with a new nested target creates it and stores its key in the fk column", async () => {
    const dept = await created(h, "Department", { name: "Sales", country: { code: "FR", name: "France" } });
    assert.deepEqual(dept.country, { class: `${PKG}.Country`, code: "FR", name: "France" });
    assert.equal(await count(h, "COUNTRY", "code = 'FR'"), 1);
    assert.equal(await column(h, "DEPARTMENT", "COUNTRY_CODE", "DEPT_ID", dept._id), "FR");
  });

  test("GET with fetchGroup=all nests the N-1 target", async () => {
    const dept = await created(h, "Department", { name: "Ops", country: { code: "IT", name: "Italy" } });
    const got = await getAll(h, "Department", dept._id);
    assert.deepEqual(got.country, { class: `${PKG}.Country`, code: "IT", name: "Italy" });
  });

  test("several owners referencing one target share it (no duplicate target)", async () => {
    await created(h, "Department", { name: "A", country: { code: "ES", name: "Spain" } });
    const b = await created(h, "Department", { name: "B", country: { code: "ES" } });
    assert.equal(await count(h, "COUNTRY", "code = 'ES'"), 1);
    assert.equal(await count(h, "DEPARTMENT", "COUNTRY_CODE = 'ES'"), 2);
    assert.equal((await getAll(h, "Department", b._id)).country.name, "Spain");
  });

  test("PUT null clears the N-1 reference and keeps the target", async () => {
    const dept = await created(h, "Department", { name: "C", country: { code: "PT", name: "Portugal" } });
    const r = await h.put(path("Department", dept._id), { country: null });
    expectStatus(r, 200);
    assert.equal(r.body.country, null);
    assert.equal(await column(h, "DEPARTMENT", "COUNTRY_CODE", "DEPT_ID", dept._id), null);
    assert.equal(await count(h, "COUNTRY", "code = 'PT'"), 1);
  });

  test("PUT replaces the N-1 reference with another existing object", async () => {
    await created(h, "Country", { code: "BE", name: "Belgium" });
    const dept = await created(h, "Department", { name: "D", country: { code: "NO", name: "Norway" } });
    const r = await h.put(path("Department", dept._id), { country: { code: "BE" } });
    expectStatus(r, 200);
    assert.deepEqual(r.body.country, { class: `${PKG}.Country`, code: "BE", name: "Belgium" });
    assert.equal(await column(h, "DEPARTMENT", "COUNTRY_CODE", "DEPT_ID", dept._id), "BE");
  });
});

describe("1-1 unidirectional", () => {
  test("POST with a nested new target stores it and links it", async () => {
    const emp = await created(h, "Employee", { name: "Una", passport: { number: "P-100", expires: 2030 } });
    assert.equal(await column(h, "PASSPORT", "expires", "number", "P-100"), 2030);
    assert.equal(await column(h, "EMPLOYEE", "PASSPORT_NO", "id", emp.id), "P-100");
  });

  test("GET with fetchGroup=all nests the target with its fields", async () => {
    const emp = await created(h, "Employee", { name: "Uno", passport: { number: "P-101", expires: 2031 } });
    const got = await getAll(h, "Employee", emp.id);
    assert.deepEqual(got.passport, { class: `${PKG}.Passport`, number: "P-101", expires: 2031 });
  });

  test("the target has no field pointing back", async () => {
    await created(h, "Employee", { name: "Uni", passport: { number: "P-102", expires: 2032 } });
    const got = await getAll(h, "Passport", "P-102");
    assert.deepEqual(got, { class: `${PKG}.Passport`, number: "P-102", expires: 2032 });
  });
});

describe("1-1 bidirectional (mapped-by on the inverse)", () => {
  test("POST from the owning side: the inverse side sees the owner", async () => {
    const emp = await created(h, "Employee", { name: "Bea", desk: { location: "B-1" } });
    const deskId = emp.desk.id;
    assert.equal(await column(h, "EMPLOYEE", "DESK_ID", "id", emp.id), deskId);
    const desk = await getAll(h, "Desk", deskId);
    assert.equal(desk.location, "B-1");
    assert.equal(desk.occupant.class, `${PKG}.Employee`);
    assert.equal(desk.occupant.id, emp.id);
    assert.equal(desk.occupant.name, "Bea");
  });

  test("POST from the inverse side writes the owner's foreign key", async () => {
    const desk = await created(h, "Desk", { location: "B-2", occupant: { name: "Ben" } });
    assert.equal(desk.occupant.name, "Ben");
    const empId = desk.occupant.id;
    assert.equal(await column(h, "EMPLOYEE", "DESK_ID", "id", empId), desk.id);
    const emp = await getAll(h, "Employee", empId);
    assert.equal(emp.desk.id, desk.id);
    assert.equal(emp.desk.location, "B-2");
  });

  test("setting the inverse side to another owner releases the previous owner", async () => {
    const first = await created(h, "Employee", { name: "First", desk: { location: "B-3" } });
    const second = await created(h, "Employee", { name: "Second" });
    const deskId = first.desk.id;
    const r = await h.put(path("Desk", deskId), { occupant: { id: second.id } });
    expectStatus(r, 200);
    assert.equal(r.body.occupant.id, second.id);
    assert.equal(await column(h, "EMPLOYEE", "DESK_ID", "id", second.id), deskId);
    assert.equal(await column(h, "EMPLOYEE", "DESK_ID", "id", first.id), null);
    assert.equal((await getAll(h, "Employee", first.id)).desk, null);
  });

  test("PUT null on the inverse side clears the owner's foreign key", async () => {
    const emp = await created(h, "Employee", { name: "Lone", desk: { location: "B-4" } });
    const r = await h.put(path("Desk", emp.desk.id), { occupant: null });
    expectStatus(r, 200);
    assert.equal(r.body.occupant, null);
    assert.equal(await column(h, "EMPLOYEE", "DESK_ID", "id", emp.id), null);
  });
});

describe("1-N with mapped-by", () => {
  test("POST of a parent with new children creates every child pointing at the parent", async () => {
    const dept = await created(h, "Department", { name: "R&D", employees: [{ name: "a" }, { name: "b" }, { name: "c" }] });
    assert.equal(dept.employees.length, 3);
    assert.equal(await count(h, "EMPLOYEE", "DEPT_ID = ?", [dept._id]), 3);
    for (const e of dept.employees) assert.equal(typeof e.id, "number");
  });

  test("GET with fetchGroup=all shows the children", async () => {
    const dept = await created(h, "Department", {
      name: "QA",
      employees: [
        { name: "q1", age: 31 },
        { name: "q2", age: 32 },
      ],
    });
    const got = await getAll(h, "Department", dept._id);
    assert.deepEqual(got.employees.map((e: any) => e.name).sort(), ["q1", "q2"]);
    for (const e of got.employees) {
      assert.equal(e.class, `${PKG}.Employee`);
      assert.deepEqual(e.department, stub("Department", { _id: dept._id }));
    }
  });

  test("GET of the extent with fetchGroup=all shows each parent's own children", async () => {
    const hx = await start();
    try {
      const d1 = await created(hx, "Department", { name: "one", employees: [{ name: "1a" }, { name: "1b" }] });
      const d2 = await created(hx, "Department", { name: "two", employees: [{ name: "2a" }] });
      await created(hx, "Department", { name: "none" });
      const r = await hx.get(path("Department", undefined, ALL));
      expectStatus(r, 200);
      const byName = Object.fromEntries(r.body.map((d: any) => [d.name, d]));
      assert.deepEqual(ids(byName.one.employees), ids(d1.employees));
      assert.deepEqual(ids(byName.two.employees), ids(d2.employees));
      assert.deepEqual(byName.none.employees, []);
    } finally {
      hx.close();
    }
  });

  test("each child's N-1 side names the parent", async () => {
    const dept = await created(h, "Department", { name: "Legal", employees: [{ name: "l1" }] });
    const emp = await getAll(h, "Employee", dept.employees[0].id);
    assert.equal(emp.department._id, dept._id);
    assert.equal(emp.department.name, "Legal");
  });

  test("PUT of the collection with a shorter list releases the removed children", async () => {
    const dept = await created(h, "Department", { name: "HR", employees: [{ name: "keep" }, { name: "drop1" }, { name: "drop2" }] });
    const keep = dept.employees.find((e: any) => e.name === "keep");
    const dropped = dept.employees.filter((e: any) => e.name !== "keep");
    const r = await h.put(path("Department", dept._id), { employees: [{ id: keep.id }] });
    expectStatus(r, 200);
    assert.deepEqual(ids(r.body.employees), [keep.id]);
    for (const d of dropped) {
      assert.equal(await column(h, "EMPLOYEE", "DEPT_ID", "id", d.id), null, "released child's fk is null");
      const emp = await getAll(h, "Employee", d.id);
      assert.equal(emp.department, null, "released child's back-reference is null");
      assert.equal(emp.name, d.name, "released child still exists");
    }
    assert.deepEqual(ids((await getAll(h, "Department", dept._id)).employees), [keep.id]);
  });

  test("PUT of the collection with an empty list releases every child", async () => {
    const dept = await created(h, "Department", { name: "Empty", employees: [{ name: "e1" }, { name: "e2" }] });
    const r = await h.put(path("Department", dept._id), { employees: [] });
    expectStatus(r, 200);
    assert.deepEqual(r.body.employees, []);
    assert.equal(await count(h, "EMPLOYEE", "DEPT_ID = ?", [dept._id]), 0);
    assert.equal(
      await count(
        h,
        "EMPLOYEE",
        "id IN (?, ?)",
        dept.employees.map((e: any) => e.id),
      ),
      2,
    );
  });

  test("PUT of the collection may add new and existing children", async () => {
    const dept = await created(h, "Department", { name: "Grow", employees: [{ name: "g1" }] });
    const other = await created(h, "Employee", { name: "g2" });
    const r = await h.put(path("Department", dept._id), { employees: [{ id: dept.employees[0].id }, { id: other.id }, { name: "g3" }] });
    expectStatus(r, 200);
    assert.deepEqual(r.body.employees.map((e: any) => e.name).sort(), ["g1", "g2", "g3"]);
    assert.equal(await count(h, "EMPLOYEE", "DEPT_ID = ?", [dept._id]), 3);
  });
});

describe("1-N with a join table (List)", () => {
  test("POST keeps the order of the list", async () => {
    const pl = await created(h, "Playlist", { name: "mix", tracks: [{ title: "c" }, { title: "a" }, { title: "b" }] });
    assert.deepEqual(
      pl.tracks.map((t: any) => t.title),
      ["c", "a", "b"],
    );
    const got = await getAll(h, "Playlist", pl._id);
    assert.deepEqual(
      got.tracks.map((t: any) => t.title),
      ["c", "a", "b"],
    );
    const rows = await h.sql(`SELECT TRACK_ID, POS FROM PLAYLIST_TRACKS WHERE PLAYLIST_ID = ? ORDER BY POS`, [pl._id]);
    assert.deepEqual(
      rows.map((r) => Number(r[0])),
      pl.tracks.map((t: any) => t._id),
    );
    assert.deepEqual(
      rows.map((r) => Number(r[1])),
      [0, 1, 2],
    );
  });

  test("order is kept when element keys are not ascending", async () => {
    const t1 = await created(h, "Track", { title: "one" });
    const t2 = await created(h, "Track", { title: "two" });
    const t3 = await created(h, "Track", { title: "three" });
    const pl = await created(h, "Playlist", { name: "reverse", tracks: [{ _id: t3._id }, { _id: t1._id }, { _id: t2._id }] });
    const got = await getAll(h, "Playlist", pl._id);
    assert.deepEqual(
      got.tracks.map((t: any) => t._id),
      [t3._id, t1._id, t2._id],
    );
    assert.deepEqual(
      got.tracks.map((t: any) => t.title),
      ["three", "one", "two"],
    );
  });

  test("PUT replaces the list, in the new order, and keeps the removed elements", async () => {
    const pl = await created(h, "Playlist", { name: "edit", tracks: [{ title: "x" }, { title: "y" }, { title: "z" }] });
    const [x, y, z] = pl.tracks;
    const r = await h.put(path("Playlist", pl._id), { tracks: [{ _id: z._id }, { _id: x._id }] });
    expectStatus(r, 200);
    assert.deepEqual(
      r.body.tracks.map((t: any) => t._id),
      [z._id, x._id],
    );
    assert.deepEqual(
      (await getAll(h, "Playlist", pl._id)).tracks.map((t: any) => t.title),
      ["z", "x"],
    );
    assert.equal(await count(h, "PLAYLIST_TRACKS", "PLAYLIST_ID = ?", [pl._id]), 2);
    assert.equal(await count(h, "TRACK", "TRACK_ID = ?", [y._id]), 1, "the removed element still exists");
  });

  test("the same element may be in two lists", async () => {
    const t = await created(h, "Track", { title: "shared" });
    const a = await created(h, "Playlist", { name: "A", tracks: [{ _id: t._id }] });
    const b = await created(h, "Playlist", { name: "B", tracks: [{ title: "first" }, { _id: t._id }] });
    assert.deepEqual(
      (await getAll(h, "Playlist", a._id)).tracks.map((x: any) => x.title),
      ["shared"],
    );
    assert.deepEqual(
      (await getAll(h, "Playlist", b._id)).tracks.map((x: any) => x.title),
      ["first", "shared"],
    );
  });
});

describe("M-N with a join table (owner) and mapped-by (inverse)", () => {
  test("POST from the owning side: both sides see each other", async () => {
    const emp = await created(h, "Employee", { name: "Max", projects: [{ title: "Apollo" }, { title: "Gemini" }] });
    assert.equal(emp.projects.length, 2);
    assert.equal(await count(h, "EMP_PROJ", "EMP_ID = ?", [emp.id]), 2);
    for (const p of emp.projects) {
      const project = await getAll(h, "Project", p.id);
      assert.deepEqual(ids(project.members), [emp.id]);
      assert.equal(project.members[0].name, "Max");
    }
    const got = await getAll(h, "Employee", emp.id);
    assert.deepEqual(got.projects.map((p: any) => p.title).sort(), ["Apollo", "Gemini"]);
  });

  test("two owners sharing an element: the element lists both", async () => {
    const a = await created(h, "Employee", { name: "Ada", projects: [{ title: "Shared" }] });
    const pid = a.projects[0].id;
    const b = await created(h, "Employee", { name: "Bob", projects: [{ id: pid }] });
    assert.equal(await count(h, "PROJECT", "title = 'Shared'"), 1);
    assert.deepEqual(ids((await getAll(h, "Project", pid)).members), ids([a, b]));
  });

  test("POST from the inverse side writes the join rows", async () => {
    const existing = await created(h, "Employee", { name: "Eve" });
    const project = await created(h, "Project", { title: "Inverse", members: [{ id: existing.id }, { name: "Neo" }] });
    assert.equal(project.members.length, 2);
    assert.equal(await count(h, "EMP_PROJ", "PROJ_ID = ?", [project.id]), 2);
    const eve = await getAll(h, "Employee", existing.id);
    assert.deepEqual(ids(eve.projects), [project.id]);
    const neo = project.members.find((m: any) => m.name === "Neo");
    assert.deepEqual(ids((await getAll(h, "Employee", neo.id)).projects), [project.id]);
  });

  test("PUT on the owning side replaces the set and the inverse follows", async () => {
    const emp = await created(h, "Employee", { name: "Ray", projects: [{ title: "Keep" }, { title: "Leave" }] });
    const keep = emp.projects.find((p: any) => p.title === "Keep");
    const leave = emp.projects.find((p: any) => p.title === "Leave");
    expectStatus(await h.put(path("Employee", emp.id), { projects: [{ id: keep.id }] }), 200);
    assert.deepEqual(ids((await getAll(h, "Project", leave.id)).members), []);
    assert.deepEqual(ids((await getAll(h, "Project", keep.id)).members), [emp.id]);
  });

  test("PUT on the inverse side replaces the members and the owners follow", async () => {
    const a = await created(h, "Employee", { name: "In", projects: [{ title: "Swap" }] });
    const b = await created(h, "Employee", { name: "Out" });
    const pid = a.projects[0].id;
    const r = await h.put(path("Project", pid), { members: [{ id: b.id }] });
    expectStatus(r, 200);
    assert.deepEqual(ids(r.body.members), [b.id]);
    assert.deepEqual(ids((await getAll(h, "Employee", a.id)).projects), []);
    assert.deepEqual(ids((await getAll(h, "Employee", b.id)).projects), [pid]);
  });

  test("PUT on the inverse side leaves the owners' other elements alone", async () => {
    const emp = await created(h, "Employee", { name: "Multi", projects: [{ title: "P1" }, { title: "P2" }] });
    const p1 = emp.projects.find((p: any) => p.title === "P1");
    const p2 = emp.projects.find((p: any) => p.title === "P2");
    expectStatus(await h.put(path("Project", p1.id), { members: [{ id: emp.id }, { name: "Newcomer" }] }), 200);
    assert.deepEqual(ids((await getAll(h, "Employee", emp.id)).projects), ids([p1, p2]));
  });
});

describe("nested objects with an identity", () => {
  test("a nested object whose datastore identity exists is linked, not duplicated", async () => {
    const dept = await created(h, "Department", { name: "Linked" });
    const before = await count(h, "DEPARTMENT");
    const emp = await created(h, "Employee", { name: "Link", department: { _id: dept._id } });
    assert.equal(await count(h, "DEPARTMENT"), before);
    assert.equal(await column(h, "EMPLOYEE", "DEPT_ID", "id", emp.id), dept._id);
    assert.equal(emp.department._id, dept._id);
    assert.equal(emp.department.name, "Linked");
  });

  test("a linked object's other fields, when given, are applied to it", async () => {
    const dept = await created(h, "Department", { name: "Old name" });
    const emp = await created(h, "Employee", { name: "Renamer", department: { _id: dept._id, name: "New name" } });
    assert.equal(emp.department.name, "New name");
    assert.equal((await getAll(h, "Department", dept._id)).name, "New name");
    assert.equal(await count(h, "DEPARTMENT", "name IN ('Old name', 'New name')"), 1);
  });

  test("a linked object with an application identity gets its other fields applied", async () => {
    await created(h, "Passport", { number: "P-EX", expires: 2030 });
    const emp = await created(h, "Employee", { name: "Renew", passport: { number: "P-EX", expires: 2040 } });
    assert.equal(emp.passport.expires, 2040);
    assert.equal(await count(h, "PASSPORT", "number = 'P-EX'"), 1);
    assert.equal(await column(h, "PASSPORT", "expires", "number", "P-EX"), 2040);
  });

  test("a linked object given with its identity only keeps its fields", async () => {
    await created(h, "Passport", { number: "P-KEEP", expires: 2035 });
    await created(h, "Employee", { name: "Keeper", passport: { number: "P-KEEP" } });
    assert.equal(await column(h, "PASSPORT", "expires", "number", "P-KEEP"), 2035);
  });

  test("linked elements of a collection get their other fields applied", async () => {
    const dept = await created(h, "Department", { name: "Apply", employees: [{ name: "before", age: 20 }] });
    const e = dept.employees[0];
    const r = await h.put(path("Department", dept._id), { employees: [{ id: e.id, name: "after" }] });
    expectStatus(r, 200);
    const emp = await getAll(h, "Employee", e.id);
    assert.equal(emp.name, "after");
    assert.equal(emp.age, 20, "fields not given are left as they are");
  });

  test("a nested object with an application identity that does not exist is created with it", async () => {
    const emp = await created(h, "Employee", { name: "Newbie", passport: { number: "NEW-7", expires: 2031 } });
    assert.deepEqual(emp.passport, { class: `${PKG}.Passport`, number: "NEW-7", expires: 2031 });
    assert.equal(await column(h, "PASSPORT", "expires", "number", "NEW-7"), 2031);
  });

  test("a nested object with a given generated-strategy key that does not exist is created with that key", async () => {
    const emp = await created(h, "Employee", { name: "FarAway", desk: { id: 7777, location: "far" } });
    assert.equal(emp.desk.id, 7777);
    assert.equal(await column(h, "DESK", "location", "id", 7777), "far");
    const next = await created(h, "Desk", { location: "after" });
    assert.notEqual(next.id, 7777, "later generated keys do not collide with the given one");
  });

  test("a nested object with an _id that does not exist → 422, nothing stored", async () => {
    const before = await count(h, "EMPLOYEE");
    const r = await h.post(path("Employee"), { name: "Ghost", department: { _id: 987654 } });
    assertProblem(r, 422);
    assert.ok(Array.isArray(r.body.errors), "errors list");
    assert.ok(
      r.body.errors.some((e: any) => String(e.path).startsWith("/department")),
      `an error at /department: ${r.text}`,
    );
    assert.equal(await count(h, "EMPLOYEE"), before);
    assert.equal(await count(h, "DEPARTMENT", "DEPT_ID = 987654"), 0);
  });

  test("an _id that does not exist inside a collection → 422 with the element's path", async () => {
    const pl = await created(h, "Playlist", { name: "guarded", tracks: [{ title: "only" }] });
    const r = await h.put(path("Playlist", pl._id), { tracks: [{ title: "new" }, { _id: 55555 }] });
    assertProblem(r, 422);
    assert.ok(
      r.body.errors.some((e: any) => String(e.path).startsWith("/tracks/1")),
      `an error at /tracks/1: ${r.text}`,
    );
    assert.deepEqual(
      (await getAll(h, "Playlist", pl._id)).tracks.map((t: any) => t.title),
      ["only"],
    );
    assert.equal(await count(h, "TRACK", "title = 'new'"), 0);
  });
});

describe("bidirectional consistency", () => {
  test("setting the N-1 side makes the parent's collection show the child", async () => {
    const d1 = await created(h, "Department", { name: "From", employees: [{ name: "mover" }] });
    const d2 = await created(h, "Department", { name: "To" });
    const mover = d1.employees[0];
    const r = await h.put(path("Employee", mover.id), { department: { _id: d2._id } });
    expectStatus(r, 200);
    assert.equal(r.body.department._id, d2._id);
    assert.deepEqual(ids((await getAll(h, "Department", d2._id)).employees), [mover.id]);
    assert.deepEqual(ids((await getAll(h, "Department", d1._id)).employees), []);
  });

  test("the PUT response already shows the parent's collection with the child", async () => {
    const dept = await created(h, "Department", { name: "Echo" });
    const emp = await created(h, "Employee", { name: "echo" });
    const r = await h.put(path("Employee", emp.id), { department: { _id: dept._id } });
    expectStatus(r, 200);
    assert.deepEqual(r.body.department.employees, [stub("Employee", { id: emp.id })]);
  });

  test("setting the owning side of a 1-1 makes the inverse side show the new owner only", async () => {
    const e1 = await created(h, "Employee", { name: "holder", desk: { location: "C-1" } });
    const e2 = await created(h, "Employee", { name: "taker" });
    const deskId = e1.desk.id;
    expectStatus(await h.put(path("Employee", e2.id), { desk: { id: deskId } }), 200);
    const desk = await getAll(h, "Desk", deskId);
    assert.equal(desk.occupant?.id, e2.id, "the desk's occupant is the new owner");
    assert.equal((await getAll(h, "Employee", e1.id)).desk, null, "the previous owner no longer points at the desk");
  });

  test("setting the collection makes the child's reference point at the parent", async () => {
    const d1 = await created(h, "Department", { name: "Old home", employees: [{ name: "adoptee" }] });
    const d2 = await created(h, "Department", { name: "New home" });
    const adoptee = d1.employees[0];
    expectStatus(await h.put(path("Department", d2._id), { employees: [{ id: adoptee.id }] }), 200);
    const emp = await getAll(h, "Employee", adoptee.id);
    assert.equal(emp.department._id, d2._id);
    assert.deepEqual(ids((await getAll(h, "Department", d1._id)).employees), []);
  });

  test("a child POSTed with its N-1 reference appears in the parent's collection", async () => {
    const dept = await created(h, "Department", { name: "Gather", employees: [{ name: "g-first" }] });
    const emp = await created(h, "Employee", { name: "g-second", department: { _id: dept._id } });
    assert.deepEqual(ids((await getAll(h, "Department", dept._id)).employees), ids([dept.employees[0], emp]));
  });
});

describe("DELETE releases references to the deleted object", () => {
  test("deleting an N-1 target sets the owners' foreign keys to null", async () => {
    const dept = await created(h, "Department", { name: "Stateless", country: { code: "ZZ", name: "Gone" } });
    expectStatus(await h.del(path("Country", "ZZ")), 204);
    assert.equal(await column(h, "DEPARTMENT", "COUNTRY_CODE", "DEPT_ID", dept._id), null);
    assert.equal((await getAll(h, "Department", dept._id)).country, null);
  });

  test("deleting a 1-N parent releases its children (their back-reference becomes null)", async () => {
    const dept = await created(h, "Department", { name: "Closing", employees: [{ name: "c1" }, { name: "c2" }] });
    expectStatus(await h.del(path("Department", dept._id)), 204);
    for (const e of dept.employees) {
      assert.equal(await column(h, "EMPLOYEE", "DEPT_ID", "id", e.id), null);
      assert.equal((await getAll(h, "Employee", e.id)).department, null);
    }
  });

  test("deleting a 1-N child removes it from the parent's collection", async () => {
    const dept = await created(h, "Department", { name: "Shrink", employees: [{ name: "s1" }, { name: "s2" }] });
    const [s1, s2] = dept.employees;
    expectStatus(await h.del(path("Employee", s1.id)), 204);
    assert.deepEqual(ids((await getAll(h, "Department", dept._id)).employees), [s2.id]);
  });

  test("deleting an M-N element removes its join rows", async () => {
    const emp = await created(h, "Employee", { name: "Orphan", projects: [{ title: "Doomed" }, { title: "Fine" }] });
    const doomed = emp.projects.find((p: any) => p.title === "Doomed");
    expectStatus(await h.del(path("Project", doomed.id)), 204);
    assert.equal(await count(h, "EMP_PROJ", "PROJ_ID = ?", [doomed.id]), 0);
    assert.deepEqual(
      (await getAll(h, "Employee", emp.id)).projects.map((p: any) => p.title),
      ["Fine"],
    );
  });

  test("deleting an M-N owner removes its join rows", async () => {
    const a = await created(h, "Employee", { name: "Leaver", projects: [{ title: "Team" }] });
    const pid = a.projects[0].id;
    const b = await created(h, "Employee", { name: "Stayer", projects: [{ id: pid }] });
    expectStatus(await h.del(path("Employee", a.id)), 204);
    assert.equal(await count(h, "EMP_PROJ", "EMP_ID = ?", [a.id]), 0);
    assert.deepEqual(ids((await getAll(h, "Project", pid)).members), [b.id]);
  });

  test("deleting a List element removes its join row and keeps the others in order", async () => {
    const pl = await created(h, "Playlist", { name: "gap", tracks: [{ title: "t1" }, { title: "t2" }, { title: "t3" }] });
    expectStatus(await h.del(path("Track", pl.tracks[1]._id)), 204);
    assert.equal(await count(h, "PLAYLIST_TRACKS", "TRACK_ID = ?", [pl.tracks[1]._id]), 0);
    assert.deepEqual(
      (await getAll(h, "Playlist", pl._id)).tracks.map((t: any) => t.title),
      ["t1", "t3"],
    );
  });

  test("deleting a List owner removes its join rows and keeps the elements", async () => {
    const pl = await created(h, "Playlist", { name: "bye", tracks: [{ title: "survivor" }] });
    expectStatus(await h.del(path("Playlist", pl._id)), 204);
    assert.equal(await count(h, "PLAYLIST_TRACKS", "PLAYLIST_ID = ?", [pl._id]), 0);
    assert.equal(await count(h, "TRACK", "TRACK_ID = ?", [pl.tracks[0]._id]), 1);
  });

  test("deleting the owner of a 1-1 bidirectional relation leaves the inverse side empty", async () => {
    const emp = await created(h, "Employee", { name: "Quitter", desk: { location: "Q-1" } });
    expectStatus(await h.del(path("Employee", emp.id)), 204);
    const desk = await getAll(h, "Desk", emp.desk.id);
    assert.equal(desk.occupant, null);
  });

  test("deleting the target of a 1-1 sets the owner's foreign key to null", async () => {
    const emp = await created(h, "Employee", { name: "Deskless", desk: { location: "Q-2" }, passport: { number: "P-DEL", expires: 1 } });
    expectStatus(await h.del(path("Desk", emp.desk.id)), 204);
    expectStatus(await h.del(path("Passport", "P-DEL")), 204);
    assert.equal(await column(h, "EMPLOYEE", "DESK_ID", "id", emp.id), null);
    assert.equal(await column(h, "EMPLOYEE", "PASSPORT_NO", "id", emp.id), null);
    const got = await getAll(h, "Employee", emp.id);
    assert.equal(got.desk, null);
    assert.equal(got.passport, null);
  });

  test("DELETE of a whole extent releases references to every deleted object", async () => {
    const hx = await start();
    try {
      const emp = await created(hx, "Employee", { name: "Kept", projects: [{ title: "p" }], department: { name: "d" }, desk: { location: "l" } });
      expectStatus(await hx.del(path("Project")), 204);
      expectStatus(await hx.del(path("Department")), 204);
      expectStatus(await hx.del(path("Desk")), 204);
      assert.equal(await count(hx, "EMP_PROJ"), 0);
      const got = await getAll(hx, "Employee", emp.id);
      assert.deepEqual(got.projects, []);
      assert.equal(got.department, null);
      assert.equal(got.desk, null);
    } finally {
      hx.close();
    }
  });
});

describe("POST of a whole graph is one transaction", () => {
  const tables = ["DEPARTMENT", "EMPLOYEE", "PROJECT", "EMP_PROJ", "COUNTRY", "DESK", "PASSPORT"];
  const snapshot = async (hx: Harness) => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(hx, t)] as const)));

  test("a bad value deep in the graph → 422 with its path, and nothing is stored", async () => {
    const before = await snapshot(h);
    const r = await h.post(path("Department"), {
      name: "Atomic",
      country: { code: "NL", name: "Netherlands" },
      employees: [
        { name: "ok", desk: { location: "A-1" }, projects: [{ title: "fine" }] },
        { name: "bad", passport: { number: "P-ATOM" }, projects: [{ title: "fine too" }, { title: 42 }] },
      ],
    });
    assertProblem(r, 422);
    assert.ok(
      r.body.errors.some((e: any) => e.path === "/employees/1/projects/1/title"),
      `error at /employees/1/projects/1/title: ${r.text}`,
    );
    assert.deepEqual(await snapshot(h), before);
  });

  test("every bad value of the graph is reported with its own path", async () => {
    const before = await snapshot(h);
    const r = await h.post(path("Department"), {
      name: 5,
      employees: [
        { name: "x", age: "old" },
        { name: "y", bogus: true },
      ],
    });
    assertProblem(r, 422);
    const paths = r.body.errors.map((e: any) => e.path).sort();
    assert.deepEqual(paths, ["/employees/0/age", "/employees/1/bogus", "/name"]);
    assert.deepEqual(await snapshot(h), before);
  });

  test("an unknown _id deep in the graph → 422, and nothing is stored", async () => {
    const before = await snapshot(h);
    const r = await h.post(path("Employee"), {
      name: "Deep",
      desk: { location: "D-1" },
      projects: [{ title: "new", members: [{ name: "other", department: { _id: 424242 } }] }],
    });
    assertProblem(r, 422);
    assert.ok(
      r.body.errors.some((e: any) => String(e.path).startsWith("/projects/0/members/0/department")),
      r.text,
    );
    assert.deepEqual(await snapshot(h), before);
  });

  test("a valid graph is stored whole: every object and link", async () => {
    const hx = await start();
    try {
      const r = await hx.post(path("Department"), {
        name: "Whole",
        country: { code: "SE", name: "Sweden" },
        employees: [
          { name: "w1", desk: { location: "W-1" }, passport: { number: "P-W1" }, projects: [{ title: "alpha" }] },
          { name: "w2", projects: [{ title: "beta" }] },
        ],
      });
      expectStatus(r, 201);
      assert.deepEqual(await snapshot(hx), { DEPARTMENT: 1, EMPLOYEE: 2, PROJECT: 2, EMP_PROJ: 2, COUNTRY: 1, DESK: 1, PASSPORT: 1 });
    } finally {
      hx.close();
    }
  });
});
