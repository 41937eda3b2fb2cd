/**
 * A write's new rows go in one INSERT per table and column list (src/write/insert-rows.ts): a
 * POST's statements do not grow with the objects it creates of one class, a long run of rows is
 * split so that no statement binds more than 100 values (D1's limit), every row is stored as it
 * was sent, and a refused row refuses the whole batch.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { type Harness, startHarness } from "./support/harness.ts";
import { RecordingStore } from "./support/recording-store.ts";
import { PARAMETERS_PER_STATEMENT } from "../src/write/insert-rows.ts";

const metadata = [{ source: "package.jdo", text: readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8") }];
const AUTHOR = "/org.extent.sample.Author";

let h: Harness;
let recorder: RecordingStore;
before(async () => {
  h = await startHarness({ metadata }, {}, { wrapStore: (s) => (recorder = new RecordingStore(s)) });
});
after(() => h.close());

const book = (i: number, extra: Record<string, unknown> = {}) => ({
  class: "org.extent.sample.Book",
  title: `Book ${i}`,
  pages: 100 + i,
  isbn: `isbn-${i}`,
  ...extra,
});

/** POSTs an author with `works`; the answer and the statements it ran. */
async function postAuthor(name: string, works: unknown[]) {
  recorder.clear();
  const reply = await h.post(AUTHOR, { name, works });
  return { reply, statements: recorder.take() };
}

const insertsInto = <S extends { sql: string }>(statements: S[], table: string): S[] => statements.filter((s) => s.sql.startsWith(`INSERT INTO "${table}"`));

/** The stored works of the author with `name`: title, pages, isbn and the Item's class, by title. */
async function storedWorks(name: string) {
  return h.sql(
    `SELECT i.title, b.pages, b.isbn, i.KIND, i.VERSION FROM ITEM i LEFT JOIN BOOK b ON b.id = i.id JOIN AUTHOR a ON i.author = a._id WHERE a.name = ? ORDER BY i.title`,
    [name],
  );
}

test("a POST's statements do not grow with the new objects of one class: one INSERT per table", async () => {
  const one = await postAuthor("One", [book(1)]);
  const eight = await postAuthor(
    "Eight",
    Array.from({ length: 8 }, (_, i) => book(i)),
  );
  assert.equal(one.reply.status, 201, one.reply.text);
  assert.equal(eight.reply.status, 201, eight.reply.text);
  assert.equal(eight.statements.length, one.statements.length);
  assert.equal(insertsInto(eight.statements, "ITEM").length, 1);
  assert.equal(insertsInto(eight.statements, "BOOK").length, 1);
  assert.equal(eight.reply.body.works.length, 8);
  const stored = await storedWorks("Eight");
  assert.deepEqual(
    stored,
    Array.from({ length: 8 }, (_, i) => [`Book ${i}`, 100 + i, `isbn-${i}`, "BOOK", 1]),
  );
  // Each new Book has its own key, and reads back as it was sent.
  const ids = new Set(eight.reply.body.works.map((w: { id: number }) => w.id));
  assert.equal(ids.size, 8);
  for (const w of eight.reply.body.works as { id: number; title: string }[]) {
    const read = await h.get(`/org.extent.sample.Book/${w.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.title, w.title);
  }
});

test(`a long run of rows is split: no INSERT binds more than ${PARAMETERS_PER_STATEMENT} values`, async () => {
  const works = [...Array.from({ length: 70 }, (_, i) => book(i, { tags: [`t${i}`] })), { class: "org.extent.sample.Magazine", title: "Zine", issue: 3 }];
  const { reply, statements } = await postAuthor("Seventy", works);
  assert.equal(reply.status, 201, reply.text);
  const inserts = statements.filter((s) => s.sql.startsWith("INSERT INTO"));
  assert.ok(
    inserts.every((s) => s.params.length <= PARAMETERS_PER_STATEMENT),
    inserts.map((s) => s.params.length).join(","),
  );
  assert.ok(insertsInto(statements, "BOOK").length > 1, "70 Books take more than one INSERT");
  assert.ok(statements.length < 20, `${statements.length} statements`);
  const stored = await storedWorks("Seventy");
  assert.equal(stored.length, 71);
  assert.deepEqual(stored.at(-1), ["Zine", null, null, "MAGAZINE", 1]);
  const titles = new Set(stored.map((r) => r[0]));
  for (let i = 0; i < 70; i++) assert.ok(titles.has(`Book ${i}`));
  const tags = await h.sql(`SELECT i.title, i.tags FROM ITEM i JOIN AUTHOR a ON i.author = a._id WHERE a.name = 'Seventy' AND i.KIND = 'BOOK'`);
  assert.equal(tags.length, 70);
  for (const [title, t] of tags) assert.deepEqual(JSON.parse(t as string), [`t${(title as string).slice(5)}`]);
});

test("rows with given and generated keys go in one statement; an existing object among the new ones is updated, not inserted", async () => {
  const mixed = await postAuthor("Mixed", [book(1, { id: 9001 }), book(2), book(3, { id: 9003 })]);
  assert.equal(mixed.reply.status, 201, mixed.reply.text);
  assert.equal(insertsInto(mixed.statements, "BOOK").length, 1);
  assert.deepEqual(
    (await storedWorks("Mixed")).map((r) => r[0]),
    ["Book 1", "Book 2", "Book 3"],
  );
  assert.deepEqual(await h.sql("SELECT id FROM ITEM WHERE id IN (9001, 9003) ORDER BY id"), [[9001], [9003]]);

  const moved = await postAuthor("Moved", [book(4), book(5, { id: 9003 }), book(6)]);
  assert.equal(moved.reply.status, 201, moved.reply.text);
  const inserted = insertsInto(moved.statements, "BOOK");
  assert.equal(inserted.length, 1);
  assert.ok(!inserted[0]!.params.includes(9003), "the existing Book is not inserted again");
  // Book 3 is now Book 5, the Moved author's, its version stepped; Books 4 and 6 are new.
  assert.deepEqual(await storedWorks("Moved"), [
    ["Book 4", 104, "isbn-4", "BOOK", 1],
    ["Book 5", 105, "isbn-5", "BOOK", 2],
    ["Book 6", 106, "isbn-6", "BOOK", 1],
  ]);
  assert.deepEqual(await h.sql("SELECT COUNT(*) FROM ITEM WHERE id = 9003"), [[1]]);
});
