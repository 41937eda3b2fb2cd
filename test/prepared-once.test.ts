/**
 * Every statement Extent runs is prepared once and then only run (src/store/sql.ts, `unplanned`).
 * SQLite plans with the value bound to a bare `?` in a LIMIT or a LIKE or GLOB pattern, and then
 * prepares the statement again at every run: that cost about as much as preparing it, and a time
 * limit that fell due meanwhile was lost (the statement ran to its end). SQLite counts the
 * re-preparations of each statement of a connection in its `sqlite_stmt` table: on `:memory:`, one
 * connection runs every statement, so the table sees them all.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sampleHarness } from "./fuzz/world.ts";
import type { Harness } from "./support/harness.ts";
import type { Store } from "../src/store/store.ts";
import { openSync } from "../src/store/native-libsql.ts";

let h: Harness;
let store: Store;

before(async () => {
  h = await sampleHarness(undefined, ":memory:", { wrapStore: (s) => (store = s) });
});
after(() => h.close());

/** Each statement's SQL and how often it was prepared again and run. */
async function statements(): Promise<Map<string, { reprep: number; run: number }>> {
  const [result] = await store.batch([{ sql: "SELECT sql, reprep, run FROM sqlite_stmt", params: [] }], "read");
  return new Map(result!.rows.map((r) => [String(r[0]), { reprep: Number(r[1]), run: Number(r[2]) }]));
}

const q = encodeURIComponent;
const BOOK = "org.extent.sample.Book";

/** Requests of every kind whose SQL binds a LIMIT or a pattern, with the `i`th set of values. */
async function requests(i: number): Promise<void> {
  const paths = [
    `/${BOOK}?range=0,${i + 1}`,
    `/${BOOK}?filter=${q(`author.name == "${["Carl Sagan", "Ursula K. Le Guin", "nobody"][i % 3]}"`)}`,
    `/${BOOK}?filter=${q(`title.matches("${["The.*", "Cos.*", "(?i)a.*"][i % 3]}")`)}`,
    `/jdoql?query=${q(`SELECT title FROM ${BOOK} WHERE title.matches(:p) RANGE 0, ${i + 2}`)}&params=${q(JSON.stringify({ p: [".*s.*", "A.*", "C.*"][i % 3] }))}`,
    `/jpql?query=${q(`SELECT b.title, b.pages FROM Book b WHERE b.title LIKE :p ORDER BY b.pages`)}&params=${q(JSON.stringify({ p: ["%o%", "A%", "_o%"][i % 3] }))}`,
    `/jpql?query=${q(`SELECT b FROM Book b WHERE b.title LIKE '%${"aeo"[i % 3]}%'`)}`,
  ];
  for (const path of paths) {
    const r = await h.get(path);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
  }
  // Keyset paging: the first page's `next` link carries a cursor.
  const first = await h.get(`/${BOOK}?range=0,1`);
  const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
  assert.ok(next, "the first page links the next");
  assert.equal((await h.get(new URL(next, "http://localhost").pathname + new URL(next, "http://localhost").search)).status, 200);
}

test("no statement Extent runs is prepared again when it runs with other values", async () => {
  await requests(0);
  const warm = await statements();
  for (let i = 1; i <= 3; i++) await requests(i);
  const now = await statements();
  const again = [...now].filter(([sql, s]) => s.reprep > (warm.get(sql)?.reprep ?? 0));
  assert.deepEqual(
    again.map(([sql, s]) => `${s.reprep} of ${s.run} runs: ${sql.slice(0, 160)}`),
    [],
  );
  // The statements that bind a LIMIT and a pattern ran at every round: the test saw them.
  const rerun = [...now].filter(([sql, s]) => s.run > (warm.get(sql)?.run ?? 0) + 2).map(([sql]) => sql);
  for (const bound of ["LIMIT +?", "GLOB +?"])
    assert.ok(
      rerun.some((sql) => sql.includes(bound)),
      `a statement with ${bound} ran at every round`,
    );
});

test("sqlite_stmt sees a statement prepared again: a bare ? as a LIMIT or a GLOB pattern, not +?", async () => {
  const db = await openSync(":memory:");
  try {
    db.exec("CREATE TABLE t(s TEXT)");
    const texts = [
      "SELECT s FROM t LIMIT ?",
      "SELECT s FROM t LIMIT (?)",
      "SELECT s FROM t WHERE s GLOB ?",
      "SELECT s FROM t LIMIT +?",
      "SELECT s FROM t WHERE s GLOB +?",
    ];
    const prepared = texts.map((text) => db.prepare(text).raw(true));
    for (const value of [1, 2, 3]) for (const p of prepared) p.get([value]);
    const counts = new Map(
      db
        .prepare("SELECT sql, reprep FROM sqlite_stmt")
        .raw(true)
        .all([])
        .map((r) => [r[0], r[1]]),
    );
    assert.deepEqual(
      texts.map((t) => counts.get(t)),
      [3, 3, 3, 0, 0],
    );
  } finally {
    db.close();
  }
});
