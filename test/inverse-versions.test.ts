/**
 * Version steps through relations (issue 16, item 4): an object whose JSON changes because of a
 * write on the other side of a relation (a join-table row added or removed, a reference to it set
 * or cleared, a referenced object deleted) takes one version step in the same batch, so a client
 * holding its old ETag sees it changed: `If-None-Match` with the old tag is 200 (not 304), a PUT
 * with the old `If-Match` is 412 and loses nothing. An object whose JSON does not change keeps its
 * version; one the request both writes and relinks steps once. The step statements are one per
 * versioned table, however many objects they step. Model: test/models/versions/package.jdo.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { databaseDigest } from "./support/digest.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";
import { RecordingStore } from "./support/recording-store.ts";

const MODEL = readFileSync(new URL("./models/versions/package.jdo", import.meta.url), "utf8");
const P = "org.test.ver";
const at = (cls: string, key?: unknown) => `/${P}.${cls}${key === undefined ? "" : `/${encodeURIComponent(String(key))}`}`;

let h: Harness;
let recorder: RecordingStore;
before(async () => {
  h = await startHarness({ metadata: [{ source: "versions/package.jdo", text: MODEL }] }, {}, { wrapStore: (s) => (recorder = new RecordingStore(s)) });
});
after(() => h.close());

async function created(cls: string, body: unknown): Promise<any> {
  const r = await h.post(at(cls), body);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

function ok(r: Reply, status = 200): Reply {
  assert.equal(r.status, status, r.text.slice(0, 500));
  return r;
}

/**
 * Runs `change` and checks that each object at `steps` took exactly one version step, seen by
 * conditional requests with its old tag (GET and HEAD with If-None-Match: 200 with the new ETag;
 * PUT with If-Match: 412, changing nothing), and that each object at `stays` kept its version.
 */
async function expectSteps(change: () => Promise<Reply>, status: number, steps: string[], stays: string[] = []): Promise<void> {
  const tags = new Map<string, string>();
  for (const path of [...steps, ...stays]) {
    const r = ok(await h.get(path));
    tags.set(path, r.headers.get("etag")!);
    assert.match(tags.get(path)!, /^"\d+"$/);
  }
  ok(await change(), status);
  for (const path of steps) {
    const old = tags.get(path)!;
    const next = `"${Number(old.slice(1, -1)) + 1}"`;
    const read = await h.call("GET", path, undefined, { "if-none-match": old });
    assert.equal(read.status, 200, `${path}: If-None-Match ${old} after the change answered ${read.status}: its version did not step`);
    assert.equal(read.headers.get("etag"), next, `${path}: one step from ${old}`);
    assert.equal((await h.call("HEAD", path, undefined, { "if-none-match": old })).status, 200, `${path}: HEAD`);
    const before = await databaseDigest(h.sql);
    const stale = await h.call("PUT", path, {}, { "if-match": old });
    assert.equal(stale.status, 412, `${path}: a PUT with the old If-Match ${old} answered ${stale.status}: a lost update`);
    assert.equal(await databaseDigest(h.sql), before);
  }
  for (const path of stays) {
    const r = await h.call("GET", path, undefined, { "if-none-match": tags.get(path)! });
    assert.equal(r.status, 304, `${path}: its JSON did not change, so its version must not step (${tags.get(path)} → ${r.headers.get("etag")})`);
  }
}

