/**
 * Access control, reads (issue 18, contract §8): rules over the sample model, enforced by the real
 * handler over a real libSQL database for principals with different roles and claims. Every read
 * path (extents, keys, HEAD, filters, JDOQL and JPQL with navigations, variables, joins,
 * subqueries, aggregates; fetch plans nesting related objects; references) shows only what
 * `read` grants, and a class the principal has no grant for is a 401 or 403.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { type AccessFixture, P, accessFixture, grant, seedLibrary } from "./support/access-fixture.ts";
import { RecordingStore } from "./support/recording-store.ts";
import { EmbeddedStore } from "../src/store/embedded-store.ts";

const admin = { create: [grant("admin")], update: [grant("admin")], delete: [grant("admin")] };

const RULES = {
  default: "deny",
  classes: {
    [`${P}Author`]: { read: [grant("*", "name != 'Hidden Author'"), grant("staff")], ...admin },
    [`${P}Item`]: { read: [grant("*", "price < 50"), grant("staff")], ...admin },
    [`${P}Book`]: { read: [grant("staff"), grant("member", "pages < 500")], ...admin },
    [`${P}Member`]: { read: [grant("member", "email == :email"), grant("staff")], ...admin },
    [`${P}Shelf`]: { read: [grant("*")], ...admin },
  },
};

let f: AccessFixture;
const call = (method: string, path: string, who?: string, body?: unknown) => f.call(method, path, who, body);
const json = (method: string, path: string, who?: string, body?: unknown) => f.json(method, path, who, body);
const q = (language: "jdoql" | "jpql", text: string) => `/${language}?query=${encodeURIComponent(text)}`;
const ids = (objects: { title?: string }[]) => objects.map((o) => o.title).sort();

before(async () => {
  f = await accessFixture(RULES);
  await seedLibrary(f);
});
after(() => f.close());

describe("which classes a principal may read at all", () => {
  test("a class without a grant: 401 with WWW-Authenticate for a request without credentials, 403 for a principal", async () => {
    const anonymous = await call("GET", `/${P}Category`);
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.match(anonymous.headers.get("content-type") ?? "", /problem\+json/);
    assert.equal(((await anonymous.json()) as { title: string }).title, "Unauthorized");
    assert.equal((await call("GET", `/${P}Category`, "ann")).status, 403);
    assert.equal((await call("GET", `/${P}Category/1`, "ann")).status, 403);
    assert.equal((await call("HEAD", `/${P}Category`, "ann")).status, 403);
    assert.equal((await call("GET", q("jdoql", `SELECT FROM ${P}Category`), "ann")).status, 403);
    assert.equal((await call("GET", q("jpql", "SELECT c FROM Category c"), "ann")).status, 403);
    // The anonymous role has no grant of Book: asked for credentials.
    assert.equal((await call("GET", `/${P}Book`)).status, 401);
    // An unknown class is still a 404, whatever the principal.
    assert.equal((await call("GET", `/${P}Nothing`)).status, 404);
  });

  test("writes without a grant: 401 anonymous, 403 for a principal, nothing written", async () => {
    assert.equal((await call("POST", `/${P}Shelf`, undefined, { code: "s9", label: "x" })).status, 401);
    assert.equal((await call("POST", `/${P}Shelf`, "ann", { code: "s9", label: "x" })).status, 403);
    assert.equal((await call("PUT", `/${P}Shelf/s1`, "ann", { label: "x" })).status, 403);
    assert.equal((await call("DELETE", `/${P}Shelf/s1`, "ann")).status, 403);
    assert.equal((await call("DELETE", `/${P}Shelf`, "ann")).status, 403);
    const shelves = await json("GET", `/${P}Shelf`, "ann");
    assert.deepEqual(
      shelves.map((s: { code: string; label: string }) => [s.code, s.label]),
      [["s1", "front"]],
    );
  });
});

describe("row rules on every read path", () => {
  test("extents: each class's own rules, subclasses with their own entry, the anonymous role", async () => {
    assert.deepEqual(ids(await json("GET", `/${P}Item`, "staff")), ["Cheap", "Dear", "Dear mag", "Long", "Secret", "Short"]);
    // Books follow Book's entry (member: pages < 500); magazines Item's (anyone: price < 50).
    assert.deepEqual(ids(await json("GET", `/${P}Item`, "ann")), ["Cheap", "Dear", "Secret", "Short"]);
    assert.deepEqual(ids(await json("GET", `/${P}Book`, "ann")), ["Dear", "Secret", "Short"]);
    // Anonymous (guest): no Book grant at all, so books are hidden in Item's extent.
    assert.deepEqual(ids(await json("GET", `/${P}Item`)), ["Cheap"]);
  });

  test("by key: what read hides is a 404, for GET and HEAD", async () => {
    const all: { id: number; title: string }[] = await json("GET", `/${P}Book`, "staff");
    const long = all.find((b) => b.title === "Long")!.id;
    const short = all.find((b) => b.title === "Short")!.id;
    assert.equal((await call("GET", `/${P}Book/${short}`, "ann")).status, 200);
    assert.equal((await call("GET", `/${P}Book/${long}`, "ann")).status, 404);
    assert.equal((await call("HEAD", `/${P}Book/${long}`, "ann")).status, 404);
    assert.equal((await call("GET", `/${P}Item/${long}`, "ann")).status, 404);
    assert.equal((await call("GET", `/${P}Book/${long}`, "staff")).status, 200);
  });

  test("claims are bound: each member reads only itself; a missing or hostile claim reads nothing", async () => {
    assert.deepEqual(
      (await json("GET", `/${P}Member`, "ann")).map((m: { name: string }) => m.name),
      ["Ann"],
    );
    assert.deepEqual(
      (await json("GET", `/${P}Member`, "bob")).map((m: { name: string }) => m.name),
      ["Bob"],
    );
    assert.equal((await call("GET", `/${P}Member/bob@x.org`, "ann")).status, 404);
    assert.deepEqual(await json("GET", `/${P}Member`, "noEmail"), []);
    assert.deepEqual(await json("GET", `/${P}Member`, "sneaky"), []);
    assert.equal((await json("GET", `/${P}Member`, "staff")).length, 2);
  });

  test("collections leave hidden elements out; references to hidden objects are null", async () => {
    const [ann] = await json("GET", `/${P}Member?fetchGroup=all`, "ann");
    assert.deepEqual(
      ann.borrowed.map((b: { title: string }) => b.title),
      ["Short"],
    );
    const [shelf] = await json("GET", `/${P}Shelf?fetchGroup=all`, "ann");
    assert.deepEqual(ids(shelf.items), ["Dear", "Short"]);
    const [guestShelf] = await json("GET", `/${P}Shelf?fetchGroup=all`);
    assert.deepEqual(guestShelf.items, []);
    const secret = (await json("GET", `/${P}Book?fetchGroup=withAuthor`, "ann")).find((b: { title: string }) => b.title === "Secret");
    assert.equal(secret.author, null);
    const staffSecret = (await json("GET", `/${P}Book?fetchGroup=withAuthor`, "staff")).find((b: { title: string }) => b.title === "Secret");
    assert.equal(staffSecret.author.name, "Hidden Author");
    // The author's works: only the books the principal may read.
    const authors = await json("GET", `/${P}Author?fetchGroup=all`, "ann");
    assert.deepEqual(
      authors.map((a: { name: string; works: { title: string }[] }) => [a.name, ids(a.works)]),
      [["Ursula", ["Dear", "Short"]]],
    );
  });

  test("pages and their totals (Prefer: count=exact) hold only what read shows", async () => {
    const page = await f.call("GET", `/${P}Book?ordering=${encodeURIComponent("pages desc")}&range=0,2`, "ann", undefined, { prefer: "count=exact" });
    assert.equal(page.headers.get("content-range"), "items 0-1/3");
    assert.deepEqual(ids(await page.json()), ["Secret", "Dear"].sort());
    const next = /<[^>]*>; rel="next"/
      .exec(page.headers.get("link") ?? "")![0]
      .slice(1)
      .split(">")[0]!;
    const rest = await f.call("GET", next, "ann", undefined, { prefer: "count=exact" });
    assert.equal(rest.headers.get("content-range"), "items 2-2/3");
    assert.deepEqual(ids(await rest.json()), ["Short"]);
    assert.equal((await f.call("GET", `/${P}Member?range=0,10`)).status, 401);
  });

  test("filters and their HEAD count only what read shows", async () => {
    assert.deepEqual(ids(await json("GET", `/${P}Book?filter=${encodeURIComponent("pages > 0")}`, "ann")), ["Dear", "Secret", "Short"]);
    const head = await call("HEAD", `/${P}Book?filter=${encodeURIComponent("pages > 0")}`, "ann");
    assert.equal(head.headers.get("x-match-count"), "3");
    // Comparing through a hidden reference finds nothing: the reference is null.
    assert.deepEqual(ids(await json("GET", `/${P}Book?filter=${encodeURIComponent("author.name == 'Hidden Author'")}`, "ann")), []);
    assert.deepEqual(ids(await json("GET", `/${P}Book?filter=${encodeURIComponent("author == null")}`, "ann")), ["Secret"]);
  });

  test("JDOQL: candidates, aggregates, variables, subqueries see only what read shows", async () => {
    assert.deepEqual(ids(await json("GET", q("jdoql", `SELECT FROM ${P}Book`), "ann")), ["Dear", "Secret", "Short"]);
    assert.equal(await json("GET", q("jdoql", `SELECT count(this) FROM ${P}Book`), "ann"), 3);
    assert.equal(await json("GET", q("jdoql", `SELECT max(pages) FROM ${P}Book`), "ann"), 300);
    assert.equal(await json("GET", q("jdoql", `SELECT count(this) FROM ${P}Member`), "ann"), 1);
    // A variable over a collection: Ann's hidden loan (Long) does not count.
    assert.deepEqual(await json("GET", q("jdoql", `SELECT name FROM ${P}Member WHERE borrowed.contains(b) && b.pages > 500 VARIABLES ${P}Book b`), "staff"), [
      "Ann",
    ]);
    assert.deepEqual(await json("GET", q("jdoql", `SELECT name FROM ${P}Member WHERE borrowed.contains(b) && b.pages > 500 VARIABLES ${P}Book b`), "ann"), []);
    assert.deepEqual(await json("GET", q("jdoql", `SELECT borrowed.size() FROM ${P}Member`), "ann"), [1]);
    // A subquery over another class sees that class's rows for this principal.
    const sub = `SELECT title FROM ${P}Book WHERE pages == (SELECT max(b.pages) FROM ${P}Book b)`;
    assert.deepEqual(await json("GET", q("jdoql", sub), "ann"), ["Secret"]);
    assert.deepEqual(await json("GET", q("jdoql", sub), "staff"), ["Long"]);
  });

  test("JPQL: joins, counts, grouping see only what read shows", async () => {
    assert.equal(await json("GET", q("jpql", "SELECT COUNT(b) FROM Book b"), "ann"), 3);
    assert.deepEqual(await json("GET", q("jpql", "SELECT b.title FROM Member m JOIN m.borrowed b ORDER BY b.title"), "staff"), ["Dear", "Long", "Short"]);
    assert.deepEqual(await json("GET", q("jpql", "SELECT b.title FROM Member m JOIN m.borrowed b ORDER BY b.title"), "ann"), ["Short"]);
    assert.deepEqual(await json("GET", q("jpql", "SELECT a.name, COUNT(w) FROM Author a JOIN a.works w GROUP BY a.name"), "ann"), [["Ursula", 2]]);
    assert.deepEqual(await json("GET", q("jpql", "SELECT i.title FROM Item i WHERE TYPE(i) = Magazine"), "ann"), ["Cheap"]);
  });
});

describe("streamed answers", () => {
  test("extents and query answers read in pages of one hold only what read shows, page after page", async () => {
    const paged = await accessFixture(RULES, { firstPageSize: 1, pageSize: 1 });
    try {
      await seedLibrary(paged);
      assert.deepEqual(ids(await paged.json("GET", `/${P}Item`, "ann")), ["Cheap", "Dear", "Secret", "Short"]);
      assert.deepEqual(ids(await paged.json("GET", q("jdoql", `SELECT FROM ${P}Book ORDER BY title`), "ann")), ["Dear", "Secret", "Short"]);
      assert.deepEqual(ids(await paged.json("GET", q("jpql", "SELECT b FROM Book b ORDER BY b.title"), "ann")), ["Dear", "Secret", "Short"]);
    } finally {
      paged.close();
    }
  });
});

describe("attempts to get around the rules", () => {
  test("naming a hidden object's values in filters, parameters, orderings, subqueries and EXISTS finds nothing", async () => {
    const none = async (path: string) => assert.deepEqual(await json("GET", path, "ann"), [], path);
    await none(`/${P}Member?filter=${encodeURIComponent("email == 'bob@x.org'")}`);
    await none(`/${P}Member?filter=${encodeURIComponent("email == :e")}&params=${encodeURIComponent('{"e":"bob@x.org"}')}`);
    await none(q("jpql", "SELECT b.title FROM Book b WHERE EXISTS (SELECT m FROM Member m WHERE m.name = 'Bob')"));
    await none(q("jdoql", `SELECT title FROM ${P}Book WHERE (SELECT count(m) FROM ${P}Member m WHERE m.name == 'Bob') > 0`));
    await none(q("jpql", "SELECT m.email FROM Member m WHERE m.name = 'Bob'"));
    await none(q("jdoql", `SELECT FROM ${P}Book WHERE pages >= 500`));
    assert.deepEqual(await json("GET", q("jpql", "SELECT m.name FROM Member m ORDER BY m.name"), "ann"), ["Ann"]);
    assert.equal(await json("GET", q("jpql", "SELECT COUNT(m) FROM Member m"), "ann"), 1);
    assert.equal(await json("GET", q("jpql", "SELECT MAX(b.pages) FROM Book b"), "ann"), 300);
  });

  test("a GET by key read through a row rule keeps its time limit: the rule may read other rows for the one it finds", async () => {
    const recording = new RecordingStore(await EmbeddedStore.open(":memory:"));
    const timed = await accessFixture(RULES, { store: recording });
    try {
      await seedLibrary(timed);
      const [author] = await timed.json("GET", `/${P}Author`, "staff");
      const marks = async (path: string, who: string) => {
        recording.clear();
        assert.equal((await timed.call("GET", path, who)).status, 200, `${path} as ${who}`);
        return recording.take().map((s) => s.fixedCost);
      };
      // Without a rule on the class, a GET by key that reads no collection goes untimed.
      assert.deepEqual(await marks(`/${P}Shelf/s1`, "ann"), [true]);
      assert.deepEqual(await marks(`/${P}Author/${author._id}`, "ann"), [false]);
    } finally {
      timed.close();
    }
  });

  test("a hidden object is absent whichever path reaches it: its class's superclass, a key object, a nested fetch", async () => {
    const all: { id: number; title: string }[] = await json("GET", `/${P}Book`, "staff");
    const long = all.find((b) => b.title === "Long")!.id;
    assert.equal((await call("GET", `/${P}Item/${encodeURIComponent(JSON.stringify({ id: long }))}`, "ann")).status, 404);
    assert.equal((await call("HEAD", `/${P}Item/${long}`, "ann")).status, 404);
    const shelf = await json("GET", `/${P}Shelf/s1?fetchGroup=all&maxFetchDepth=3`, "ann");
    assert.ok(!JSON.stringify(shelf).includes('"Long"'));
  });
});
