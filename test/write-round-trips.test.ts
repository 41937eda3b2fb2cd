/**
 * Writes that need no lookup (issue 6: a write is one batch wherever the semantics allow): a POST
 * with a key, or a PUT, on a class whose table holds no other class and in a body naming no other
 * object, is one round trip; the batch itself refuses a duplicate (409) or a missing object (404),
 * and a refused batch changes nothing. In a table shared by a hierarchy the guard also checks the
 * discriminator, so an object is never updated as a class it is not.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { type Harness, keySegment, startHarness } from "./support/harness.ts";

const metadata = [{ source: "package.jdo", text: readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8") }];
const TABLES = ["CATEGORY", "MEMBER", "LOANS", "ITEM", "BOOK"];

let h: Harness;
before(async () => {
  h = await startHarness({ metadata });
  assert.equal((await h.post("/org.extent.sample.Category", { id: 1, kind: "genre", name: "Fiction" })).status, 201);
  assert.equal((await h.post("/org.extent.sample.Member", { email: "ada@example.org", name: "Ada", phones: { home: "1" } })).status, 201);
  assert.equal((await h.post("/org.extent.sample.Book", { title: "Kindred", pages: 264 })).status, 201);
  assert.equal((await h.post("/org.extent.sample.Magazine", { title: "Locus", issue: 1 })).status, 201);
});
after(() => h.close());

async function snapshot(): Promise<string> {
  const parts = [];
  for (const t of TABLES) parts.push(JSON.stringify(await h.sql(`SELECT * FROM ${t} ORDER BY 1, 2`)));
  return parts.join("\n");
}

async function cost(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  h.store.reset();
  const reply = await h.call(method, path, body, headers);
  return { reply, roundTrips: h.store.roundTrips, statements: h.store.statements };
}

/** Cats and Dogs in one table (PET), told apart by their discriminator. */
const PETS = [
  {
    source: "p.jdo",
    text: `<jdo><package name="p">
    <class name="Pet" table="PET"><inheritance><discriminator column="KIND" value="P"/></inheritance>
      <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
      <field name="name" field-type="java.lang.String"/></class>
    <class name="Cat" persistence-capable-superclass="p.Pet"><inheritance strategy="superclass-table"><discriminator value="C"/></inheritance>
      <field name="lives" field-type="int"/></class>
    <class name="Dog" persistence-capable-superclass="p.Pet"><inheritance strategy="superclass-table"><discriminator value="D"/></inheritance></class>
  </package></jdo>`,
  },
];

const category = (id: number) => `/org.extent.sample.Category/${keySegment({ id, kind: "genre" })}`;

test("POST with a new key: one round trip; a duplicate is refused by the batch (409) and changes nothing", async () => {
  const created = await cost("POST", "/org.extent.sample.Category", { id: 2, kind: "genre", name: "Poetry" });
  assert.equal(created.reply.status, 201);
  assert.equal(created.roundTrips, 1);
  const before = await snapshot();
  for (const [path, body] of [
    ["/org.extent.sample.Category", { id: 1, kind: "genre", name: "Fiction again" }],
    ["/org.extent.sample.Member", { email: "ada@example.org", name: "Ada again", phones: { work: "2" } }],
  ] as const) {
    const refused = await cost("POST", path, body);
    assert.equal(refused.reply.status, 409, refused.reply.text);
    assert.match(refused.reply.headers.get("content-type") ?? "", /problem\+json/);
    assert.equal(refused.roundTrips, 1);
  }
  assert.equal(await snapshot(), before);
});

test("PUT of a class alone in its table: one round trip; a missing object is 404 from the batch and changes nothing", async () => {
  const updated = await cost("PUT", category(1), { name: "Fiction!" });
  assert.equal(updated.reply.status, 200);
  assert.equal(updated.reply.body.name, "Fiction!");
  assert.equal(updated.roundTrips, 1);
  const before = await snapshot();
  const missing = await cost("PUT", category(99), { name: "Nowhere" });
  assert.equal(missing.reply.status, 404);
  assert.equal(missing.reply.body.detail, 'no org.extent.sample.Category with key {"id":99,"kind":"genre","parent":null}');
  assert.equal(await snapshot(), before);
});

