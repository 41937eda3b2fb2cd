/**
 * One identity given twice in one body is one object (issue 16, item 7): its occurrences' fields
 * are joined; two classes that cannot be one object's, or one field given two values, is a 422
 * whose `errors` point at the later occurrence, and nothing changes. Models: the sample (Item,
 * Book, Magazine in one hierarchy; Shelf.items an ordered join table; Author.works mapped-by)
 * and two unrelated classes keeping their rows in one table.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { databaseDigest } from "./support/digest.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const S = "org.extent.sample";
const SHELF = `/${S}.Shelf`;

/** A 422 whose errors are exactly at `paths`, and a database the request left as it was. */
async function refused(h: Harness, send: () => Promise<Reply>, paths: string[], message: RegExp): Promise<void> {
  const before = await databaseDigest(h.sql);
  const r = await send();
  assert.equal(r.status, 422, r.text.slice(0, 500));
  assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
  assert.deepEqual(
    r.body.errors.map((e: { path: string }) => e.path),
    paths,
    r.text,
  );
  for (const e of r.body.errors) assert.match(e.message, message);
  assert.equal(await databaseDigest(h.sql), before, "a refused request changed the database");
}

describe("one identity twice in one body", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ metadata: sample.metadata });
  });
  after(() => h.close());

  test("a new Book 5 and a new Magazine 5 are one object of two classes: 422 at the second", async () => {
    const body = {
      label: "s",
      items: [
        { class: `${S}.Book`, id: 5, title: "B", pages: 1 },
        { class: `${S}.Magazine`, id: 5, issue: 3 },
      ],
    };
    await refused(
      h,
      () => h.post(SHELF, body),
      ["/items/1"],
      /the object at \/items\/0 again \(the same identity\), which is a org.extent.sample.Book: one object cannot also be a org.extent.sample.Magazine/,
    );
    assert.equal((await h.get(`/${S}.Item/5`)).status, 404);
  });

  test("the later occurrence in the body is the one named, when it is nested inside the first", async () => {
    // The root Book 7 is read after its nested Magazine 7 (its fields first), but comes first in the body.
    const body = { class: `${S}.Book`, id: 7, title: "Root", author: { name: "A", works: [{ class: `${S}.Magazine`, id: 7, issue: 1 }] } };
    await refused(h, () => h.post(`/${S}.Item`, body), ["/author/works/0"], /the object at the root again .* cannot also be a org.extent.sample.Magazine/);
  });

  test("an existing object given twice with two classes is refused the same way (PUT)", async () => {
    const book = (await h.post(`/${S}.Book`, { title: "Kept", isbn: "k" })).body.id;
    const shelf = (await h.post(SHELF, { label: "t" })).body.code;
    const body = {
      items: [
        { class: `${S}.Book`, id: book },
        { class: `${S}.Magazine`, id: book, issue: 2 },
      ],
    };
    await refused(h, () => h.put(`${SHELF}/${shelf}`, body), ["/items/1"], /cannot also be a org.extent.sample.Magazine/);
  });

  test("the same class twice with compatible fields is one object with the fields of both", async () => {
    const body = {
      label: "u",
      items: [
        { class: `${S}.Book`, id: 11, title: "T" },
        { class: `${S}.Book`, id: 11, pages: 3, title: "T" },
      ],
    };
    const r = await h.post(`${SHELF}?maxFetchDepth=2`, body);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      r.body.items.map((i: any) => [i.id, i.title, i.pages]),
      [[11, "T", 3]],
    );
    const book = (await h.get(`/${S}.Book/11`)).body;
    assert.equal(book.title, "T");
    assert.equal(book.pages, 3);
    assert.equal(book._version, 1);
  });

  test("a superclass and its subclass are one object of the subclass, whichever comes first", async () => {
    for (const [id, items] of [
      [
        12,
        [
          { id: 12, title: "Item first" },
          { class: `${S}.Book`, id: 12, pages: 4 },
        ],
      ],
      [
        13,
        [
          { class: `${S}.Book`, id: 13, pages: 4 },
          { class: `${S}.Item`, id: 13, title: "Book first" },
        ],
      ],
    ] as const) {
      const r = await h.post(SHELF, { label: `v${id}`, items });
      assert.equal(r.status, 201, r.text);
      const book = (await h.get(`/${S}.Item/${id}`)).body;
      assert.equal(book.class, `${S}.Book`);
      assert.equal(book.pages, 4);
    }
  });

  test("one field given two values is 422 at the later occurrence's field, each field that differs", async () => {
    const author = (await h.post(`/${S}.Author`, { name: "Someone" })).body._id;
    const body = {
      label: "w",
      items: [
        { class: `${S}.Book`, id: 20, title: "A", pages: 1, tags: ["x"], author: { _id: author } },
        { class: `${S}.Book`, id: 20, title: "B", pages: 1, tags: ["y"], author: null },
      ],
    };
    await refused(
      h,
      () => h.post(SHELF, body),
      ["/items/1/title", "/items/1/tags", "/items/1/author"],
      /the object at \/items\/0 has the same identity and gives \w+ another value/,
    );
  });

  test("two different new objects in one to-one field of one identity are two values", async () => {
    const body = {
      label: "x",
      items: [
        { class: `${S}.Book`, id: 21, author: { name: "One" } },
        { class: `${S}.Book`, id: 21, author: { name: "Two" } },
      ],
    };
    await refused(h, () => h.post(SHELF, body), ["/items/1/author"], /gives author another value/);
  });
});

describe("one key twice in a table that two unrelated classes share", () => {
  const MODEL = `<?xml version="1.0"?>
<jdo xmlns="https://db.apache.org/jdo/xmlns/jdo"><package name="p">
  <class name="A" identity-type="application" table="T"><field name="id" primary-key="true" field-type="long"/><field name="name" field-type="String"/><field name="b" field-type="B"/></class>
  <class name="B" identity-type="application" table="T"><field name="id" primary-key="true" field-type="long"/><field name="label" field-type="String"/></class>
</package></jdo>`;
  let h: Harness;
  before(async () => {
    h = await startHarness({ metadata: [{ source: "shared-table.jdo", text: MODEL }] });
  });
  after(() => h.close());

  test("an A 5 holding a new B 5 is one row of two classes: 422 at the B", async () => {
    await refused(
      h,
      () => h.post("/p.A", { id: 5, name: "a", b: { id: 5, label: "x" } }),
      ["/b"],
      /the same key in a table whose rows both classes share.*cannot also be a p.B/,
    );
    const ok = await h.post("/p.A", { id: 6, name: "a", b: { id: 7, label: "x" } });
    assert.equal(ok.status, 201, ok.text);
  });
});
