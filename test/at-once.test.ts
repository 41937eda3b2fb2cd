/**
 * A batch that the store runs on the calling thread comes back without a promise
 * (`Store.batchNow`: an embedded file's writes, its reads that no stored data can make long, and
 * its other reads while they run within their lane's time on the main connection). Two handlers
 * on one file, one over the store as it is and one over the same store without `batchNow` (which
 * always awaits `batch`), answer alike: every GET by key (objects, subclasses, fetch plans, absent
 * keys), extents (streamed too), filters, listings and queries with their refusals, and PUTs and
 * POSTs with their refusals (404, 409, 422). The at-once path is held to the request's deadline,
 * and a read its lane stops is left to `batch`, which runs it in the reader pool.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRestHandler, type RestHandler } from "../src/handler.ts";
import { openStore } from "../src/store/open-store.ts";
import { DeadlineStore } from "../src/store/deadline-store.ts";
import { TimeLimitError } from "../src/errors/capacity-errors.ts";
import type { Statement, StatementResult, Store } from "../src/store/store.ts";
import { CLIENT_LANE_MS } from "../src/store/embedded-store.ts";

const MODEL = `<jdo><package name="t">
  <class name="Person" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="friend" field-type="t.Person"/>
    <field name="pets" mapped-by="owner"><collection element-type="t.Pet"/></field>
  </class>
  <class name="Employee" persistence-capable-superclass="t.Person">
    <inheritance strategy="new-table"/>
    <field name="salary" field-type="int"/>
  </class>
  <class name="Pet" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="name" field-type="java.lang.String"/>
    <field name="owner" field-type="t.Person"/>
  </class>
</package></jdo>`;

/** The store with its calls counted: at once (`batchNow` answered) and through `batch`. */
class Spy implements Store {
  now = 0;
  later = 0;
  readonly interrupts?: boolean;
  constructor(
    readonly inner: Store,
    readonly atOnce: boolean,
  ) {
    this.interrupts = inner.interrupts;
  }
  batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    this.later++;
    return this.inner.batch(statements, mode, deadline);
  }
  batchNow(statements: readonly Statement[], mode: "read" | "write", deadline?: number): StatementResult[] | undefined {
    if (!this.atOnce) return undefined;
    const results = this.inner.batchNow?.(statements, mode, deadline);
    if (results) this.now++;
    return results;
  }
  migrate(statements: readonly Statement[]): Promise<StatementResult[]> {
    return this.inner.migrate(statements);
  }
  close(): void {
    this.inner.close();
  }
}

let dir: string;
let atOnce: Spy;
let awaiting: Spy;
let fast: RestHandler;
let slow: RestHandler;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "extent-at-once-"));
  const url = `file:${join(dir, "t.db")}`;
  const metadata = [{ source: "t.jdo", text: MODEL }];
  atOnce = new Spy(openStore({ name: "t", url }), true);
  awaiting = new Spy(openStore({ name: "t", url }), false);
  // A first page of one object: an extent or a query of two streams its second page.
  fast = createRestHandler({ context: { name: "t", url, metadata }, store: atOnce, firstPageSize: 1 });
  await fast.ready;
  slow = createRestHandler({ context: { name: "t", url, metadata }, store: awaiting, firstPageSize: 1 });
  await slow.ready;
  const post = (path: string, body: unknown) =>
    fast.fetch(new Request(`http://t${path}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }));
  for (const [path, body] of [
    ["/t.Person", { id: 1, name: "Ann", pets: [{ id: 1, name: "Rex" }] }],
    ["/t.Employee", { id: 2, name: "Bob", salary: 10, friend: { class: "t.Person", id: 1 } }],
  ] as const)
    assert.equal((await post(path, body)).status, 201);
});

after(() => {
  fast?.close();
  slow?.close();
  rmSync(dir, { recursive: true, force: true });
});

const answer = async (handler: RestHandler, path: string) => {
  const r = await handler.fetch(new Request(`http://t${path}`));
  return { status: r.status, type: r.headers.get("content-type"), etag: r.headers.get("etag"), body: await r.text() };
};

test("every GET by key answers the same at once and awaited", async () => {
  const statuses: number[] = [];
  for (const path of [
    "/t.Person/1",
    "/t.Person/2",
    "/t.Employee/2",
    "/t.Person/2?fetchGroup=all",
    "/t.Person/1?fetchGroup=all&maxFetchDepth=2",
    "/t.Person/1?maxFetchDepth=-1",
    "/t.Pet/1",
    "/t.Person/3",
    "/t.Employee/1",
    "/t.Person/x",
  ]) {
    const [a, b] = [await answer(fast, path), await answer(slow, path)];
    assert.deepEqual(a, b, path);
    statuses.push(a.status);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 404, 404, 400], "objects, absent keys and a bad key all compared");
});

const q = (text: string) => encodeURIComponent(text);

