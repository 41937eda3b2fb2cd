/**
 * Access control, field rules (issue 18, contract §8): a field whose `read` list lacks every role of
 * the principal is absent from its JSON (by both read paths, nested objects included) and unknown
 * to its queries (400, wherever the query names it); one whose `write` list does is refused in
 * bodies (422, naming the place), and nothing is written.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { type AccessFixture, P, accessFixture, grant, seedLibrary } from "./support/access-fixture.ts";

const every = { read: [grant("*")], create: [grant("staff")], update: [grant("staff")], delete: [grant("admin")] };
const RULES = {
  default: "allow",
  classes: {
    [`${P}Item`]: { ...every, fields: { price: { read: ["staff"], write: ["admin"] }, author: { read: ["staff"] } } },
    // Book's own entry replaces Item's whole: its price and author are everyone's, its isbn and pages are not.
    [`${P}Book`]: { ...every, fields: { isbn: { read: ["staff"] }, pages: { write: ["admin"] } } },
    [`${P}Member`]: { ...every, fields: { borrowed: { read: ["staff"] } } },
  },
};

let f: AccessFixture;
before(async () => {
  f = await accessFixture(RULES);
  await seedLibrary(f);
});
after(() => f.close());

const q = (language: "jdoql" | "jpql", text: string) => `/${language}?query=${encodeURIComponent(text)}`;

async function refused(path: string, who: string | undefined, field: RegExp): Promise<void> {
  const r = await f.call("GET", path, who);
  const body = (await r.json()) as { status: number; detail: string };
  assert.equal(r.status, 400, `${path}: ${JSON.stringify(body)}`);
  assert.match(body.detail, field);
}

describe("read: hidden fields are absent", () => {
  test("from extents, objects by key and nested objects, by the JSON select and by the object path", async () => {
    for (const depth of ["", "&maxFetchDepth=-1"]) {
      const [cheap] = (await f.json("GET", `/${P}Magazine?fetchGroup=all${depth}`)).filter((m: { title: string }) => m.title === "Cheap");
      assert.deepEqual(Object.keys(cheap).sort(), ["_version", "class", "id", "issue", "published", "tags", "title", "version"]);
      const [staffCheap] = (await f.json("GET", `/${P}Magazine?fetchGroup=all${depth}`, "staff")).filter((m: { title: string }) => m.title === "Cheap");
      assert.equal(staffCheap.price, 5);
      // Books: their own entry hides isbn, not price or author.
      const [book] = await f.json("GET", `/${P}Book?fetchGroup=all${depth}`);
      assert.ok(!("isbn" in book) && "price" in book && "author" in book, JSON.stringify(book));
      // Nested: a shelf's items, a member's loans (hidden for guests: borrowed).
      const [shelf] = await f.json("GET", `/${P}Shelf?fetchGroup=all&maxFetchDepth=2${depth ? "" : ""}`);
      for (const item of shelf.items) assert.ok(!("isbn" in item), JSON.stringify(item));
      const members = await f.json("GET", `/${P}Member?fetchGroup=all${depth}`);
      assert.ok(members.every((m: object) => !("borrowed" in m)));
      assert.ok((await f.json("GET", `/${P}Member?fetchGroup=all${depth}`, "staff")).every((m: object) => "borrowed" in m));
    }
  });

  test("a hidden reference is not even its identity", async () => {
    const cheap = (await f.json("GET", `/${P}Magazine`)).find((m: { title: string }) => m.title === "Cheap");
    assert.ok(!("author" in cheap));
  });
});

describe("read: queries may not name hidden fields", () => {
  test("filters, orderings, results, aggregates, navigations, joins and subqueries: 400 as an unknown field", async () => {
    await refused(`/${P}Magazine?filter=${encodeURIComponent("price > 1")}`, undefined, /unknown field "price"/);
    await refused(q("jdoql", `SELECT FROM ${P}Magazine ORDER BY price`), undefined, /line 1, column \d+: unknown field "price"/);
    await refused(q("jdoql", `SELECT max(price) FROM ${P}Magazine`), undefined, /price/);
    await refused(q("jdoql", `SELECT FROM ${P}Item WHERE author.name == 'Ursula'`), undefined, /unknown field "author"/);
    await refused(q("jpql", "SELECT m.price FROM Magazine m"), undefined, /price/);
    await refused(q("jpql", "SELECT b.title FROM Member m JOIN m.borrowed b"), undefined, /unknown field "borrowed"/);
    await refused(q("jpql", "SELECT b.title FROM Book b WHERE EXISTS (SELECT m FROM Magazine m WHERE m.price > 1)"), undefined, /price/);
    await refused(q("jdoql", `SELECT FROM ${P}Book WHERE isbn != null`), undefined, /isbn/);
    // The same queries are fine for a principal who may read the fields; Book's own price is anyone's.
    assert.equal((await f.call("GET", q("jdoql", `SELECT FROM ${P}Magazine ORDER BY price`), "staff")).status, 200);
    assert.equal((await f.call("GET", q("jpql", "SELECT b.title FROM Member m JOIN m.borrowed b"), "staff")).status, 200);
    assert.deepEqual(await f.json("GET", q("jdoql", `SELECT title FROM ${P}Book WHERE price > 50`)), ["Dear"]);
  });
});

describe("write: fields the principal may not write", () => {
  test("are refused in bodies with their place (422), nested objects included; nothing is written", async () => {
    const magazine = (await f.json("GET", `/${P}Magazine`)).find((m: { title: string }) => m.title === "Cheap");
    const r = await f.call("PUT", `/${P}Magazine/${magazine.id}`, "staff", { title: "Cheaper", price: 1 });
    assert.equal(r.status, 422);
    assert.deepEqual(((await r.json()) as { errors: unknown[] }).errors, [{ path: "/price", message: `the principal may not write price of ${P}Magazine` }]);
    const nested = await f.call("POST", `/${P}Shelf`, "staff", { code: "n1", label: "new", items: [{ class: `${P}Book`, title: "T", pages: 3 }] });
    assert.equal(nested.status, 422);
    assert.match(JSON.stringify(await nested.json()), /"path":"\/items\/0\/pages"/);
    assert.equal((await f.call("GET", `/${P}Shelf/n1`, "staff")).status, 404);
    assert.equal((await f.json("GET", `/${P}Magazine/${magazine.id}`, "staff")).title, "Cheap");
    // The administrator may write them.
    assert.equal((await f.call("PUT", `/${P}Magazine/${magazine.id}`, "admin", { price: 1 })).status, 200);
  });
});