test("PUT in a shared table: the guard checks the discriminator, so a Magazine is never updated as a Book", async () => {
  const magazine = (await h.get("/org.extent.sample.Magazine")).body[0];
  const before = await snapshot();
  const wrong = await cost("PUT", `/org.extent.sample.Book/${magazine.id}`, { pages: 3 });
  assert.equal(wrong.reply.status, 404);
  assert.equal(wrong.roundTrips, 1);
  assert.equal(await snapshot(), before);
  const book = (await h.get("/org.extent.sample.Book")).body[0];
  const right = await cost("PUT", `/org.extent.sample.Book/${book.id}`, { pages: 265 });
  assert.equal(right.reply.status, 200);
  assert.equal(right.roundTrips, 1);
  // Through the superclass the object's class is not known before a lookup (its fields depend on it).
  const viaItem = await cost("PUT", `/org.extent.sample.Item/${book.id}`, { pages: 266 });
  assert.equal(viaItem.reply.status, 200, viaItem.reply.text);
  assert.equal(viaItem.reply.body.pages, 266);
  assert.equal(viaItem.roundTrips, 2);
});

test("PUT of an object's own row only: the UPDATE (by key and class) and the read-back, no guard; a missing or other-class object is 404 and changes nothing", async () => {
  const pets = await startHarness({ metadata: PETS });
  try {
    const cat = (await pets.post("/p.Cat", { name: "Tom", lives: 9 })).body.id;
    const dog = (await pets.post("/p.Dog", { name: "Rex" })).body.id;
    const put = async (path: string, body: unknown, headers?: Record<string, string>) => {
      pets.store.reset();
      const reply = await pets.call("PUT", path, body, headers);
      return { reply, roundTrips: pets.store.roundTrips, statements: pets.store.statements };
    };
    const own = await put(`/p.Cat/${cat}`, { lives: 8 });
    assert.equal(own.reply.status, 200, own.reply.text);
    assert.deepEqual(own.reply.body, { class: "p.Cat", id: cat, name: "Tom", lives: 8 });
    assert.deepEqual([own.roundTrips, own.statements], [1, 2]);
    const table = () => pets.sql(`SELECT id, KIND, name, lives FROM PET ORDER BY id`);
    const before = JSON.stringify(await table());
    // PET holds Dogs too: the UPDATE's class check leaves the Dog as it was.
    const wrong = await put(`/p.Cat/${dog}`, { name: "Not a cat", lives: 1 });
    assert.equal(wrong.reply.status, 404, wrong.reply.text);
    assert.match(wrong.reply.headers.get("content-type") ?? "", /problem\+json/);
    assert.equal(wrong.reply.body.detail, `no p.Cat with key ${dog}`);
    assert.equal(wrong.statements, 2);
    assert.equal((await put(`/p.Cat/987654`, { name: "Nowhere" })).reply.status, 404);
    // Guarded as before: no field at all, a precondition.
    const nothing = await put(`/p.Cat/${dog}`, {});
    assert.deepEqual([nothing.reply.status, nothing.statements], [404, 2]);
    const ifMatch = await put(`/p.Cat/${dog}`, { name: "Not a cat" }, { "if-match": "*" });
    assert.equal(ifMatch.reply.status, 404, ifMatch.reply.text);
    assert.equal(JSON.stringify(await table()), before);
  } finally {
    pets.close();
  }

  // A class alone in its table.
  const category1 = await cost("PUT", category(1), { name: "Fiction" });
  assert.deepEqual([category1.reply.status, category1.statements], [200, 2]);
  // A versioned class: the version steps in the same UPDATE (a step statement would not check the class).
  const book = (await h.get("/org.extent.sample.Book")).body[0];
  const retitled = await cost("PUT", `/org.extent.sample.Book/${book.id}`, { title: "Kindred!" });
  assert.deepEqual([retitled.reply.status, retitled.statements], [200, 2]);
  assert.equal(retitled.reply.body.version, book.version + 1);
  assert.equal(retitled.reply.headers.get("etag"), `"${book.version + 1}"`);
  const before = await snapshot();
  assert.equal((await cost("PUT", category(98), { name: "Nowhere" })).reply.status, 404);
  const magazine = (await h.get("/org.extent.sample.Magazine")).body[0];
  const asBook = await cost("PUT", `/org.extent.sample.Book/${magazine.id}`, { title: "Not a book" });
  assert.deepEqual([asBook.reply.status, asBook.statements], [404, 2]);
  // Fields in two tables, or a relation: the step statement and the guard, as before.
  const twoTables = await cost("PUT", `/org.extent.sample.Book/${magazine.id}`, { title: "Not a book", pages: 1 });
  assert.deepEqual([twoTables.reply.status, twoTables.statements], [404, 5]);
  assert.equal(await snapshot(), before);
  const both = await cost("PUT", `/org.extent.sample.Book/${book.id}`, { title: "Kindred", pages: 264 });
  assert.deepEqual([both.reply.status, both.reply.body.version], [200, book.version + 2]);
});

