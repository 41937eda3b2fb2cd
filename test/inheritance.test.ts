/**
 * Inheritance over HTTP (contract sections 3 to 5), one hierarchy per JDO strategy:
 * new-table (with a class-name discriminator), superclass-table (value-map discriminator),
 * subclass-table (abstract root without a table) and complete-table.
 * Model: test/models/inheritance/package.jdo.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startHarness, type Harness, type Reply } from "./support/harness.ts";

const MODEL = readFileSync(new URL("./models/inheritance/package.jdo", import.meta.url), "utf8");
const PKG = "org.test.inh";
const cls = (name: string) => `${PKG}.${name}`;
const path = (c: string, key?: unknown, query = "") =>
  `/${PKG}.${c}${key === undefined ? "" : `/${encodeURIComponent(String(key))}`}${query ? `?${query}` : ""}`;

function start(): Promise<Harness> {
  return startHarness({ metadata: [{ source: "inheritance/package.jdo", text: MODEL }] });
}

/** Runs `body` against a fresh database (tests that look at whole extents). */
async function fresh(body: (h: Harness) => Promise<void>): Promise<void> {
  const h = await start();
  try {
    await body(h);
  } finally {
    h.close();
  }
}

function expectStatus(r: Reply, status: number): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${r.text}`);
}

async function created(h: Harness, c: string, body: unknown): Promise<any> {
  const r = await h.post(path(c), body);
  expectStatus(r, 201);
  return r.body;
}

async function rows(h: Harness, sql: string, args: unknown[] = []): Promise<unknown[][]> {
  return (await h.sql(sql, args)).map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)));
}

async function count(h: Harness, table: string, where = "1=1", args: unknown[] = []): Promise<number> {
  return Number((await h.sql(`SELECT COUNT(*) FROM "${table}" WHERE ${where}`, args))[0]![0]);
}

function byKey(list: any[], key: string): any[] {
  return [...list].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));
}

function assertProblem(r: Reply, status: number): void {
  expectStatus(r, status);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
}

// ---------------------------------------------------------------------------------------------
// new-table: Vehicle (VEHICLE, VTYPE class-name) <- Car (CAR) <- SportsCar (SPORTS_CAR); Vehicle <- Truck (TRUCK)
// ---------------------------------------------------------------------------------------------
describe("new-table root with a discriminator, new-table subclasses", () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(() => h.close());

  test("POST of a subclass to the base path creates the subclass", async () => {
    const r = await h.post(path("Vehicle"), { class: cls("SportsCar"), make: "Ferrari", doors: 2, topSpeed: 320 });
    expectStatus(r, 201);
    assert.equal(r.body.class, cls("SportsCar"));
    assert.equal(r.headers.get("location"), `/${cls("SportsCar")}/${r.body._id}`);
    assert.deepEqual(r.body, { class: cls("SportsCar"), _id: r.body._id, make: "Ferrari", doors: 2, topSpeed: 320 });
  });

  test("a subclass object has a row in every table on its path, the discriminator naming its class", async () => {
    const car = await created(h, "Vehicle", { class: cls("SportsCar"), make: "Porsche", doors: 2, topSpeed: 300 });
    assert.deepEqual(await rows(h, `SELECT VTYPE, make FROM VEHICLE WHERE VEHICLE_ID = ?`, [car._id]), [[cls("SportsCar"), "Porsche"]]);
    assert.deepEqual(await rows(h, `SELECT doors FROM CAR WHERE VEHICLE_ID = ?`, [car._id]), [[2]]);
    assert.deepEqual(await rows(h, `SELECT topSpeed FROM SPORTS_CAR WHERE VEHICLE_ID = ?`, [car._id]), [[300]]);
    assert.equal(await count(h, "TRUCK", "VEHICLE_ID = ?", [car._id]), 0);
  });

  test("discriminator values are the class names", async () => {
    await fresh(async (hx) => {
      const v = await created(hx, "Vehicle", { make: "generic" });
      const c = await created(hx, "Vehicle", { class: cls("Car"), make: "vw", doors: 4 });
      const s = await created(hx, "Car", { class: cls("SportsCar"), make: "lotus", doors: 2, topSpeed: 250 });
      const t = await created(hx, "Truck", { make: "man", payload: 12.5 });
      assert.deepEqual(await rows(hx, `SELECT VEHICLE_ID, VTYPE FROM VEHICLE ORDER BY VEHICLE_ID`), [
        [v._id, cls("Vehicle")],
        [c._id, cls("Car")],
        [s._id, cls("SportsCar")],
        [t._id, cls("Truck")],
      ]);
    });
  });

  test("GET of the base extent returns every instance with its own class and fields", async () => {
    await fresh(async (hx) => {
      const v = await created(hx, "Vehicle", { make: "generic" });
      const c = await created(hx, "Vehicle", { class: cls("Car"), make: "vw", doors: 4 });
      const s = await created(hx, "Vehicle", { class: cls("SportsCar"), make: "lotus", doors: 2, topSpeed: 250 });
      const t = await created(hx, "Vehicle", { class: cls("Truck"), make: "man", payload: 12.5 });
      const r = await hx.get(path("Vehicle"));
      expectStatus(r, 200);
      assert.deepEqual(byKey(r.body, "_id"), [
        { class: cls("Vehicle"), _id: v._id, make: "generic" },
        { class: cls("Car"), _id: c._id, make: "vw", doors: 4 },
        { class: cls("SportsCar"), _id: s._id, make: "lotus", doors: 2, topSpeed: 250 },
        { class: cls("Truck"), _id: t._id, make: "man", payload: 12.5 },
      ]);
    });
  });

  test("GET of a subclass extent returns only that class and its subclasses", async () => {
    await fresh(async (hx) => {
      await created(hx, "Vehicle", { make: "generic" });
      const c = await created(hx, "Vehicle", { class: cls("Car"), make: "vw", doors: 4 });
      const s = await created(hx, "Vehicle", { class: cls("SportsCar"), make: "lotus", doors: 2, topSpeed: 250 });
      await created(hx, "Vehicle", { class: cls("Truck"), make: "man", payload: 12.5 });
      const cars = await hx.get(path("Car"));
      expectStatus(cars, 200);
      assert.deepEqual(
        byKey(cars.body, "_id").map((o: any) => [o.class, o._id]),
        [
          [cls("Car"), c._id],
          [cls("SportsCar"), s._id],
        ],
      );
      const sports = await hx.get(path("SportsCar"));
      assert.deepEqual(
        sports.body.map((o: any) => o._id),
        [s._id],
      );
      const trucks = await hx.get(path("Truck"));
      assert.deepEqual(
        trucks.body.map((o: any) => o.class),
        [cls("Truck")],
      );
    });
  });

  test("GET of one object by key through the base class path returns the subclass", async () => {
    const s = await created(h, "Vehicle", { class: cls("SportsCar"), make: "Aston", doors: 2, topSpeed: 310 });
    const r = await h.get(path("Vehicle", s._id));
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("SportsCar"), _id: s._id, make: "Aston", doors: 2, topSpeed: 310 });
    expectStatus(await h.get(path("Car", s._id)), 200);
  });

  test("GET of an object through a sibling class path → 404", async () => {
    const s = await created(h, "Vehicle", { class: cls("SportsCar"), make: "Sib", doors: 2, topSpeed: 1 });
    assertProblem(await h.get(path("Truck", s._id)), 404);
  });

  test("PUT of a subclass field through the base class path", async () => {
    const s = await created(h, "Vehicle", { class: cls("SportsCar"), make: "Mclaren", doors: 2, topSpeed: 330 });
    const r = await h.put(path("Vehicle", s._id), { topSpeed: 340, doors: 3 });
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("SportsCar"), _id: s._id, make: "Mclaren", doors: 3, topSpeed: 340 });
    assert.deepEqual(await rows(h, `SELECT topSpeed FROM SPORTS_CAR WHERE VEHICLE_ID = ?`, [s._id]), [[340]]);
    assert.deepEqual(await rows(h, `SELECT doors FROM CAR WHERE VEHICLE_ID = ?`, [s._id]), [[3]]);
  });

  test("PUT of a field of another subclass → 422", async () => {
    const s = await created(h, "Vehicle", { class: cls("SportsCar"), make: "x", doors: 2, topSpeed: 1 });
    assertProblem(await h.put(path("Vehicle", s._id), { payload: 3 }), 422);
  });

  test('POST of a subclass field without "class" to the base path → 422', async () => {
    assertProblem(await h.post(path("Vehicle"), { make: "x", doors: 4 }), 422);
  });

  test('POST with a "class" that is not a subclass of the path\'s class → 422', async () => {
    assertProblem(await h.post(path("Car"), { class: cls("Truck"), make: "x" }), 422);
  });

  test("DELETE of one object through the base path removes its row from every table", async () => {
    const s = await created(h, "Vehicle", { class: cls("SportsCar"), make: "gone", doors: 2, topSpeed: 1 });
    expectStatus(await h.del(path("Vehicle", s._id)), 204);
    for (const t of ["VEHICLE", "CAR", "SPORTS_CAR"]) assert.equal(await count(h, t, "VEHICLE_ID = ?", [s._id]), 0, t);
    assertProblem(await h.get(path("Vehicle", s._id)), 404);
  });

  test("DELETE of an object through a sibling class path → 404 and nothing is deleted", async () => {
    const s = await created(h, "Vehicle", { class: cls("SportsCar"), make: "kept", doors: 2, topSpeed: 1 });
    assertProblem(await h.del(path("Truck", s._id)), 404);
    for (const t of ["VEHICLE", "CAR", "SPORTS_CAR"]) assert.equal(await count(h, t, "VEHICLE_ID = ?", [s._id]), 1, t);
  });

  test("DELETE of the base extent deletes subclass instances too", async () => {
    await fresh(async (hx) => {
      await created(hx, "Vehicle", { make: "generic" });
      await created(hx, "Vehicle", { class: cls("Car"), make: "vw", doors: 4 });
      await created(hx, "Vehicle", { class: cls("SportsCar"), make: "lotus", doors: 2, topSpeed: 250 });
      await created(hx, "Vehicle", { class: cls("Truck"), make: "man", payload: 12.5 });
      expectStatus(await hx.del(path("Vehicle")), 204);
      for (const t of ["VEHICLE", "CAR", "SPORTS_CAR", "TRUCK"]) assert.equal(await count(hx, t), 0, t);
      assert.deepEqual((await hx.get(path("Vehicle"))).body, []);
      assert.deepEqual((await hx.get(path("Car"))).body, []);
    });
  });

  test("DELETE of a subclass extent leaves the base class and sibling instances", async () => {
    await fresh(async (hx) => {
      const v = await created(hx, "Vehicle", { make: "generic" });
      await created(hx, "Vehicle", { class: cls("Car"), make: "vw", doors: 4 });
      await created(hx, "Vehicle", { class: cls("SportsCar"), make: "lotus", doors: 2, topSpeed: 250 });
      const t = await created(hx, "Vehicle", { class: cls("Truck"), make: "man", payload: 12.5 });
      expectStatus(await hx.del(path("Car")), 204);
      assert.deepEqual(
        byKey((await hx.get(path("Vehicle"))).body, "_id").map((o: any) => o._id),
        [v._id, t._id],
      );
      assert.equal(await count(hx, "CAR"), 0);
      assert.equal(await count(hx, "SPORTS_CAR"), 0);
      assert.equal(await count(hx, "VEHICLE"), 2);
    });
  });

  test('a nested object declared as the base class, with "class" of a subclass, is created as the subclass', async () => {
    const owner = await created(h, "Owner", { name: "racer", vehicle: { class: cls("SportsCar"), make: "Bugatti", doors: 2, topSpeed: 420 } });
    assert.equal(owner.vehicle.class, cls("SportsCar"));
    const id = owner.vehicle._id;
    assert.deepEqual(await rows(h, `SELECT VTYPE FROM VEHICLE WHERE VEHICLE_ID = ?`, [id]), [[cls("SportsCar")]]);
    assert.deepEqual(await rows(h, `SELECT topSpeed FROM SPORTS_CAR WHERE VEHICLE_ID = ?`, [id]), [[420]]);
    const got = await h.get(path("Vehicle", id));
    assert.deepEqual(got.body, { class: cls("SportsCar"), _id: id, make: "Bugatti", doors: 2, topSpeed: 420 });
    const back = await h.get(path("Owner", owner._id, "fetchGroup=all"));
    assert.deepEqual(back.body.vehicle, got.body);
  });

  test("a reference outside the fetch plan is an identity stub carrying the runtime class", async () => {
    const owner = await created(h, "Owner", { name: "stub", vehicle: { class: cls("Truck"), make: "Volvo", payload: 20 } });
    const r = await h.get(path("Owner", owner._id));
    expectStatus(r, 200);
    assert.deepEqual(r.body.vehicle, { class: cls("Truck"), _id: owner.vehicle._id });
  });
});

// ---------------------------------------------------------------------------------------------
// superclass-table: Shape (SHAPE, KIND value-map S) <- Circle (C), Square (Q)
// ---------------------------------------------------------------------------------------------
describe("superclass-table subclasses sharing the root table (value-map discriminator)", () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(() => h.close());

  test("POST of a subclass to the base path creates the subclass", async () => {
    const r = await h.post(path("Shape"), { class: cls("Circle"), color: "red", radius: 2.5 });
    expectStatus(r, 201);
    assert.deepEqual(r.body, { class: cls("Circle"), id: r.body.id, color: "red", radius: 2.5 });
    assert.equal(r.headers.get("location"), `/${cls("Circle")}/${r.body.id}`);
  });

  test("every class's row is in the root table with its mapped discriminator value", async () => {
    await fresh(async (hx) => {
      const s = await created(hx, "Shape", { color: "grey" });
      const c = await created(hx, "Shape", { class: cls("Circle"), color: "red", radius: 1 });
      const q = await created(hx, "Shape", { class: cls("Square"), color: "blue", side: 3 });
      assert.deepEqual(await rows(hx, `SELECT id, KIND, color, radius, side FROM SHAPE ORDER BY id`), [
        [s.id, "S", "grey", null, null],
        [c.id, "C", "red", 1, null],
        [q.id, "Q", "blue", null, 3],
      ]);
    });
  });

  test("GET of the base extent returns every instance with its own class and fields", async () => {
    await fresh(async (hx) => {
      const s = await created(hx, "Shape", { color: "grey" });
      const c = await created(hx, "Shape", { class: cls("Circle"), color: "red", radius: 1 });
      const q = await created(hx, "Shape", { class: cls("Square"), color: "blue", side: 3 });
      const r = await hx.get(path("Shape"));
      expectStatus(r, 200);
      assert.deepEqual(byKey(r.body, "id"), [
        { class: cls("Shape"), id: s.id, color: "grey" },
        { class: cls("Circle"), id: c.id, color: "red", radius: 1 },
        { class: cls("Square"), id: q.id, color: "blue", side: 3 },
      ]);
    });
  });

  test("GET of a subclass extent returns only that subclass", async () => {
    await fresh(async (hx) => {
      await created(hx, "Shape", { color: "grey" });
      const c = await created(hx, "Shape", { class: cls("Circle"), color: "red", radius: 1 });
      await created(hx, "Shape", { class: cls("Square"), color: "blue", side: 3 });
      const r = await hx.get(path("Circle"));
      expectStatus(r, 200);
      assert.deepEqual(r.body, [{ class: cls("Circle"), id: c.id, color: "red", radius: 1 }]);
    });
  });

  test("GET of one object by key through the base class path returns the subclass", async () => {
    const q = await created(h, "Shape", { class: cls("Square"), color: "green", side: 4 });
    const r = await h.get(path("Shape", q.id));
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("Square"), id: q.id, color: "green", side: 4 });
  });

  test("GET of an object through a sibling class path → 404", async () => {
    const q = await created(h, "Shape", { class: cls("Square"), color: "green", side: 4 });
    assertProblem(await h.get(path("Circle", q.id)), 404);
  });

  test("PUT of a subclass field through the base class path", async () => {
    const c = await created(h, "Shape", { class: cls("Circle"), color: "pink", radius: 1 });
    const r = await h.put(path("Shape", c.id), { radius: 9.5 });
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("Circle"), id: c.id, color: "pink", radius: 9.5 });
    assert.deepEqual(await rows(h, `SELECT KIND, radius FROM SHAPE WHERE id = ?`, [c.id]), [["C", 9.5]]);
  });

  test("PUT through a sibling class path → 404 and nothing changes", async () => {
    const c = await created(h, "Shape", { class: cls("Circle"), color: "pink", radius: 1 });
    assertProblem(await h.put(path("Square", c.id), { color: "black" }), 404);
    assert.deepEqual(await rows(h, `SELECT color FROM SHAPE WHERE id = ?`, [c.id]), [["pink"]]);
  });

  test("DELETE of an object through a sibling class path → 404 and nothing is deleted", async () => {
    const c = await created(h, "Shape", { class: cls("Circle"), color: "kept", radius: 1 });
    assertProblem(await h.del(path("Square", c.id)), 404);
    assert.equal(await count(h, "SHAPE", "id = ?", [c.id]), 1);
  });

  test("DELETE of the base extent deletes subclass instances too", async () => {
    await fresh(async (hx) => {
      await created(hx, "Shape", { color: "grey" });
      await created(hx, "Shape", { class: cls("Circle"), color: "red", radius: 1 });
      await created(hx, "Shape", { class: cls("Square"), color: "blue", side: 3 });
      expectStatus(await hx.del(path("Shape")), 204);
      assert.equal(await count(hx, "SHAPE"), 0);
      assert.deepEqual((await hx.get(path("Shape"))).body, []);
    });
  });

  test("DELETE of a subclass extent deletes only that subclass's rows of the shared table", async () => {
    await fresh(async (hx) => {
      const s = await created(hx, "Shape", { color: "grey" });
      await created(hx, "Shape", { class: cls("Circle"), color: "red", radius: 1 });
      const q = await created(hx, "Shape", { class: cls("Square"), color: "blue", side: 3 });
      expectStatus(await hx.del(path("Circle")), 204);
      assert.deepEqual(await rows(hx, `SELECT id, KIND FROM SHAPE ORDER BY id`), [
        [s.id, "S"],
        [q.id, "Q"],
      ]);
    });
  });

  test('nested objects declared as the base class, with "class" of subclasses, are created as the subclasses', async () => {
    const owner = await created(h, "Owner", {
      name: "painter",
      shapes: [{ class: cls("Square"), color: "teal", side: 2 }, { class: cls("Circle"), color: "gold", radius: 5 }, { color: "plain" }],
    });
    assert.deepEqual(
      owner.shapes.map((s: any) => s.class),
      [cls("Square"), cls("Circle"), cls("Shape")],
    );
    const [q, c, s] = owner.shapes;
    assert.deepEqual(
      await rows(h, `SELECT id, KIND FROM SHAPE WHERE id IN (?, ?, ?) ORDER BY id`, [q.id, c.id, s.id]),
      byKey(
        [
          { id: q.id, k: "Q" },
          { id: c.id, k: "C" },
          { id: s.id, k: "S" },
        ],
        "id",
      ).map((o) => [o.id, o.k]),
    );
    const back = await h.get(path("Owner", owner._id, "fetchGroup=all"));
    assert.deepEqual(back.body.shapes, [
      { class: cls("Square"), id: q.id, color: "teal", side: 2 },
      { class: cls("Circle"), id: c.id, color: "gold", radius: 5 },
      { class: cls("Shape"), id: s.id, color: "plain" },
    ]);
  });

  test("identity stubs of a to-many beyond the fetch depth carry the runtime class", async () => {
    const owner = await created(h, "Owner", {
      name: "deep",
      shapes: [
        { class: cls("Square"), side: 1 },
        { class: cls("Circle"), radius: 1 },
      ],
    });
    const r = await h.get(path("Owner", owner._id, "fetchGroup=all&maxFetchDepth=1"));
    expectStatus(r, 200);
    assert.deepEqual(
      r.body.shapes.map((s: any) => s.class),
      [cls("Square"), cls("Circle")],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// subclass-table: Account (abstract, no table) <- Savings (SAVINGS), Checking (CHECKING)
// ---------------------------------------------------------------------------------------------
describe("subclass-table abstract root whose fields go into each subclass table", () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(() => h.close());

  test("POST of a subclass to the abstract base path creates the subclass", async () => {
    const r = await h.post(path("Account"), { class: cls("Savings"), holder: "Ann", balance: 100, rate: 0.02 });
    expectStatus(r, 201);
    assert.deepEqual(r.body, { class: cls("Savings"), number: r.body.number, holder: "Ann", balance: 100, rate: 0.02 });
    assert.equal(r.headers.get("location"), `/${cls("Savings")}/${r.body.number}`);
  });

  test("the root's fields are stored in the subclass's own table", async () => {
    const s = await created(h, "Account", { class: cls("Savings"), holder: "Bo", balance: 50, rate: 0.01 });
    const c = await created(h, "Account", { class: cls("Checking"), holder: "Cy", balance: -5, overdraft: 100 });
    assert.deepEqual(await rows(h, `SELECT holder, balance, rate FROM SAVINGS WHERE number = ?`, [s.number]), [["Bo", 50, 0.01]]);
    assert.deepEqual(await rows(h, `SELECT holder, balance, overdraft FROM CHECKING WHERE number = ?`, [c.number]), [["Cy", -5, 100]]);
    const tables = (await rows(h, `SELECT name FROM sqlite_master WHERE type = 'table'`)).map((r) => String(r[0]).toUpperCase());
    assert.ok(!tables.includes("ACCOUNT"), "the abstract root has no table");
  });

  test('POST to the abstract base path without "class" → 400', async () => {
    assertProblem(await h.post(path("Account"), { holder: "nobody" }), 400);
  });

  test("generated keys are unique across the subclass tables", async () => {
    const s = await created(h, "Account", { class: cls("Savings"), holder: "k1" });
    const c = await created(h, "Account", { class: cls("Checking"), holder: "k2" });
    assert.notEqual(s.number, c.number);
  });

  test("GET of the base extent returns every instance with its own class and fields", async () => {
    await fresh(async (hx) => {
      const s = await created(hx, "Account", { class: cls("Savings"), holder: "Ann", balance: 1, rate: 0.5 });
      const c = await created(hx, "Account", { class: cls("Checking"), holder: "Ben", balance: 2, overdraft: 10 });
      const r = await hx.get(path("Account"));
      expectStatus(r, 200);
      assert.deepEqual(
        byKey(r.body, "number"),
        byKey(
          [
            { class: cls("Savings"), number: s.number, holder: "Ann", balance: 1, rate: 0.5 },
            { class: cls("Checking"), number: c.number, holder: "Ben", balance: 2, overdraft: 10 },
          ],
          "number",
        ),
      );
    });
  });

  test("GET of a subclass extent returns only that subclass", async () => {
    await fresh(async (hx) => {
      await created(hx, "Account", { class: cls("Savings"), holder: "Ann", balance: 1, rate: 0.5 });
      const c = await created(hx, "Account", { class: cls("Checking"), holder: "Ben", balance: 2, overdraft: 10 });
      const r = await hx.get(path("Checking"));
      expectStatus(r, 200);
      assert.deepEqual(r.body, [{ class: cls("Checking"), number: c.number, holder: "Ben", balance: 2, overdraft: 10 }]);
    });
  });

  test("GET of one object by key through the base class path returns the subclass", async () => {
    const c = await created(h, "Account", { class: cls("Checking"), holder: "Dee", balance: 7, overdraft: 70 });
    const r = await h.get(path("Account", c.number));
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("Checking"), number: c.number, holder: "Dee", balance: 7, overdraft: 70 });
  });

  test("PUT of a subclass field (and a root field) through the base class path", async () => {
    const s = await created(h, "Account", { class: cls("Savings"), holder: "Eve", balance: 10, rate: 0.1 });
    const r = await h.put(path("Account", s.number), { rate: 0.3, balance: 11 });
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("Savings"), number: s.number, holder: "Eve", balance: 11, rate: 0.3 });
    assert.deepEqual(await rows(h, `SELECT balance, rate FROM SAVINGS WHERE number = ?`, [s.number]), [[11, 0.3]]);
  });

  test("DELETE of the base extent deletes every subclass's rows", async () => {
    await fresh(async (hx) => {
      await created(hx, "Account", { class: cls("Savings"), holder: "Ann" });
      await created(hx, "Account", { class: cls("Checking"), holder: "Ben" });
      expectStatus(await hx.del(path("Account")), 204);
      assert.equal(await count(hx, "SAVINGS"), 0);
      assert.equal(await count(hx, "CHECKING"), 0);
      assert.deepEqual((await hx.get(path("Account"))).body, []);
    });
  });

  test('a nested object declared as the abstract base, with "class" of a subclass, is created as the subclass', async () => {
    const owner = await created(h, "Owner", { name: "saver", account: { class: cls("Savings"), holder: "Fay", balance: 3, rate: 0.04 } });
    assert.equal(owner.account.class, cls("Savings"));
    assert.deepEqual(await rows(h, `SELECT holder, rate FROM SAVINGS WHERE number = ?`, [owner.account.number]), [["Fay", 0.04]]);
    assert.equal(await count(h, "CHECKING", "number = ?", [owner.account.number]), 0);
    const got = await h.get(path("Account", owner.account.number));
    assert.equal(got.body.class, cls("Savings"));
  });

  test('a nested object declared as the abstract base without "class" → 400, nothing stored', async () => {
    const before = await count(h, "OWNER");
    assertProblem(await h.post(path("Owner"), { name: "vague", account: { holder: "who" } }), 400);
    assert.equal(await count(h, "OWNER"), before);
  });
});

// ---------------------------------------------------------------------------------------------
// complete-table: Animal (ANIMAL) <- Dog (DOG), Cat (CAT)
// ---------------------------------------------------------------------------------------------
describe("complete-table: each class's table holds every field", () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(() => h.close());

  test("POST of a subclass to the base path creates the subclass", async () => {
    const r = await h.post(path("Animal"), { class: cls("Dog"), name: "Rex", breed: "lab" });
    expectStatus(r, 201);
    assert.deepEqual(r.body, { class: cls("Dog"), id: r.body.id, name: "Rex", breed: "lab" });
    assert.equal(r.headers.get("location"), `/${cls("Dog")}/${r.body.id}`);
  });

  test("a subclass object is one row of its own table, inherited fields included; none in the base table", async () => {
    const d = await created(h, "Animal", { class: cls("Dog"), name: "Fido", breed: "pug" });
    const c = await created(h, "Animal", { class: cls("Cat"), name: "Tom", indoor: true });
    const a = await created(h, "Animal", { name: "Generic" });
    assert.deepEqual(await rows(h, `SELECT name, breed FROM DOG WHERE id = ?`, [d.id]), [["Fido", "pug"]]);
    assert.deepEqual(await rows(h, `SELECT name, indoor FROM CAT WHERE id = ?`, [c.id]), [["Tom", 1]]);
    assert.deepEqual(await rows(h, `SELECT name FROM ANIMAL WHERE id = ?`, [a.id]), [["Generic"]]);
    assert.equal(await count(h, "ANIMAL", "id IN (?, ?)", [d.id, c.id]), 0);
  });

  test("generated keys are unique across the tables of the hierarchy", async () => {
    const a = await created(h, "Animal", { name: "a" });
    const d = await created(h, "Animal", { class: cls("Dog"), name: "d" });
    const c = await created(h, "Animal", { class: cls("Cat"), name: "c" });
    assert.equal(new Set([a.id, d.id, c.id]).size, 3);
  });

  test("GET of the base extent returns every instance with its own class and fields", async () => {
    await fresh(async (hx) => {
      const a = await created(hx, "Animal", { name: "Generic" });
      const d = await created(hx, "Animal", { class: cls("Dog"), name: "Fido", breed: "pug" });
      const c = await created(hx, "Animal", { class: cls("Cat"), name: "Tom", indoor: false });
      const r = await hx.get(path("Animal"));
      expectStatus(r, 200);
      assert.deepEqual(
        byKey(r.body, "id"),
        byKey(
          [
            { class: cls("Animal"), id: a.id, name: "Generic" },
            { class: cls("Dog"), id: d.id, name: "Fido", breed: "pug" },
            { class: cls("Cat"), id: c.id, name: "Tom", indoor: false },
          ],
          "id",
        ),
      );
    });
  });

  test("GET of a subclass extent returns only that subclass", async () => {
    await fresh(async (hx) => {
      await created(hx, "Animal", { name: "Generic" });
      const d = await created(hx, "Animal", { class: cls("Dog"), name: "Fido", breed: "pug" });
      await created(hx, "Animal", { class: cls("Cat"), name: "Tom", indoor: false });
      const r = await hx.get(path("Dog"));
      expectStatus(r, 200);
      assert.deepEqual(r.body, [{ class: cls("Dog"), id: d.id, name: "Fido", breed: "pug" }]);
    });
  });

  test("GET of one object by key through the base class path returns the subclass", async () => {
    const c = await created(h, "Animal", { class: cls("Cat"), name: "Kit", indoor: true });
    const r = await h.get(path("Animal", c.id));
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("Cat"), id: c.id, name: "Kit", indoor: true });
  });

  test("PUT of a subclass field through the base class path", async () => {
    const d = await created(h, "Animal", { class: cls("Dog"), name: "Max", breed: "boxer" });
    const r = await h.put(path("Animal", d.id), { breed: "beagle", name: "Maxi" });
    expectStatus(r, 200);
    assert.deepEqual(r.body, { class: cls("Dog"), id: d.id, name: "Maxi", breed: "beagle" });
    assert.deepEqual(await rows(h, `SELECT name, breed FROM DOG WHERE id = ?`, [d.id]), [["Maxi", "beagle"]]);
  });

  test("DELETE of one subclass object through the base path", async () => {
    const d = await created(h, "Animal", { class: cls("Dog"), name: "Bye", breed: "x" });
    expectStatus(await h.del(path("Animal", d.id)), 204);
    assert.equal(await count(h, "DOG", "id = ?", [d.id]), 0);
    assertProblem(await h.get(path("Animal", d.id)), 404);
  });

  test("DELETE of the base extent deletes subclass instances too", async () => {
    await fresh(async (hx) => {
      await created(hx, "Animal", { name: "Generic" });
      await created(hx, "Animal", { class: cls("Dog"), name: "Fido", breed: "pug" });
      await created(hx, "Animal", { class: cls("Cat"), name: "Tom", indoor: false });
      expectStatus(await hx.del(path("Animal")), 204);
      for (const t of ["ANIMAL", "DOG", "CAT"]) assert.equal(await count(hx, t), 0, t);
      assert.deepEqual((await hx.get(path("Animal"))).body, []);
    });
  });

  test('nested objects declared as the base class, with "class" of subclasses, are created as the subclasses', async () => {
    const owner = await created(h, "Owner", {
      name: "zoo",
      pets: [
        { class: cls("Cat"), name: "Mia", indoor: true },
        { class: cls("Dog"), name: "Bo", breed: "mix" },
      ],
    });
    const cat = owner.pets.find((p: any) => p.name === "Mia");
    const dog = owner.pets.find((p: any) => p.name === "Bo");
    assert.equal(cat.class, cls("Cat"));
    assert.equal(dog.class, cls("Dog"));
    assert.equal(await count(h, "CAT", "id = ? AND name = 'Mia'", [cat.id]), 1);
    assert.equal(await count(h, "DOG", "id = ? AND name = 'Bo'", [dog.id]), 1);
    assert.equal(await count(h, "ANIMAL", "id IN (?, ?)", [cat.id, dog.id]), 0);
    const back = await h.get(path("Owner", owner._id, "fetchGroup=all"));
    assert.deepEqual(
      byKey(back.body.pets, "id"),
      byKey(
        [
          { class: cls("Cat"), id: cat.id, name: "Mia", indoor: true },
          { class: cls("Dog"), id: dog.id, name: "Bo", breed: "mix" },
        ],
        "id",
      ),
    );
  });

  test("a linked nested object given by key under the base class keeps its subclass", async () => {
    const d = await created(h, "Dog", { name: "Known", breed: "akita" });
    const owner = await created(h, "Owner", { name: "adopter", pets: [{ id: d.id }] });
    assert.deepEqual(owner.pets, [{ class: cls("Dog"), id: d.id, name: "Known", breed: "akita" }]);
    assert.equal(await count(h, "ANIMAL", "id = ?", [d.id]), 0);
  });
});