describe("M-N join table (Employee.projects / Project.members)", () => {
  test("the issue's scenario: PUT an employee's projects steps the project; a stale If-Match on it is 412; deleting the employee steps it again", async () => {
    const project = await created("Project", { title: "Apollo" });
    const employee = await created("Employee", { name: "Ann" });
    const projectPath = at("Project", project.id);
    const old = ok(await h.get(projectPath)).headers.get("etag")!;
    ok(await h.put(at("Employee", employee.id), { projects: [{ id: project.id }] }));
    assert.equal((await h.call("GET", projectPath, undefined, { "if-none-match": old })).status, 200, "If-None-Match with the old tag must not be 304");
    const lost = await h.call("PUT", projectPath, { title: "Apollo 2", members: [] }, { "if-match": old });
    assert.equal(lost.status, 412, "a PUT with the old If-Match would drop the new member");
    assert.deepEqual(
      ok(await h.get(`${projectPath}?fetchGroup=all`)).body.members.map((m: any) => m.id),
      [employee.id],
    );
    await expectSteps(async () => h.del(at("Employee", employee.id)), 204, [projectPath]);
    assert.deepEqual(ok(await h.get(`${projectPath}?fetchGroup=all`)).body.members, []);
  });

  test("adding, removing and replacing projects step exactly the projects that gained or lost the employee", async () => {
    const [a, b, c] = [await created("Project", { title: "a" }), await created("Project", { title: "b" }), await created("Project", { title: "c" })];
    const e = await created("Employee", { name: "Bo", projects: [{ id: a.id }, { id: b.id }] });
    const E = at("Employee", e.id);
    // b stays, a leaves, c joins.
    await expectSteps(
      async () => h.put(E, { projects: [{ id: b.id }, { id: c.id }] }),
      200,
      [E, at("Project", a.id), at("Project", c.id)],
      [at("Project", b.id)],
    );
    // The same set again: only the employee (written) steps.
    await expectSteps(
      async () => h.put(E, { projects: [{ id: c.id }, { id: b.id }] }),
      200,
      [E],
      [at("Project", a.id), at("Project", b.id), at("Project", c.id)],
    );
    // A project written and joined in one request steps once.
    await expectSteps(async () => h.put(E, { projects: [{ id: a.id, title: "a2" }] }), 200, [E, at("Project", a.id), at("Project", b.id), at("Project", c.id)]);
    await expectSteps(async () => h.put(E, { projects: [] }), 200, [E, at("Project", a.id)], [at("Project", b.id), at("Project", c.id)]);
  });

  test("a new employee steps the existing projects it joins; a new project starts at version 1", async () => {
    const p = await created("Project", { title: "old" });
    let fresh: any;
    await expectSteps(
      async () => {
        const r = await h.post(`${at("Employee")}?fetchGroup=all`, { name: "New", projects: [{ id: p.id }, { title: "brand new" }] });
        fresh = r.body;
        return r;
      },
      201,
      [at("Project", p.id)],
    );
    const newProject = fresh.projects.find((x: any) => x.title === "brand new");
    assert.equal(newProject._version, 1);
    assert.equal(fresh._version, 1);
  });

  test("from the other side: PUT a project's members steps the employees that joined or left; deleting the project steps its members", async () => {
    const [x, y, z] = [await created("Employee", { name: "x" }), await created("Employee", { name: "y" }), await created("Employee", { name: "z" })];
    const p = await created("Project", { title: "p" });
    const Pp = at("Project", p.id);
    await expectSteps(
      async () => h.put(Pp, { members: [{ id: x.id }, { id: y.id }] }),
      200,
      [Pp, at("Employee", x.id), at("Employee", y.id)],
      [at("Employee", z.id)],
    );
    await expectSteps(
      async () => h.put(Pp, { members: [{ id: y.id }, { id: z.id }] }),
      200,
      [Pp, at("Employee", x.id), at("Employee", z.id)],
      [at("Employee", y.id)],
    );
    await expectSteps(async () => h.del(Pp), 204, [at("Employee", y.id), at("Employee", z.id)], [at("Employee", x.id)]);
  });

  test("deleting the employee extent steps every project that had a member", async () => {
    const p = await created("Project", { title: "kept" });
    const q = await created("Project", { title: "alone" });
    await created("Employee", { name: "gone", projects: [{ id: p.id }] });
    await expectSteps(async () => h.del(at("Employee")), 204, [at("Project", p.id)], [at("Project", q.id)]);
  });
});

describe("1-N mapped-by (Department.employees / Employee.department)", () => {
  test("moving an employee steps the department it left and the one it joined; other writes step neither", async () => {
    const [d1, d2] = [await created("Department", { name: "d1" }), await created("Department", { name: "d2" })];
    const e = await created("Employee", { name: "mover", department: { _id: d1._id } });
    const E = at("Employee", e.id);
    const D1 = at("Department", d1._id);
    const D2 = at("Department", d2._id);
    await expectSteps(async () => h.put(E, { department: { _id: d2._id } }), 200, [E, D1, D2]);
    await expectSteps(async () => h.put(E, { name: "renamed", department: { _id: d2._id } }), 200, [E], [D1, D2]);
    await expectSteps(async () => h.put(E, { department: null }), 200, [E, D2], [D1]);
  });

  test("PUT of a department's employees steps the employees that joined or left and the departments they came from", async () => {
    const [d1, d2] = [await created("Department", { name: "d1" }), await created("Department", { name: "d2" })];
    const stay = await created("Employee", { name: "stay", department: { _id: d1._id } });
    const leave = await created("Employee", { name: "leave", department: { _id: d1._id } });
    const come = await created("Employee", { name: "come", department: { _id: d2._id } });
    const D1 = at("Department", d1._id);
    await expectSteps(async () => h.put(D1, { employees: [{ id: stay.id }, { id: come.id }] }), 200, [
      D1,
      at("Department", d2._id),
      at("Employee", leave.id),
      at("Employee", come.id),
    ]);
  });

  test("deleting an employee steps its department; deleting a department steps its employees", async () => {
    const d = await created("Department", { name: "d" });
    const [a, b] = [await created("Employee", { name: "a", department: { _id: d._id } }), await created("Employee", { name: "b", department: { _id: d._id } })];
    const D = at("Department", d._id);
    await expectSteps(async () => h.del(at("Employee", a.id)), 204, [D]);
    await expectSteps(async () => h.del(D), 204, [at("Employee", b.id)]);
  });
});

