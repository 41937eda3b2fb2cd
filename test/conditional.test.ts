/**
 * Optimistic concurrency on versioned classes: `ETag: "<version>"` on GET, POST and PUT;
 * `If-Match` with another version answers 412 and changes nothing; `If-None-Match` with the
 * current version answers 304. Many concurrent read-modify-write clients with `If-Match` lose
 * no update; the same clients without it do, which shows the test can see a lost update.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { databaseDigest } from "./support/digest.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const BOOK = "/org.extent.sample.Book";
const ITEM = "/org.extent.sample.Item";

function assertProblem(r: Reply, status: number, detail: RegExp): void {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
  assert.match(r.body.detail, detail);
}

describe("ETag, If-Match, If-None-Match", () => {
  let h: Harness;
  let id: number;
  const put = (path: string, body: unknown, headers: Record<string, string>) => h.call("PUT", path, body, headers);
  before(async () => {
    h = await startHarness({ metadata: sample.metadata });
    const created = await h.post(BOOK, { title: "Versioned", isbn: "v", pages: 1 });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("etag"), '"1"', "POST answers the new object's ETag");
    id = created.body.id;
  });
  after(() => h.close());

  test("GET and PUT answer the version as a strong ETag; unversioned classes have none", async () => {
    assert.equal((await h.get(`${BOOK}/${id}`)).headers.get("etag"), '"1"');
    const changed = await put(`${BOOK}/${id}`, { pages: 2 }, {});
    assert.equal(changed.headers.get("etag"), '"2"');
    assert.equal(changed.body._version, 2);
    assert.equal((await h.get(`${ITEM}/${id}`)).headers.get("etag"), '"2"', "the same object through its base class");
    const author = await h.post("/org.extent.sample.Author", { name: "No version" });
    assert.equal(author.headers.get("etag"), null);
    assert.equal((await h.get(`/org.extent.sample.Author/${author.body._id}`)).headers.get("etag"), null);
  });

  test("If-None-Match with the current version is 304 with the ETag and no body; another version is 200", async () => {
    const current = (await h.get(`${BOOK}/${id}`)).headers.get("etag")!;
    for (const tag of [current, `W/${current}`, `"99", ${current}`, "*"]) {
      const r = await h.call("GET", `${BOOK}/${id}`, undefined, { "if-none-match": tag });
      assert.equal(r.status, 304, tag);
      assert.equal(r.text, "");
      assert.equal(r.headers.get("etag"), current);
    }
    const stale = await h.call("GET", `${BOOK}/${id}`, undefined, { "if-none-match": '"1"' });
    assert.equal(stale.status, 200);
    assert.equal(stale.body.id, id);
  });

  test("PUT with If-Match of another version is 412 and changes nothing; with the current one it succeeds", async () => {
    const current = (await h.get(`${BOOK}/${id}`)).body._version as number;
    const before = await databaseDigest(h.sql);
    for (const tag of [`"${current - 1}"`, `W/"${current}"`, `"abc"`, `"${current + 1}", "${current + 2}"`]) {
      assertProblem(await put(`${BOOK}/${id}`, { title: "Lost" }, { "if-match": tag }), 412, /If-Match failed: the version of org.extent.sample.Book/);
    }
    assert.equal(await databaseDigest(h.sql), before);
    const ok = await put(`${BOOK}/${id}`, { title: "Won" }, { "if-match": `"7", "${current}"` });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.title, "Won");
    assert.equal(ok.headers.get("etag"), `"${current + 1}"`);
    assert.equal((await put(`${BOOK}/${id}`, { pages: 9 }, { "if-match": "*" })).status, 200, "* matches any current version");
  });

  test("PUT through the base class (a lookup first) checks the version in the same batch", async () => {
    const current = (await h.get(`${BOOK}/${id}`)).body._version as number;
    assertProblem(await put(`${ITEM}/${id}`, { title: "Lost" }, { "if-match": `"${current - 1}"` }), 412, /If-Match failed/);
    assert.equal((await put(`${ITEM}/${id}`, { title: "Base" }, { "if-match": `"${current}"` })).status, 200);
  });

  test("If-None-Match on PUT: * or the current version is 412", async () => {
    const current = (await h.get(`${BOOK}/${id}`)).headers.get("etag")!;
    assertProblem(await put(`${BOOK}/${id}`, { title: "No" }, { "if-none-match": "*" }), 412, /If-None-Match failed/);
    assertProblem(await put(`${BOOK}/${id}`, { title: "No" }, { "if-none-match": current }), 412, /If-None-Match failed/);
    assert.equal((await put(`${BOOK}/${id}`, { title: "Yes" }, { "if-none-match": '"1"' })).status, 200);
  });

  test("an absent object is 404 whatever the precondition; a malformed header is 400; an unversioned class cannot match a tag", async () => {
    assertProblem(await put(`${BOOK}/99999`, { title: "x" }, { "if-match": '"1"' }), 404, /no org.extent.sample.Book/);
    assertProblem(await h.call("DELETE", `${BOOK}/99999`, undefined, { "if-match": '"1"' }), 404, /no org.extent.sample.Book/);
    assertProblem(await put(`${BOOK}/${id}`, { title: "x" }, { "if-match": "3" }), 400, /If-Match must be \* or a list of quoted entity tags/);
    assertProblem(await h.call("GET", `${BOOK}/${id}`, undefined, { "if-none-match": "nope" }), 400, /If-None-Match must be/);
    const author = await h.post("/org.extent.sample.Author", { name: "Plain" });
    assertProblem(await put(`/org.extent.sample.Author/${author.body._id}`, { name: "x" }, { "if-match": '"1"' }), 412, /not versioned/);
    assert.equal((await put(`/org.extent.sample.Author/${author.body._id}`, { name: "y" }, { "if-match": "*" })).status, 200);
  });

  test("DELETE with If-Match of another version is 412 and deletes nothing; with the current one it deletes", async () => {
    const doomed = (await h.post(BOOK, { title: "Doomed", isbn: "d" })).body.id;
    const before = await databaseDigest(h.sql);
    assertProblem(await h.call("DELETE", `${BOOK}/${doomed}`, undefined, { "if-match": '"5"' }), 412, /If-Match failed/);
    assert.equal(await databaseDigest(h.sql), before);
    assert.equal((await h.call("DELETE", `${BOOK}/${doomed}`, undefined, { "if-match": '"1"' })).status, 204);
    assert.equal((await h.get(`${BOOK}/${doomed}`)).status, 404);
  });
});

describe("If-Match on reads and on collections (RFC 9110 §13.1.1)", () => {
  let h: Harness;
  let id: number;
  let author: number;
  before(async () => {
    h = await startHarness({ metadata: sample.metadata });
    id = (await h.post(BOOK, { title: "Read", isbn: "r", pages: 1 })).body.id;
    await h.call("PUT", `${BOOK}/${id}`, { pages: 2 }); // version 2
    author = (await h.post("/org.extent.sample.Author", { name: "Unversioned" })).body._id;
  });
  after(() => h.close());

  test("GET and HEAD by key: If-Match of another tag is 412; the current tag or * is 200 with the ETag", async () => {
    for (const method of ["GET", "HEAD"]) {
      for (const tag of ['"1"', 'W/"2"', '"abc"', '"3", "4"']) {
        const r = await h.call(method, `${BOOK}/${id}`, undefined, { "if-match": tag });
        assert.equal(r.status, 412, `${method} ${tag}`);
        if (method === "GET") assertProblem(r, 412, /If-Match failed: the entity tag of org.extent.sample.Book \d+ is "2"/);
      }
      for (const tag of ['"2"', '"1", "2"', "*"]) {
        const r = await h.call(method, `${BOOK}/${id}`, undefined, { "if-match": tag });
        assert.equal(r.status, 200, `${method} ${tag}`);
        assert.equal(r.headers.get("etag"), '"2"');
        if (method === "GET") assert.equal(r.body.id, id);
        else assert.equal(r.text, "");
      }
    }
  });

  test("HEAD by key answers the ETag and 304 as GET does", async () => {
    const r = await h.call("HEAD", `${BOOK}/${id}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("etag"), '"2"');
    assert.equal((await h.call("HEAD", `${BOOK}/${id}`, undefined, { "if-none-match": '"2"' })).status, 304);
    assert.equal((await h.call("HEAD", `${BOOK}/${id}`, undefined, { "if-none-match": '"1"' })).status, 200);
  });

  test("If-Match and If-None-Match together: If-Match first (412), then If-None-Match (304)", async () => {
    assert.equal((await h.call("GET", `${BOOK}/${id}`, undefined, { "if-match": '"1"', "if-none-match": '"2"' })).status, 412);
    assert.equal((await h.call("GET", `${BOOK}/${id}`, undefined, { "if-match": '"2"', "if-none-match": '"2"' })).status, 304);
    const before = await databaseDigest(h.sql);
    assertProblem(
      await h.call("PUT", `${BOOK}/${id}`, { title: "No" }, { "if-match": '"2"', "if-none-match": '"2"' }),
      412,
      /If-Match "2" and If-None-Match "2": one failed/,
    );
    assertProblem(await h.call("DELETE", `${BOOK}/${id}`, undefined, { "if-match": "*", "if-none-match": "*" }), 412, /If-None-Match failed/);
    assert.equal(await databaseDigest(h.sql), before);
  });

  test("an unversioned object has no entity tag: If-Match naming one is 412 on GET and HEAD, * is 200", async () => {
    assertProblem(await h.call("GET", `/org.extent.sample.Author/${author}`, undefined, { "if-match": '"1"' }), 412, /not versioned/);
    assert.equal((await h.call("HEAD", `/org.extent.sample.Author/${author}`, undefined, { "if-match": '"1"' })).status, 412);
    assert.equal((await h.call("GET", `/org.extent.sample.Author/${author}`, undefined, { "if-match": "*" })).status, 200);
  });

  test("an absent object is 404 whatever If-Match says", async () => {
    assert.equal((await h.call("GET", `${BOOK}/99999`, undefined, { "if-match": '"1"' })).status, 404);
    assert.equal((await h.call("HEAD", `${BOOK}/99999`, undefined, { "if-match": "*" })).status, 404);
  });

  test("extents, filters and queries have no entity tag: If-Match other than * is 412, * is 200", async () => {
    const paths = [
      BOOK,
      `${BOOK}?filter=${encodeURIComponent("pages > 0")}`,
      `/jdoql?query=${encodeURIComponent("SELECT FROM org.extent.sample.Book")}`,
      `/query?query=${encodeURIComponent("SELECT FROM org.extent.sample.Book")}`,
      `/jpql?query=${encodeURIComponent("SELECT b FROM Book b")}`,
    ];
    for (const path of paths) {
      for (const method of ["GET", "HEAD"]) {
        if (method === "HEAD" && !path.includes("filter")) continue; // HEAD of an extent or a query has no meaning here
        const refused = await h.call(method, path, undefined, { "if-match": '"2"' });
        assert.equal(refused.status, 412, `${method} ${path}`);
        if (method === "GET") assertProblem(refused, 412, /has no entity tag; only If-Match: \* matches it/);
        assert.equal((await h.call(method, path, undefined, { "if-match": "*" })).status, 200, `${method} ${path} with *`);
        assert.equal((await h.call(method, path, undefined, { "if-none-match": "*" })).status, 304, `${method} ${path} If-None-Match: *`);
      }
    }
  });

  test("DELETE and POST on a class: If-Match other than * is 412 and changes nothing; * deletes the extent", async () => {
    const before = await databaseDigest(h.sql);
    for (const tag of ['"2"', '"1", "2"', 'W/"2"'])
      assertProblem(await h.call("DELETE", BOOK, undefined, { "if-match": tag }), 412, /the extent of org.extent.sample.Book has no entity tag/);
    assertProblem(await h.call("DELETE", BOOK, undefined, { "if-none-match": "*" }), 412, /If-None-Match failed: the extent of org.extent.sample.Book exists/);
    assertProblem(await h.call("POST", BOOK, { title: "x", isbn: "x" }, { "if-match": '"2"' }), 412, /has no entity tag/);
    assert.equal(await databaseDigest(h.sql), before);
    assert.equal((await h.call("POST", BOOK, { title: "y", isbn: "y" }, { "if-match": "*" })).status, 201);
    assert.equal((await h.call("DELETE", BOOK, undefined, { "if-match": "*" })).status, 204);
    assert.deepEqual((await h.get(BOOK)).body, []);
  });
});

describe("concurrent read-modify-write clients", () => {
  let h: Harness;
  const OBJECTS = 3;
  const CLIENTS = 8;
  const INCREMENTS = 5;
  let ids: number[];
  before(async () => {
    h = await startHarness({ metadata: sample.metadata });
    ids = [];
    for (let i = 0; i < OBJECTS; i++) ids.push((await h.post(BOOK, { title: `Counter ${i}`, isbn: `c${i}`, pages: 0 })).body.id);
  });
  after(() => h.close());

  /** A client adds 1 to `pages` of each object, INCREMENTS times; with `ifMatch` it retries on 412. */
  async function client(ifMatch: boolean, tally: { ok: number[]; conflicts: number; other: number }): Promise<void> {
    for (let n = 0; n < INCREMENTS; n++) {
      for (let o = 0; o < OBJECTS; o++) {
        for (;;) {
          const read = await h.get(`${BOOK}/${ids[o]}`);
          const r = await h.call("PUT", `${BOOK}/${ids[o]}`, { pages: read.body.pages + 1 }, ifMatch ? { "if-match": read.headers.get("etag")! } : {});
          if (r.status === 200) {
            tally.ok[o]!++;
            break;
          }
          if (r.status === 412) {
            tally.conflicts++;
            continue;
          }
          tally.other++;
          throw new Error(`unexpected ${r.status}: ${r.text}`);
        }
      }
    }
  }

  test("with If-Match no update is lost: each object's count and version equal its 2xx writes", async () => {
    const tally = { ok: Array(OBJECTS).fill(0), conflicts: 0, other: 0 };
    await Promise.all(Array.from({ length: CLIENTS }, () => client(true, tally)));
    assert.equal(tally.other, 0);
    assert.ok(tally.conflicts > 0, "the clients never collided: the test would not see a lost update");
    for (let o = 0; o < OBJECTS; o++) {
      const final = (await h.get(`${BOOK}/${ids[o]}`)).body;
      assert.equal(tally.ok[o], CLIENTS * INCREMENTS);
      assert.equal(final.pages, tally.ok[o], `object ${o}: ${tally.ok[o]} successful writes, count ${final.pages}`);
      assert.equal(final._version, 1 + tally.ok[o]);
    }
  });

  test("without If-Match the same clients lose updates (the check above can fail)", async () => {
    const start = await Promise.all(ids.map(async (id) => (await h.get(`${BOOK}/${id}`)).body.pages as number));
    const tally = { ok: Array(OBJECTS).fill(0), conflicts: 0, other: 0 };
    await Promise.all(Array.from({ length: CLIENTS }, () => client(false, tally)));
    const lost = await Promise.all(ids.map(async (id, o) => start[o]! + tally.ok[o]! - ((await h.get(`${BOOK}/${id}`)).body.pages as number)));
    assert.ok(
      lost.some((n) => n > 0),
      `no update was lost without If-Match (${lost.join(", ")})`,
    );
  });
});
