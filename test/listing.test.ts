/**
 * Ordering, pages, counts (issue 19 items 1-3, contract §7): `ordering=`, `range=` and `after=` on
 * `GET /{class}` and `GET /{class}?filter=`, compiled by the JDOQL front end into the single read
 * path; Content-Range, Prefer: count=exact, Link next/prev; keyset cursors that walk a listing
 * exactly once while other clients write; every bad form a 400 naming its parameter.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { resolveContext } from "../src/config/resolve-context.ts";
import { createRestHandler, type RestHandler } from "../src/handler.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";

const { context } = resolveContext(await loadConfigDir(new URL("../schema/jdo", import.meta.url).pathname), "sample");
const P = "org.extent.sample.";
const BOOK = `/${P}Book`;
let h: RestHandler;

async function get(query: string, headers: Record<string, string> = {}, path = BOOK) {
  const r = await h.fetch(new Request(`http://x${path}${query ? `?${query}` : ""}`, { headers }));
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}
const enc = encodeURIComponent;
const titles = (books: { title: string }[]) => books.map((b) => b.title);
async function post(path: string, body: unknown) {
  const r = await h.fetch(new Request(`http://x${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  const text = await r.text();
  assert.equal(r.status, 201, text);
  return JSON.parse(text) as { id?: number; _id?: number };
}
/** The query string of a Link header's `rel`. */
const linkOf = (headers: Headers, rel: string) => new RegExp(`<[^?>]*\\?([^>]*)>; rel="${rel}"`).exec(headers.get("link") ?? "")?.[1];

before(async () => {
  h = createRestHandler({ context: { ...context, url: ":memory:" }, serverTiming: true });
  await h.ready;
  const ann = await post(`/${P}Author`, { name: "Ann" });
  const zed = await post(`/${P}Author`, { name: "Zed" });
  // title, pages, isbn (nullable), author
  const rows: [string, number, string | null, { _id?: number } | null][] = [
    ["Eta", 300, "b", zed],
    ["Alpha", 100, null, ann],
    ["Delta", 300, "a", null],
    ["Beta", 200, "c", zed],
    ["Gamma", 100, null, ann],
    ["Zeta", 500, "d", ann],
  ];
  for (const [title, pages, isbn, author] of rows) await post(BOOK, { title, pages, isbn, ...(author ? { author: { _id: author._id } } : {}) });
});
after(() => h.close());

describe("ordering", () => {
  test("fields, descending, several keys, the key breaking ties; with a filter", async () => {
    assert.deepEqual(titles((await get(`ordering=${enc("title")}`)).body), ["Alpha", "Beta", "Delta", "Eta", "Gamma", "Zeta"]);
    assert.deepEqual(titles((await get(`ordering=${enc("pages desc, title ascending")}`)).body), ["Zeta", "Delta", "Eta", "Beta", "Alpha", "Gamma"]);
    // Equal pages: the key (insertion order) breaks the tie.
    assert.deepEqual(titles((await get(`ordering=${enc("pages")}`)).body), ["Alpha", "Gamma", "Beta", "Eta", "Delta", "Zeta"]);
    assert.deepEqual(titles((await get(`filter=${enc("pages > 100")}&ordering=${enc("title descending")}`)).body), ["Zeta", "Eta", "Delta", "Beta"]);
  });

  test("nulls (first ascending, last descending, or as said) and a to-one navigation", async () => {
    assert.deepEqual(titles((await get(`ordering=${enc("isbn")}`)).body), ["Alpha", "Gamma", "Delta", "Eta", "Beta", "Zeta"]);
    assert.deepEqual(titles((await get(`ordering=${enc("isbn desc")}`)).body), ["Zeta", "Beta", "Eta", "Delta", "Alpha", "Gamma"]);
    assert.deepEqual(titles((await get(`ordering=${enc("isbn ascending nulls last")}`)).body), ["Delta", "Eta", "Beta", "Zeta", "Alpha", "Gamma"]);
    assert.deepEqual(titles((await get(`ordering=${enc("author.name descending, title")}`)).body), ["Beta", "Eta", "Alpha", "Gamma", "Zeta", "Delta"]);
  });
});