describe("1-1 (Employee.desk / Desk.occupant), also in a subclass table (Manager.parking / Parking.holder)", () => {
  test("taking a desk steps the desk, the desk left behind, and the employee it was taken from", async () => {
    const [k0, k] = [await created("Desk", { location: "k0" }), await created("Desk", { location: "k" })];
    const a = await created("Employee", { name: "a", desk: { id: k0.id } });
    const b = await created("Employee", { name: "b", desk: { id: k.id } });
    const bystander = await created("Desk", { location: "free" });
    await expectSteps(
      async () => h.put(at("Employee", a.id), { desk: { id: k.id } }),
      200,
      [at("Employee", a.id), at("Desk", k0.id), at("Desk", k.id), at("Employee", b.id)],
      [at("Desk", bystander.id)],
    );
    assert.equal(ok(await h.get(at("Employee", b.id))).body.desk, null);
    await expectSteps(async () => h.del(at("Employee", a.id)), 204, [at("Desk", k.id)]);
  });

  test("from the desk's side: a new occupant steps itself, the desk it left, and the occupant it displaced", async () => {
    const [k0, k] = [await created("Desk", { location: "k0" }), await created("Desk", { location: "k" })];
    const a = await created("Employee", { name: "a", desk: { id: k0.id } });
    const b = await created("Employee", { name: "b", desk: { id: k.id } });
    await expectSteps(async () => h.put(at("Desk", k.id), { occupant: { id: a.id } }), 200, [
      at("Desk", k.id),
      at("Employee", a.id),
      at("Desk", k0.id),
      at("Employee", b.id),
    ]);
    assert.equal(ok(await h.get(at("Employee", a.id))).body.desk.id, k.id);
    assert.equal(ok(await h.get(at("Employee", b.id))).body.desk, null);
    await expectSteps(async () => h.del(at("Desk", k.id)), 204, [at("Employee", a.id)], [at("Employee", b.id)]);
  });

  test("a reference held in a subclass table: setting it steps the target; deleting either side steps the other", async () => {
    const [p1, p2] = [await created("Parking", { id: 1 }), await created("Parking", { id: 2 })];
    const m = await created("Manager", { name: "m", parking: { id: p1.id } });
    const M = at("Manager", m.id);
    await expectSteps(async () => h.put(M, { parking: { id: p2.id } }), 200, [M, at("Parking", 1), at("Parking", 2)]);
    await expectSteps(async () => h.del(at("Parking", 2)), 204, [M]);
    ok(await h.put(M, { parking: { id: p1.id } }));
    await expectSteps(async () => h.del(M), 204, [at("Parking", 1)]);
  });
});

describe("M-N join table, List (Playlist.tracks / Track.playlists)", () => {
  test("tracks that join or leave a playlist step; a reordering steps the playlist only", async () => {
    const [t1, t2, t3] = [await created("Track", { title: "1" }), await created("Track", { title: "2" }), await created("Track", { title: "3" })];
    const pl = await created("Playlist", { name: "mix", tracks: [{ _id: t1._id }, { _id: t2._id }] });
    const PL = at("Playlist", pl._id);
    const T = (t: any) => at("Track", t._id);
    await expectSteps(async () => h.put(PL, { tracks: [{ _id: t2._id }, { _id: t1._id }] }), 200, [PL], [T(t1), T(t2), T(t3)]);
    await expectSteps(async () => h.put(PL, { tracks: [{ _id: t2._id }, { _id: t3._id }, { _id: t3._id }] }), 200, [PL, T(t1), T(t3)], [T(t2)]);
    await expectSteps(async () => h.put(T(t2), { playlists: [] }), 200, [T(t2), PL]);
    await expectSteps(async () => h.del(T(t3)), 204, [PL]);
    ok(await h.put(PL, { tracks: [{ _id: t1._id }] }));
    await expectSteps(async () => h.del(PL), 204, [T(t1)], [T(t2)]);
  });
});

describe("the step statements", () => {
  test("are one UPDATE per versioned table, however many objects they step", async () => {
    const steps = async (size: number): Promise<number> => {
      const projects = [];
      for (let i = 0; i < size; i++) projects.push((await created("Project", { title: `s${i}` })).id);
      const d = await created("Department", { name: `d${size}` });
      const e = await created("Employee", { name: "many", projects: projects.slice(0, 1).map((id) => ({ id })) });
      recorder.clear();
      ok(await h.put(at("Employee", e.id), { department: { _id: d._id }, projects: projects.map((id) => ({ id })) }));
      const writes = recorder.take().filter((s) => s.mode === "write");
      return writes.filter((s) => /^update .* \+ 1 where/i.test(s.sql)).length;
    };
    const few = await steps(2);
    const many = await steps(40);
    assert.equal(few, 3, "Employee, Project and Department: one step statement each");
    assert.equal(many, few);
  });
});
