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

async function cost(method: string, path: string, body?: unknown) {
  h.store.reset();
  const reply = await h.call(method, path, body);
  return { reply, roundTrips: h.store.roundTrips };
}

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
