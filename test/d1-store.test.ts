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
import { GUARDS, guardInsert } from "../src/mapping/migrate.ts";
import { GUARD_TABLE } from "../src/store/reserved-tables.ts";
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
    store.batch(
      [s("INSERT INTO atomic VALUES (?, ?)", 2, "two"), s("UPDATE atomic SET v = ? WHERE k = ?", "uno", 1), s("INSERT INTO atomic VALUES (?, ?)", 1, "again")],
      "write",
    ),
    (e) => e instanceof StoreConstraintError && e.kind === "unique",
  );
  const [rows] = await store.batch([s("SELECT k, v FROM atomic ORDER BY k")], "read");
  assert.deepEqual(rows!.rows, [[1, "one"]]);
});

test("a failed guard is reported by its own name, on D1 as on libSQL", async () => {
  for (const store of [new D1Store(d1), openLibsqlStore(":memory:")]) {
    await store.migrate([s(`CREATE TABLE IF NOT EXISTS ${GUARD_TABLE} (${GUARDS.map((g) => `${g} INTEGER NOT NULL`).join(", ")})`)]);
    for (const guard of GUARDS) {
      await assert.rejects(
        store.batch([statement(guardInsert(guard, sql`1`))], "write"),
        (e) => e instanceof StoreConstraintError && e.kind === "guard" && e.guard === guard,
      );
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
  const [r] = await store.batch(
    [s("SELECT ? AS c0, ? AS c1, ? AS c2, ? AS c3, ? AS c4, ? AS c5, typeof(?) AS c6", 42, 2.5, "é", null, true, 9007199254740991n, new Uint8Array([1, 2]))],
    "read",
  );
  assert.deepEqual(r!.rows[0], [42, 2.5, "é", null, 1, 9007199254740991, "blob"]);
});

test("the handler runs on a Drizzle D1 database given in the persistence context", async () => {
  const metadata = [{ source: "package.jdo", text: readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8") }];
  const handler = createRestHandler({ context: { name: "d1", database: drizzle(d1 as never), metadata }, serverTiming: true });
  await handler.ready;
  const call = (method: string, path: string, body?: unknown) =>
    handler.fetch(
      new Request(`http://d1.test${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { "content-type": "application/json" },
      }),
    );
  const created = await call("POST", "/org.extent.sample.Author", {
    name: "Octavia E. Butler",
    works: [{ class: "org.extent.sample.Book", title: "Kindred", pages: 264 }],
  });
  assert.equal(created.status, 201, await created.clone().text());
  assert.match(created.headers.get("server-timing") ?? "", /store;desc="1 round trip/);
  const book = await (await call("GET", "/org.extent.sample.Book?fetchGroup=all")).json();
  assert.deepEqual(
    book.map((b: { title: string; author: { _id: number } }) => [b.title, b.author._id]),
    [["Kindred", (await created.json())._id]],
  );
  assert.equal((await call("POST", "/org.extent.sample.Book", { title: 7 })).status, 422);

  // A new isolate starts on a database that already has tables (and D1's own `_cf_` ones).
  const again = createRestHandler({ context: { name: "d1", database: drizzle(d1 as never), metadata } });
  await again.ready;
  assert.equal((await (await again.fetch(new Request("http://d1.test/org.extent.sample.Book"))).json()).length, 1);
});

test("longs past 2^53 survive D1, which reads every integer as a double: stored, read by JSON selects and the object path, queried", async () => {
  const metadata = [{ source: "exact/package.jdo", text: readFileSync(new URL("./models/exact/package.jdo", import.meta.url), "utf8") }];
  const handler = createRestHandler({ context: { name: "d1-exact", database: drizzle(d1 as never), metadata } });
  await handler.ready;
  const [MAX, MIN, ODD] = ["9223372036854775807", "-9223372036854775808", "9007199254740993"];
  const call = async (method: string, path: string, body?: string) => {
    const r = await handler.fetch(new Request(`http://d1.test/test.exact.${path}`, { method, body, headers: { "content-type": "application/json" } }));
    return { status: r.status, text: await r.text() };
  };
  const ok = async (method: string, path: string, body?: string) => {
    const r = await call(method, path, body);
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.text;
  };
  await ok("POST", "Holder", `{"id": ${MAX}, "name": "max"}`);
  await ok("POST", "Tag", `{"id": ${ODD}, "label": "odd"}`);
  const posted = await ok(
    "POST",
    "Account",
    `{"id": ${MAX}, "owner": {"id": ${MAX}}, "units": ${MIN}, "total": ${ODD}, "history": [${MAX}], "tags": [{"id": ${ODD}}]}`,
  );
  const digits = [`"id":${MAX}`, `"units":${MIN}`, `"total":${ODD}`, `"history":[${MAX}]`, `"class":"test.exact.Tag","id":${ODD}`];
  for (const d of digits) assert.ok(posted.includes(d), `${d} in ${posted}`);
  // A JSON select (written by SQL), the object path (maxFetchDepth=-1), an ancestor key (object path).
  for (const path of [
    `Account/${MAX}?fetchGroup=all`,
    `Account/${MAX}?fetchGroup=all&maxFetchDepth=-1`,
    "Account?fetchGroup=all",
    "Account?fetchGroup=all&maxFetchDepth=-1",
  ]) {
    const text = await ok("GET", path);
    for (const d of digits) assert.ok(text.includes(d), `${path}: ${d} in ${text}`);
  }
  await ok("POST", "Ledger", `{"id": ${MAX}, "kind": "k", "amount": ${MIN}}`);
  await ok("POST", "Ledger", `{"id": ${ODD}, "kind": "k", "parent": {"id": ${MAX}, "kind": "k"}, "amount": ${ODD}}`);
  assert.equal(
    await ok("GET", "Ledger"),
    `[{"class":"test.exact.Ledger","id":${ODD},"kind":"k","parent":{"class":"test.exact.LedgerKey","id":${MAX},"kind":"k","parent":null},"amount":${ODD}},{"class":"test.exact.Ledger","id":${MAX},"kind":"k","parent":null,"amount":${MIN}}]`,
  );
  const q = (text: string, params = "{}") => ok("GET", `Account?filter=${encodeURIComponent(text)}&params=${encodeURIComponent(params)}`);
  assert.match(await q("total == :t", `{"t": ${ODD}}`), new RegExp(`"id":${MAX}`));
  assert.equal(await q("total == :t", `{"t": 9007199254740992}`), "[]");
  assert.equal(await q("units + 1 == -9223372036854775807"), await q(`id == ${MAX}`));
  const projection = await handler.fetch(
    new Request(`http://d1.test/jdoql?query=${encodeURIComponent("SELECT max(id), min(units), total FROM test.exact.Account GROUP BY total")}`),
  );
  assert.equal(await projection.text(), `[[${MAX},${MIN},${ODD}]]`);
});

test("BigDecimals an earlier release stored as doubles are rewritten exactly at start-up on D1 too", async () => {
  const metadata = [
    {
      source: "exact/package.jdo",
      text: readFileSync(new URL("./models/exact/package.jdo", import.meta.url), "utf8")
        .replaceAll('table="ACCOUNT"', 'table="OLD_ACCOUNT"')
        .replaceAll("ACCOUNT_TAGS", "OLD_ACCOUNT_TAGS"),
    },
  ];
  const store = new D1Store(d1);
  await store.migrate([
    s('CREATE TABLE "OLD_ACCOUNT" ("id" INTEGER, "price" NUMERIC, PRIMARY KEY ("id"))'),
    s('INSERT INTO "OLD_ACCOUNT" VALUES (1, 100.1), (2, 12), (3, -0.5), (4, NULL)'),
  ]);
  const handler = createRestHandler({ context: { name: "d1-earlier", database: drizzle(d1 as never), metadata } });
  await handler.ready;
  const [rows] = await store.batch([s('SELECT "id", "price" FROM "OLD_ACCOUNT" ORDER BY "price", "id"')], "read");
  assert.deepEqual(rows!.rows, [
    [4, null],
    [3, "1499994~ -0.5"],
    [2, "35000212 12"],
    [1, "3500031001 100.1"],
  ]);
  const r = await handler.fetch(new Request(`http://d1.test/test.exact.Account?filter=${encodeURIComponent("price > 12")}`));
  assert.deepEqual(
    (await r.json()).map((a: { id: number }) => a.id),
    [1],
  );
});
