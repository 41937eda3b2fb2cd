/**
 * Collections of values kept in tables of their own (JDO `<join>`; JPA `@CollectionTable`):
 * written as rows, read back in the object's JSON on both read paths with no statement per
 * object, removed with their owner, created by the migration, and mapped onto a schema a Java
 * application made. Model: test/models/value-tables/package.jdo.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startHarness, type Harness } from "./support/harness.ts";

const MODEL = readFileSync(new URL("./models/value-tables/package.jdo", import.meta.url), "utf8");
const metadata = [{ source: "value-tables/package.jdo", text: MODEL }];

let h: Harness;
before(async () => {
  h = await startHarness({ metadata });
});
after(() => h?.close());

test("migrate creates each collection's table, indexed by its owner, and no JSON column for it", async () => {
  const columns = async (table: string) => (await h.sql(`SELECT name, type FROM pragma_table_info('${table}') ORDER BY cid`)).map((r) => `${r[0]} ${r[1]}`);
  assert.deepEqual(await columns("ITEM_TAGS"), ["ITEM_ID INTEGER", "TAG TEXT"]);
  assert.deepEqual(await columns("Item_scores"), ["Item_id INTEGER", "scores INTEGER", "IDX INTEGER"]);
  assert.deepEqual(await columns("BOOK_FLAGS"), ["BOOK INTEGER", "FLAG INTEGER", "POS INTEGER"]);
  const item = await columns("Item");
  assert.ok(!item.some((c) => c.startsWith("tags") || c.startsWith("scores")), item.join());
  assert.ok(item.includes("notes TEXT"), "a collection without <join> stays a JSON column");
  const indexes = await h.sql(`SELECT il.name FROM pragma_index_list('ITEM_TAGS') il`);
  assert.equal(indexes.length, 1);
  assert.deepEqual(await h.sql(`SELECT name FROM pragma_index_info('${indexes[0]![0]}')`), [["ITEM_ID"]]);
});

test("POST, GET, PUT and DELETE write and read the rows", async () => {
  const created = await h.post("/vt.Item", { id: 1, name: "a", tags: ["red", "blue", "red"], scores: [3, 1, 3], notes: ["n"] });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(await h.sql("SELECT ITEM_ID, TAG FROM ITEM_TAGS ORDER BY TAG"), [
    [1, "blue"],
    [1, "red"],
  ]);
  assert.deepEqual(await h.sql("SELECT Item_id, scores, IDX FROM Item_scores ORDER BY IDX"), [
    [1, 3, 0],
    [1, 1, 1],
    [1, 3, 2],
  ]);
  const read = await h.get("/vt.Item/1");
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.tags, ["blue", "red"]);
  assert.deepEqual(read.body.scores, [3, 1, 3]);
  assert.deepEqual(read.body.notes, ["n"]);

  const put = await h.put("/vt.Item/1", { tags: ["green"], scores: [] });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(await h.sql("SELECT ITEM_ID, TAG FROM ITEM_TAGS"), [[1, "green"]]);
  assert.deepEqual(await h.sql("SELECT count(*) FROM Item_scores"), [[0]]);
  const again = (await h.get("/vt.Item/1")).body;
  assert.deepEqual([again.tags, again.scores, again.name], [["green"], [], "a"]);

  // A PUT that leaves the collection out leaves its rows alone.
  assert.equal((await h.put("/vt.Item/1", { name: "b" })).status, 200);
  assert.deepEqual(await h.sql("SELECT TAG FROM ITEM_TAGS"), [["green"]]);

  assert.equal((await h.post("/vt.Item", { id: 2, tags: ["x"] })).status, 201);
  const deleted = await h.del("/vt.Item/1");
  assert.equal(deleted.status, 204, deleted.text);
  assert.deepEqual(await h.sql("SELECT ITEM_ID, TAG FROM ITEM_TAGS"), [[2, "x"]]);
  assert.deepEqual(await h.sql("SELECT count(*) FROM Item_scores"), [[0]]);
  assert.equal((await h.del("/vt.Item/2")).status, 204);
});

test("a subclass's collection, a list with its own order column, booleans kept as 1/0", async () => {
  const r = await h.post("/vt.Book", { id: 10, tags: ["t"], flags: [true, false, true] });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(await h.sql("SELECT BOOK, FLAG, POS FROM BOOK_FLAGS ORDER BY POS"), [
    [10, 1, 0],
    [10, 0, 1],
    [10, 1, 2],
  ]);
  const book = (await h.get("/vt.Book/10")).body;
  assert.deepEqual([book.class, book.tags, book.flags], ["vt.Book", ["t"], [true, false, true]]);
  const polymorphic = (await h.get("/vt.Item?fetchGroup=all")).body;
  assert.deepEqual(polymorphic.find((o: any) => o.id === 10).flags, [true, false, true]);
  assert.equal((await h.del("/vt.Book/10")).status, 204);
  assert.deepEqual(await h.sql("SELECT count(*) FROM BOOK_FLAGS UNION ALL SELECT count(*) FROM ITEM_TAGS"), [[0], [0]]);
});

test("the object path (maxFetchDepth=-1) reads what the JSON select reads", async () => {
  assert.equal((await h.post("/vt.Shelf", { id: 1 })).status, 201);
  for (const [id, cls] of [
    [20, "Item"],
    [21, "Book"],
  ] as const) {
    const r = await h.post(`/vt.${cls}`, { id, shelf: { id: 1 }, tags: [`t${id}`, "z"], scores: [id, 1], ...(cls === "Book" ? { flags: [false] } : {}) });
    assert.equal(r.status, 201, r.text);
  }
  // The model's deepest path is Shelf → Item → Shelf (a cycle): depth 4 reads what no limit reads.
  for (const path of ["/vt.Shelf/1?fetchGroup=all", "/vt.Item?fetchGroup=all", "/vt.Book/21?fetchGroup=all"]) {
    const json = await h.get(`${path}&maxFetchDepth=4`);
    const objects = await h.get(`${path}&maxFetchDepth=-1`);
    assert.equal(json.status, 200, json.text);
    assert.equal(objects.status, 200, objects.text);
    assert.deepEqual(objects.body, json.body, path);
  }
  const shelf = (await h.get("/vt.Shelf/1?fetchGroup=all&maxFetchDepth=-1")).body;
  assert.deepEqual(
    shelf.items.map((i: any) => [i.id, i.tags, i.scores, i.flags]),
    [
      [20, ["t20", "z"], [20, 1], undefined],
      [21, ["t21", "z"], [21, 1], [false]],
    ],
  );
});

test("statements per read do not grow with the number of objects", async () => {
  const cost = async () => {
    const out: number[] = [];
    for (const path of ["/vt.Item?fetchGroup=all", "/vt.Item?fetchGroup=all&maxFetchDepth=-1", "/vt.Shelf?fetchGroup=all&maxFetchDepth=2"]) {
      h.store.reset();
      assert.equal((await h.get(path)).status, 200);
      out.push(h.store.statements, h.store.roundTrips);
    }
    return out;
  };
  const few = await cost();
  for (let id = 100; id < 160; id++) {
    const r = await h.post(id % 2 ? "/vt.Book" : "/vt.Item", {
      id,
      shelf: { id: 1 },
      tags: ["a", `b${id}`],
      scores: [id],
      ...(id % 2 ? { flags: [true] } : {}),
    });
    assert.equal(r.status, 201, r.text);
  }
  assert.deepEqual(await cost(), few);
  assert.equal((await h.get("/vt.Item?fetchGroup=all")).body.length, 62);
});

test("a PUT of the collection alone is a change of the object: its version steps, a stale If-Match is refused and writes nothing", async () => {
  assert.equal((await h.post("/vt.Memo", { id: 1, lines: ["a", "b"] })).status, 201);
  const first = (await h.get("/vt.Memo/1")).body;
  assert.deepEqual([first.lines, first._version], [["a", "b"], 1]);
  const put = await h.call("PUT", "/vt.Memo/1", { lines: ["c"] }, { "if-match": '"1"' });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual([(await h.get("/vt.Memo/1")).body._version, (await h.get("/vt.Memo/1")).body.lines], [2, ["c"]]);
  const stale = await h.call("PUT", "/vt.Memo/1", { lines: ["d"] }, { "if-match": '"1"' });
  assert.equal(stale.status, 412, stale.text);
  assert.deepEqual(await h.sql("SELECT lines, IDX FROM Memo_lines"), [["c", 0]]);
});

test("cascades: a dependent element deleted with its owner, or released by a PUT, takes its rows along", async () => {
  for (const id of [30, 31, 32]) assert.equal((await h.post("/vt.Item", { id, tags: [`c${id}`] })).status, 201);
  assert.equal((await h.post("/vt.Box", { id: 1, contents: [{ id: 30 }, { id: 31 }] })).status, 201);
  assert.equal((await h.post("/vt.Box", { id: 2, contents: [{ id: 32 }] })).status, 201);
  const released = await h.put("/vt.Box/1", { contents: [{ id: 31 }] });
  assert.equal(released.status, 200, released.text);
  assert.equal((await h.get("/vt.Item/30")).status, 404);
  assert.deepEqual(await h.sql("SELECT ITEM_ID FROM ITEM_TAGS WHERE ITEM_ID BETWEEN 30 AND 39 ORDER BY 1"), [[31], [32]]);
  assert.equal((await h.del("/vt.Box/2")).status, 204);
  assert.equal((await h.get("/vt.Item/32")).status, 404);
  assert.deepEqual(await h.sql("SELECT ITEM_ID FROM ITEM_TAGS WHERE ITEM_ID BETWEEN 30 AND 39"), [[31]]);
});