test("DELETE without a precondition: no guard, every row found through the object's primary row and class; a missing or other-class object is 404 and deletes nothing", async () => {
  const pets = await startHarness({ metadata: PETS });
  try {
    const cat = (await pets.post("/p.Cat", { name: "Tom", lives: 9 })).body.id;
    const dog = (await pets.post("/p.Dog", { name: "Rex" })).body.id;
    const del = async (path: string, headers?: Record<string, string>) => {
      pets.store.reset();
      const reply = await pets.call("DELETE", path, undefined, headers);
      return { status: reply.status, reply, statements: pets.store.statements };
    };
    const table = () => pets.sql(`SELECT id, KIND, name, lives FROM PET ORDER BY id`);
    const before = JSON.stringify(await table());
    // PET holds Dogs too: the DELETE's class check leaves the Dog where it is.
    const wrong = await del(`/p.Cat/${dog}`);
    assert.deepEqual([wrong.status, wrong.statements], [404, 1]);
    assert.equal(wrong.reply.body.detail, `no p.Cat with key ${dog}`);
    assert.deepEqual([(await del(`/p.Cat/987654`)).status, (await del(`/p.Pet/987654`)).status], [404, 404]);
    // A precondition is judged after the object's existence: the guard, as before. (`If-Match: *`
    // is no precondition beyond existence, so it needs none.)
    const ifNoneMatch = await del(`/p.Cat/${dog}`, { "if-none-match": "*" });
    assert.deepEqual([ifNoneMatch.status, ifNoneMatch.statements], [404, 3]);
    const ifMatch = await del(`/p.Cat/${dog}`, { "if-match": "*" });
    assert.deepEqual([ifMatch.status, ifMatch.statements], [404, 1]);
    assert.equal(JSON.stringify(await table()), before);
    const own = await del(`/p.Cat/${cat}`);
    assert.deepEqual([own.status, own.statements], [204, 1]);
    assert.deepEqual(await table(), [[dog, "D", "Rex", null]]);
    // The hierarchy's root deletes whichever class the object is.
    assert.equal((await del(`/p.Pet/${dog}`)).status, 204);
    assert.deepEqual(await table(), []);
  } finally {
    pets.close();
  }

  // The sample: a Book's rows in ITEM and BOOK, a Magazine's in ITEM alone.
  const magazine = (await h.get("/org.extent.sample.Magazine")).body[0];
  const before = await snapshot();
  const asBook = await cost("DELETE", `/org.extent.sample.Book/${magazine.id}`);
  const guarded = await cost("DELETE", `/org.extent.sample.Book/${magazine.id}`, undefined, { "if-none-match": "*" });
  assert.deepEqual([asBook.reply.status, guarded.reply.status], [404, 404]);
  // The guarded plan: the existence guard and the precondition's more.
  assert.equal(guarded.statements, asBook.statements + 2);
  assert.equal(await snapshot(), before);
  const id = (await h.post("/org.extent.sample.Book", { title: "Dawn", pages: 248 })).body.id;
  const gone = await cost("DELETE", `/org.extent.sample.Book/${id}`);
  assert.deepEqual([gone.reply.status, gone.statements], [204, asBook.statements]);
  assert.deepEqual([await h.sql("SELECT count(*) FROM ITEM WHERE id = ?", [id]), await h.sql("SELECT count(*) FROM BOOK WHERE id = ?", [id])], [[[0]], [[0]]]);
  assert.equal(await snapshot(), before);
});