describe("pages", () => {
  test("range: the page, Content-Range, prev and next links; an empty page", async () => {
    const page = await get(`ordering=title&range=2,4`);
    assert.equal(page.status, 200);
    assert.deepEqual(titles(page.body), ["Delta", "Eta"]);
    assert.equal(page.headers.get("content-range"), "items 2-3/*");
    assert.equal(linkOf(page.headers, "prev"), "ordering=title&range=0%2C2");
    assert.match(linkOf(page.headers, "next") ?? "", /^ordering=title&after=[A-Za-z0-9_-]+$/);
    const empty = await get(`ordering=title&range=10,20`, { prefer: "count=exact" });
    assert.deepEqual(empty.body, []);
    assert.equal(empty.headers.get("content-range"), "items */6");
    assert.equal(linkOf(empty.headers, "next"), undefined);
    const last = await get(`ordering=title&range=4,10`);
    assert.deepEqual(titles(last.body), ["Gamma", "Zeta"]);
    assert.equal(linkOf(last.headers, "next"), undefined);
    // A page larger than the listing: what there is (the keys read are bounded by answerBytes, not by TO).
    const huge = await get(`ordering=title&range=0,999999999999999`);
    assert.equal(huge.headers.get("content-range"), "items 0-5/*");
    assert.equal(huge.body.length, 6);
    // Without ordering: the key order, as the extent.
    assert.deepEqual(titles((await get("range=0,2")).body), ["Eta", "Alpha"]);
  });

  test("Prefer: count=exact gives the total and Preference-Applied, in the same one round trip", async () => {
    const counted = await get(`filter=${enc("pages >= 200")}&ordering=title&range=0,2`, { prefer: "count=exact" });
    assert.equal(counted.headers.get("content-range"), "items 0-1/4");
    assert.equal(counted.headers.get("preference-applied"), "count=exact");
    assert.match(counted.headers.get("server-timing") ?? "", /store;desc="1 round trip,/);
    const plain = await get(`ordering=title&range=0,2`);
    assert.equal(plain.headers.get("preference-applied"), null);
    assert.match(plain.headers.get("server-timing") ?? "", /store;desc="1 round trip,/);
  });

  test("next links walk the listing, each page one round trip, positions in Content-Range", async () => {
    for (const ordering of ["title", "pages desc, title", "isbn nulls last", "author.name, title"]) {
      let query: string | undefined = `ordering=${enc(ordering)}&range=0,2`;
      const seen: string[] = [];
      const ranges: string[] = [];
      while (query) {
        const page = await get(query, { prefer: "count=exact" });
        assert.equal(page.status, 200, JSON.stringify(page.body));
        assert.match(page.headers.get("server-timing") ?? "", /1 round trip,/);
        seen.push(...titles(page.body));
        ranges.push(page.headers.get("content-range")!);
        query = linkOf(page.headers, "next");
      }
      assert.deepEqual(seen, titles((await get(`ordering=${enc(ordering)}`)).body), ordering);
      assert.deepEqual(ranges, ["items 0-1/6", "items 2-3/6", "items 4-5/6"], ordering);
    }
  });
});

describe("bad forms: a 400 naming the parameter", () => {
  test("ordering: syntax (with position), unknown field, collection", async () => {
    for (const [ordering, detail] of [
      ["title desc desc", /^ordering: line 1, column 12/],
      ["nosuch", /^ordering: line 1, column 1: unknown name "nosuch"/],
      ["tags", /^ordering: .*cannot order by a collection/],
      [" ", /^ordering: is empty/],
    ] as const) {
      const r = await get(`ordering=${enc(ordering)}`);
      assert.equal(r.status, 400, ordering);
      assert.match(r.body.detail, detail);
      assert.equal(r.body.errors[0].path, "ordering");
    }
    const filterError = await get(`filter=${enc("pages >")}&ordering=title`);
    assert.equal(filterError.body.errors[0].path, "filter");
  });

  test("range: two whole numbers, FROM <= TO", async () => {
    for (const range of ["1", "a,b", "-1,2", "5,2", "1,2,3", "1.5,3", "", "0,1e3"]) {
      const r = await get(`range=${enc(range)}`);
      assert.equal(r.status, 400, range);
      assert.equal(r.body.errors[0].path, "range");
    }
  });

  test("after: tampered, truncated, or another class's, filter's or ordering's cursor; never a 500 or other rows", async () => {
    const first = await get(`ordering=title&range=0,2`);
    const cursor = /after=([^&]+)/.exec(linkOf(first.headers, "next")!)![1]!;
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString());
    const forge = (x: unknown) => Buffer.from(JSON.stringify(x)).toString("base64url");
    for (const bad of [
      "abc",
      cursor.slice(0, -3),
      `${cursor}x`,
      forge({ ...decoded, k: [{ nested: 1 }] }),
      forge({ ...decoded, s: 0 }),
      forge({ ...decoded, o: [] }),
      forge({ ...decoded, extra: 1 }),
      forge("just a string"),
    ]) {
      const r = await get(`ordering=title&after=${bad}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.errors[0].path, "after");
    }
    assert.equal((await get(`ordering=pages&after=${cursor}`)).status, 400);
    assert.equal((await get(`filter=${enc("pages > 0")}&ordering=title&after=${cursor}`)).status, 400);
    assert.equal((await get(`ordering=title&after=${cursor}`, {}, `/${P}Magazine`)).status, 400);
    // Values moved within the cursor's own listing only move where the page starts.
    const moved = await get(`ordering=title&after=${forge({ ...decoded, o: ["Delta"] })}`);
    assert.equal(moved.status, 200);
    assert.deepEqual(titles(moved.body), ["Eta", "Gamma"]);
  });
});

describe("walking while others write", () => {
  test("every object that exists throughout the walk is seen exactly once", async () => {
    const MAG = `/${P}Magazine`;
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push((await post(MAG, { title: `m${String(i).padStart(2, "0")}`, issue: i % 7 })).id!);
    const stable = new Set(ids.filter((_, i) => i % 3 !== 0));
    let query: string | undefined = `ordering=${enc("issue desc, title")}&range=0,5`;
    const seen: number[] = [];
    let step = 0;
    while (query) {
      const page = await get(query, {}, MAG);
      assert.equal(page.status, 200);
      seen.push(...page.body.map((m: { id: number }) => m.id));
      query = linkOf(page.headers, "next");
      // Meanwhile: one of the unstable ones goes, a new one comes.
      const gone = ids[step * 3];
      if (gone !== undefined) await h.fetch(new Request(`http://x${MAG}/${gone}`, { method: "DELETE" }));
      await post(MAG, { title: `new${step}`, issue: step % 7 });
      step++;
    }
    const counts = new Map<number, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const id of stable) assert.equal(counts.get(id), 1, `object ${id}`);
    assert.ok(
      [...counts.values()].every((n) => n === 1),
      "no object twice",
    );
  });
});
