/**
 * HTTP semantics a hostile or careless client meets (issue 16, item 9), through real Requests to
 * the handler on the sample model: HEAD answers what GET would; every served path answers 405
 * with `Allow` for a method it does not take (OPTIONS: 204 with it); a body must say it is JSON
 * (415 otherwise, so no cross-site form can write); a compressed body is decoded within the body
 * limit, and a coding the server does not take is 415 with `Accept-Encoding`.
 * test/http-server.test.ts checks what only a real server shows (URL and header sizes, TRACE).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { deflateSync, gzipSync } from "node:zlib";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { databaseDigest } from "./support/digest.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const S = "org.extent.sample";
const BOOK = `/${S}.Book`;
const q = encodeURIComponent;

let h: Harness;
let bookId: number;
before(async () => {
  h = await startHarness({ metadata: sample.metadata });
  const r = await h.post(BOOK, { title: "Dune", isbn: "1", pages: 412, tags: ["sf"] });
  assert.equal(r.status, 201, r.text);
  bookId = r.body.id;
  assert.equal((await h.post(`/${S}.Member`, { email: "ada@example.org", name: "Ada" })).status, 201);
});
after(() => h.close());

function assertProblem(r: Reply | Response, status: number, detail?: RegExp, text?: string): void {
  assert.equal(r.status, status, text);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  if (detail && "body" in r && typeof r.body === "object" && r.body !== null && "detail" in r.body) assert.match(r.body.detail, detail);
}

/** Runs `request` and checks that it left every table as it was. */
async function unchanged<T>(request: () => Promise<T>): Promise<T> {
  const before = await databaseDigest(h.sql);
  const reply = await request();
  assert.equal(await databaseDigest(h.sql), before, "the refused request changed the database");
  return reply;
}

describe("HEAD answers what GET would: status and headers, no body", () => {
  const SAME = ["content-type", "etag", "allow", "x-match-count"];
  const paths = () => [
    "/",
    BOOK,
    `${BOOK}?fetchGroup=all&maxFetchDepth=2`,
    `${BOOK}?fetchGroup=nope`,
    `${BOOK}/${bookId}`,
    `${BOOK}/${bookId}?fetchGroup=all`,
    `${BOOK}/${bookId}?fetchGroup=nope`,
    `${BOOK}/987654`,
    `${BOOK}/abc`,
    `/${S}.Member/${q("ada@example.org")}`,
    `/${S}.Nope`,
    `/${S}.Nope/1`,
    `/jdoql?query=${q(`SELECT FROM ${S}.Book WHERE pages > 100`)}`,
    `/query?query=${q(`SELECT title FROM ${S}.Book`)}`,
    `/jdoql?${q(`SELECT FROM ${S}.Book`)}`,
    `/jdoql?query=${q("SELECT FROM")}`,
    `/jdoql`,
    `/jpql?query=${q("SELECT b FROM Book b")}`,
    `/jpql?query=${q("DELETE FROM Book b")}`,
    `/no/such/path`,
  ];

  test("for the root, extents, objects, keys, JDOQL and JPQL, answered or refused", async () => {
    for (const path of paths()) {
      const get = await h.get(path);
      const head = await h.call("HEAD", path);
      assert.equal(head.status, get.status, `HEAD ${path}: ${get.text.slice(0, 200)}`);
      for (const name of SAME) assert.equal(head.headers.get(name), get.headers.get(name), `HEAD ${path}: ${name}`);
      assert.equal(head.text, "", `HEAD ${path} has no body`);
    }
  });

  test("HEAD /{class} is 200 without reading the extent", async () => {
    const before = h.store.statements;
    const r = await h.call("HEAD", BOOK);
    assert.equal(r.status, 200);
    assert.equal(h.store.statements, before, "HEAD of a class read the extent");
  });

  test("HEAD /{class}/{key} answers the object's ETag and 304 for a matching If-None-Match, as GET", async () => {
    const etag = (await h.get(`${BOOK}/${bookId}`)).headers.get("etag");
    assert.equal(etag, '"1"');
    for (const method of ["GET", "HEAD"]) {
      const same = await h.call(method, `${BOOK}/${bookId}`, undefined, { "if-none-match": etag! });
      assert.equal(same.status, 304, method);
      assert.equal(same.headers.get("etag"), etag);
      assert.equal((await h.call(method, `${BOOK}/${bookId}`, undefined, { "if-none-match": '"7"' })).status, 200, method);
    }
  });

  test("HEAD with a filter keeps the contract's answer: 200 for exactly one match, else 404, with X-Match-Count", async () => {
    const one = await h.call("HEAD", `${BOOK}?filter=${q('title == "Dune"')}`);
    assert.equal(one.status, 200);
    assert.equal(one.headers.get("x-match-count"), "1");
    const none = await h.call("HEAD", `${BOOK}?filter=${q('title == "Emma"')}`);
    assert.equal(none.status, 404);
    assert.equal(none.headers.get("x-match-count"), "0");
  });
});

