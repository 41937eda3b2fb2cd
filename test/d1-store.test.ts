/**
 * The D1 store against a real D1 (workerd's, through miniflare, in this process): a batch is all
 * or nothing, constraint failures become the store's errors, values round-trip, and the handler
 * runs on a Drizzle D1 database given in the persistence context. (The whole sample on D1 in
 * workerd is test/runtimes.test.ts.)
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { drizzle } from "drizzle-orm/d1";
import { Miniflare } from "miniflare";
import { createRestHandler } from "../src/handler.ts";
import { D1Store, type D1Binding } from "../src/store/d1-store.ts";
import { openLibsqlStore } from "../src/store/libsql-store.ts";
import { GUARDS, GUARD_TABLE, guardInsert } from "../src/store/migrate.ts";
import { sql, statement } from "../src/store/sql.ts";
import { StoreConstraintError } from "../src/store/store.ts";

let mf: Miniflare;
let d1: D1Binding;

before(async () => {
  mf = new Miniflare({ modules: true, script: "export default { fetch: () => new Response(null) }", d1Databases: ["DB"], compatibilityDate: "2025-09-01" });
  d1 = (await mf.getD1Database("DB")) as unknown as D1Binding;
});
after(() => mf?.dispose());

const s = (sql: string, ...params: unknown[]) => ({ sql, params });

test("a D1 batch is all or nothing: a failing statement undoes the ones before it", async () => {
  const store = new D1Store(d1);
  await store.migrate([s("CREATE TABLE atomic (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")]);
  await store.batch([s("INSERT INTO atomic VALUES (?, ?)", 1, "one")], "write");
  await assert.rejects(
    store.batch([s("INSERT INTO atomic VALUES (?, ?)", 2, "two"), s("UPDATE atomic SET v = ? WHERE k = ?", "uno", 1), s("INSERT INTO atomic VALUES (?, ?)", 1, "again")], "write"),
    (e) => e instanceof StoreConstraintError && e.kind === "unique",
  );
  const [rows] = await store.batch([s("SELECT k, v FROM atomic ORDER BY k")], "read");
  assert.deepEqual(rows!.rows, [[1, "one"]]);
});

test("a failed guard is reported by its own name, on D1 as on libSQL", async () => {
  for (const store of [new D1Store(d1), openLibsqlStore(":memory:")]) {
    await store.migrate([s(`CREATE TABLE IF NOT EXISTS ${GUARD_TABLE} (${GUARDS.map((g) => `${g} INTEGER NOT NULL`).join(", ")})`)]);
    for (const guard of GUARDS) {
      await assert.rejects(store.batch([statement(guardInsert(guard, sql`1`))], "write"), (e) => e instanceof StoreConstraintError && e.kind === "guard" && e.guard === guard);
    }
    const [passed] = await store.batch([statement(guardInsert("changed", sql`0`)), s(`SELECT COUNT(*) FROM ${GUARD_TABLE}`)], "write").then((r) => r.slice(1));
    assert.deepEqual(passed!.rows, [[0]]);
  }
});

test("D1 keys a batch's rows by column name, so equal names collapse: why every read SELECT names its columns apart", async () => {
  const store = new D1Store(d1);
  const [same, apart] = await store.batch([s("SELECT 1 AS x, 2 AS x"), s("SELECT 1 AS c0, 2 AS c1")], "read");
  assert.equal(same!.rows[0]!.length, 1);
  assert.deepEqual(apart!.rows, [[1, 2]]);
});

test("values round-trip: integers, reals, text, null, booleans as integers, bytes", async () => {
  const store = new D1Store(d1);
  const [r] = await store.batch([s("SELECT ? AS c0, ? AS c1, ? AS c2, ? AS c3, ? AS c4, ? AS c5, typeof(?) AS c6", 42, 2.5, "é", null, true, 9007199254740991n, new Uint8Array([1, 2]))], "read");
  assert.deepEqual(r!.rows[0], [42, 2.5, "é", null, 1, 9007199254740991, "blob"]);
});

test("the handler runs on a Drizzle D1 database given in the persistence context", async () => {
  const metadata = [{ source: "package.jdo", text: readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8") }];
  const handler = createRestHandler({ context: { name: "d1", database: drizzle(d1 as never), metadata }, serverTiming: true });
  await handler.ready;
  const call = (method: string, path: string, body?: unknown) =>
    handler.fetch(new Request(`http://d1.test${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json" } }));
  const created = await call("POST", "/org.extent.sample.Author", { name: "Octavia E. Butler", works: [{ class: "org.extent.sample.Book", title: "Kindred", pages: 264 }] });
  assert.equal(created.status, 201, await created.clone().text());
  assert.match(created.headers.get("server-timing") ?? "", /store;desc="1 round trip/);
  const book = await (await call("GET", "/org.extent.sample.Book?fetchGroup=all")).json();
  assert.deepEqual(book.map((b: { title: string; author: { _id: number } }) => [b.title, b.author._id]), [["Kindred", (await created.json())._id]]);
  assert.equal((await call("POST", "/org.extent.sample.Book", { title: 7 })).status, 422);

  // A new isolate starts on a database that already has tables (and D1's own `_cf_` ones).
  const again = createRestHandler({ context: { name: "d1", database: drizzle(d1 as never), metadata } });
  await again.ready;
  assert.equal((await (await again.fetch(new Request("http://d1.test/org.extent.sample.Book"))).json()).length, 1);
});