test("extents, filters, listings and queries answer the same at once and awaited, refusals included", async () => {
  const statuses: number[] = [];
  for (const path of [
    "/t.Person",
    "/t.Person?fetchGroup=all",
    "/t.Pet",
    `/t.Person?filter=${q("name == 'Ann'")}`,
    `/t.Person?filter=${q("pets.contains(p) && p.name == 'Rex'")}`,
    `/t.Person?ordering=${q("name desc")}`,
    `/t.Person?ordering=name&range=0,1`,
    `/jdoql?query=${q("SELECT FROM t.Person ORDER BY name")}`,
    `/jdoql?query=${q("SELECT UNIQUE FROM t.Person WHERE name == 'Bob'")}`,
    `/jdoql?query=${q("SELECT name FROM t.Person ORDER BY name")}`,
    `/jpql?query=${q("SELECT p.name, COUNT(x) FROM Person p LEFT JOIN p.pets x GROUP BY p.name ORDER BY p.name")}`,
    `/jdoql?query=${q("SELECT UNIQUE FROM t.Person")}`,
    `/jdoql?query=${q("SELECT SUM(id + 9223372036854775805) FROM t.Person")}`,
    `/t.Person?filter=${q("name ==")}`,
  ]) {
    const [a, b] = [await answer(fast, path), await answer(slow, path)];
    assert.deepEqual(a, b, path);
    statuses.push(a.status);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 400, 400, 400], "answers, a page and refusals all compared");
});

test("a read comes at once whatever it reads; through batch only without batchNow", async () => {
  atOnce.now = atOnce.later = 0;
  assert.equal((await answer(fast, "/t.Pet/1")).status, 200);
  assert.deepEqual([atOnce.now, atOnce.later], [1, 0], "a Pet by key: one read, at once");
  atOnce.now = atOnce.later = 0;
  assert.equal((await answer(fast, "/t.Person/1?fetchGroup=all")).status, 200);
  assert.deepEqual([atOnce.now, atOnce.later], [1, 0], "with its pets: a read in its lane's time, at once too");
  atOnce.now = atOnce.later = 0;
  assert.equal((await answer(fast, `/t.Person?filter=${q("name == 'Ann'")}`)).status, 200);
  assert.deepEqual([atOnce.now, atOnce.later], [1, 0], "a filter: at once");
  awaiting.now = awaiting.later = 0;
  assert.equal((await answer(slow, "/t.Pet/1")).status, 200);
  assert.deepEqual([awaiting.now, awaiting.later], [0, 1], "a store without batchNow is always asked batch");
});

test("a read its lane stops is left to batch, which runs it in the pool; known as long, it is not tried at once again", async () => {
  const store = atOnce.inner;
  // Far longer than a client's lane on any machine (about 1 s of SQLite).
  const long: Statement = {
    sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) FROM c",
    params: [],
    unbounded: true,
  };
  const started = Date.now();
  assert.equal(store.batchNow!([long], "read", Date.now() + 60_000), undefined, "stopped in its lane");
  assert.ok(Date.now() - started < CLIENT_LANE_MS + 500, `stopped near its lane's time (${Date.now() - started} ms)`);
  const again = Date.now();
  assert.equal(store.batchNow!([long], "read", Date.now() + 60_000), undefined, "known as long: left to batch");
  assert.ok(Date.now() - again < 50, "without running it");
  const [result] = await store.batch([long], "read", Date.now() + 60_000);
  assert.deepEqual(result!.rows, [[20_000_000]], "batch runs it to its end, in the pool");
});

test("a read at once is held to the request's deadline, as batch is", async () => {
  const statement: Statement = { sql: "SELECT 1", params: [], fixedCost: true };
  const late = new DeadlineStore(atOnce.inner, 0);
  await new Promise((r) => setTimeout(r, 2));
  assert.throws(
    () => late.batchNow([statement], "read"),
    (e) => e instanceof TimeLimitError && e.limitMs === 0,
  );
  const inTime = new DeadlineStore(atOnce.inner, 10_000);
  assert.deepEqual(inTime.batchNow([statement], "read")?.[0]?.rows, [[1]]);
});

const send = async (handler: RestHandler, method: string, path: string, body: unknown) => {
  const r = await handler.fetch(new Request(`http://t${path}`, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } }));
  return { status: r.status, location: r.headers.get("location"), body: await r.text() };
};

test("writes answer the same at once and awaited, refusals included", async () => {
  atOnce.now = atOnce.later = awaiting.now = awaiting.later = 0;
  const put = [await send(fast, "PUT", "/t.Pet/1", { name: "Rex 2" }), await send(slow, "PUT", "/t.Pet/1", { name: "Rex 2" })];
  assert.equal(put[0]!.status, 200, put[0]!.body);
  assert.deepEqual(put[0], put[1], "a PUT");
  assert.deepEqual([atOnce.now, atOnce.later, awaiting.now, awaiting.later], [1, 0, 0, 1], "the PUT's batch: at once, and awaited");
  for (const [method, path, body, status] of [
    ["PUT", "/t.Pet/99", { name: "nobody" }, 404],
    ["PUT", "/t.Pet/1", { name: 7, colour: "red" }, 422],
    ["POST", "/t.Pet", { id: 1, name: "again" }, 409],
    ["POST", "/t.Pet", { name: "no key" }, 422],
  ] as const) {
    const [a, b] = [await send(fast, method, path, body), await send(slow, method, path, body)];
    assert.equal(a.status, status, `${method} ${path}: ${a.body}`);
    assert.deepEqual(a, b, `${method} ${path}`);
  }
  const posted = [await send(fast, "POST", "/t.Pet", { id: 10, name: "Ten" }), await send(slow, "POST", "/t.Pet", { id: 11, name: "Ten" })];
  assert.equal(posted[0]!.status, 201, posted[0]!.body);
  assert.deepEqual(
    { ...posted[0], location: posted[0]!.location?.replace("10", "N"), body: posted[0]!.body.replace("10", "N") },
    {
      ...posted[1],
      location: posted[1]!.location?.replace("11", "N"),
      body: posted[1]!.body.replace("11", "N"),
    },
  );
  assert.equal((await answer(slow, "/t.Pet/10")).body, (await answer(fast, "/t.Pet/10")).body, "written once, read alike");
});