describe("405 with Allow for a method a served path does not take; OPTIONS answers 204 with it", () => {
  const served = () => [
    { path: "/", allow: "GET, HEAD" },
    { path: "/jdoql", allow: "GET, HEAD" },
    { path: "/query", allow: "GET, HEAD" },
    { path: "/jpql", allow: "GET, HEAD" },
    { path: BOOK, allow: "GET, HEAD, POST, DELETE" },
    { path: `${BOOK}/${bookId}`, allow: "GET, HEAD, PUT, DELETE" },
  ];

  test("every other method, on every served path", async () => {
    for (const { path, allow } of served()) {
      const taken = allow.split(", ");
      for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH", "PROPFIND", "PURGE"].filter((m) => !taken.includes(m))) {
        const r = await unchanged(() => h.call(method, path, method === "GET" ? undefined : { title: "x" }));
        assertProblem(r, 405, /not allowed/, `${method} ${path}: ${r.text}`);
        assert.equal(r.headers.get("allow"), allow, `${method} ${path}`);
      }
      const options = await h.call("OPTIONS", path);
      assert.equal(options.status, 204, `OPTIONS ${path}: ${options.text}`);
      assert.equal(options.headers.get("allow"), allow, `OPTIONS ${path}`);
      assert.equal(options.text, "");
    }
  });

  test("an unknown class or path stays 404 whatever the method", async () => {
    for (const method of ["OPTIONS", "POST", "PATCH"]) {
      assertProblem(await h.call(method, `/${S}.Nope`), 404);
      assertProblem(await h.call(method, `/${S}.Nope/1`), 404);
      assertProblem(await h.call(method, `${BOOK}/1/works`), 404);
    }
  });
});

describe("a body must be JSON, said so by its Content-Type: 415 otherwise, and nothing changes", () => {
  const body = JSON.stringify({ title: "Sent" });
  const send = (method: string, path: string, init: { body: BodyInit; headers?: Record<string, string> }) =>
    unchanged(() => h.fetch(new Request(`http://localhost${path}`, { method, ...init })));

  test("no Content-Type at all (a binary body, as a script may send), on POST, PUT and DELETE", async () => {
    for (const [method, path] of [
      ["POST", BOOK],
      ["PUT", `${BOOK}/${bookId}`],
      ["DELETE", `/${S}.Member`],
    ] as const) {
      const sent = method === "DELETE" ? JSON.stringify({ email: "ada@example.org" }) : body;
      const r = await send(method, path, { body: new TextEncoder().encode(sent) });
      assertProblem(r, 415, undefined, method);
      assert.match((await r.json()).detail, /no Content-Type/);
    }
  });

  test("what a cross-site form or sendBeacon sends, and other media types", async () => {
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      "text/json",
      "text/x+json",
      "json",
      "",
    ]) {
      assertProblem(await send("POST", BOOK, { body, headers: { "content-type": type } }), 415, undefined, JSON.stringify(type));
    }
  });

  test("JSON media types are taken, with parameters and in any case", async () => {
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/merge-patch+json",
      "application/vnd.extent+json;v=1",
    ]) {
      const r = await h.fetch(new Request(`http://localhost${BOOK}`, { method: "POST", body, headers: { "content-type": type } }));
      assert.equal(r.status, 201, `${type}: ${await r.text()}`);
    }
  });

  test("a request without a body needs no Content-Type", async () => {
    const created = await h.post(`/${S}.Member`, { email: "gone@example.org" });
    assert.equal(created.status, 201);
    assert.equal((await h.fetch(new Request(`http://localhost/${S}.Member/gone%40example.org`, { method: "DELETE" }))).status, 204);
  });
});

describe("Content-Encoding: gzip and deflate are decoded within the body limit; other codings are 415", () => {
  const post = (bytes: Uint8Array, coding: string, type = "application/json") =>
    h.fetch(
      new Request(`http://localhost${BOOK}`, { method: "POST", body: new Uint8Array(bytes), headers: { "content-type": type, "content-encoding": coding } }),
    );

  test("a gzip or deflate body is read as the JSON it encodes", async () => {
    for (const [coding, encode] of [
      ["gzip", gzipSync],
      ["deflate", deflateSync],
      ["x-gzip", gzipSync],
      ["identity", (b: Buffer) => b],
    ] as const) {
      const r = await post(encode(Buffer.from(JSON.stringify({ title: `Packed ${coding}`, pages: 7 }))), coding);
      assert.equal(r.status, 201, `${coding}: ${await r.clone().text()}`);
      const stored = (await r.json()) as { id: number; title: string };
      assert.equal(stored.title, `Packed ${coding}`);
      assert.equal((await h.get(`${BOOK}/${stored.id}`)).body.pages, 7);
    }
  });

  test("a coding the server does not take is 415 with Accept-Encoding, and nothing changes", async () => {
    for (const coding of ["br", "compress", "zstd", "gzip, gzip", "bogus"]) {
      const r = await unchanged(() => post(gzipSync(Buffer.from(JSON.stringify({ title: "x" }))), coding));
      assertProblem(r, 415, undefined, coding);
      assert.equal(r.headers.get("accept-encoding"), "gzip, deflate", coding);
    }
  });

  test("bytes that are not what their coding says are 400", async () => {
    const r = await unchanged(() => post(new TextEncoder().encode(JSON.stringify({ title: "plain" })), "gzip"));
    assertProblem(r, 400);
    assert.match(((await r.json()) as { detail: string }).detail, /not valid gzip/);
  });

  test("a zip bomb is 413 by its decoded size, read no further than the limit", async () => {
    // 64 MiB of spaces inside a JSON string compresses to about 64 KiB: far below the 1 MiB limit as sent.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"title":"'), Buffer.alloc(64 << 20, 0x20), Buffer.from('"}')]));
    assert.ok(bomb.byteLength < 1 << 20);
    const heap = process.memoryUsage().heapUsed;
    const r = await unchanged(() => post(bomb, "gzip"));
    assertProblem(r, 413);
    assert.match(((await r.json()) as { detail: string }).detail, /larger than the limit of 1048576 bytes/);
    assert.ok(process.memoryUsage().heapUsed - heap < 32 << 20, "the decoded body was held in memory");
  });
});
