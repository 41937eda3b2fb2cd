/**
 * The embedded store reads rows without the `libsql` binding's row iterator (which keeps native
 * memory per call): a read answers its rows as one text of SQL literals (src/store/quoted-rows.ts),
 * and a read of one row fetches it alone. Every storage class comes back as the iterator gave it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedStore } from "../src/store/embedded-store.ts";
import { decodeQuotedRows, quotedRowsSql } from "../src/store/quoted-rows.ts";

const VALUES: unknown[] = [
  0,
  -1,
  42,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  0.1 + 0.2,
  1e-7,
  5e-324,
  1.7976931348623157e308,
  -1.5,
  1e21,
  Infinity,
  -Infinity,
  null,
  "",
  "plain",
  "it's",
  "''",
  "a,b",
  "NULL",
  "X'00'",
  "1.5",
  "line\nbreak",
  "tab\tand \u0001 control",
  "é 😀 \u2028",
  "'",
  "',',",
  new Uint8Array([]),
  new Uint8Array([0, 1, 2, 39, 44, 255]),
];

async function withStore(run: (store: EmbeddedStore) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "extent-embedded-"));
  const store = await EmbeddedStore.open(join(dir, "t.db"));
  try {
    await run(store);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("rows read as one text of SQL literals hold every storage class as it was stored", async () => {
  await withStore(async (store) => {
    await store.batch([{ sql: "CREATE TABLE t(n INTEGER PRIMARY KEY, v)", params: [] }], "write");
    await store.batch(
      VALUES.map((v, n) => ({ sql: "INSERT INTO t VALUES (?, ?)", params: [n, v] })),
      "write",
    );
    const [all] = await store.batch([{ sql: "SELECT n, v, typeof(v) AS t FROM t ORDER BY n", params: [] }], "read");
    assert.equal(all!.rows.length, VALUES.length);
    all!.rows.forEach(([n, v, type], i) => {
      assert.equal(n, i);
      const expected = VALUES[i];
      if (expected instanceof Uint8Array) {
        assert.equal(type, "blob");
        assert.deepEqual([...(v as Uint8Array)], [...expected]);
      } else assert.deepStrictEqual(v, expected, `value ${i}: ${String(expected)}`);
    });
    // No rows, and one row fetched alone.
    assert.deepEqual((await store.batch([{ sql: "SELECT n FROM t WHERE n < 0", params: [] }], "read"))[0]!.rows, []);
    assert.deepEqual((await store.batch([{ sql: "SELECT n, v FROM t WHERE n = ?", params: [2], oneRow: true }], "read"))[0]!.rows, [[2, 42]]);
    assert.deepEqual((await store.batch([{ sql: "SELECT n, v FROM t WHERE n = ?", params: [-5], oneRow: true }], "read"))[0]!.rows, []);
    // A read that cannot be wrapped still answers.
    assert.ok((await store.batch([{ sql: "PRAGMA table_info(t)", params: [] }], "read"))[0]!.rows.length === 2);
  });
});

test("a statement that failed answers again with other values", async () => {
  await withStore(async (store) => {
    const like = { sql: "SELECT ? LIKE ? AS m", params: ["abc", "x".repeat(60_000)] };
    await assert.rejects(store.batch([like], "read"), /pattern too complex/);
    assert.deepEqual((await store.batch([{ ...like, params: ["abc", "a%"] }], "read"))[0]!.rows, [[1]]);
  });
});

test("the literal reader splits rows by width and reads what quote() writes", () => {
  assert.equal(quotedRowsSql("SELECT 1, 2", 2), "WITH q(a0, a1) AS (SELECT 1, 2) SELECT group_concat(quote(a0) || ',' || quote(a1), ',') FROM q");
  assert.deepEqual(decodeQuotedRows(null, 2), []);
  assert.deepEqual(decodeQuotedRows("1,'a,''b',NULL,X'00FF',3.00000000000000044e-01,-Inf", 3), [
    [1, "a,'b", null],
    [new Uint8Array([0, 255]), 0.30000000000000004, -Infinity],
  ]);
});
