/**
 * Web clients, part two (issue 19, item 5; contract §7): large answers compressed for a client
 * that takes gzip or deflate, streamed extents included, decompressing to exactly the bytes of
 * the plain answer; small answers, HEAD, 204, 304 and `identity` untouched; the ETag kept, and
 * `If-None-Match` answering 304 to it in both its forms. In process, then over real HTTP on Node
 * (serve()), Bun and Deno (the local entry), where the server must not undo or redo any of it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { gunzipSync, inflateSync, brotliDecompressSync } from "node:zlib";
import { resolveContext } from "../src/config/resolve-context.ts";
import { createRestHandler, type RestHandler } from "../src/handler.ts";
import { chooseEncoding } from "../src/http/compress.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { serve } from "../src/runtime/serve.ts";
import { startTarget } from "./support/runtime-targets.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const BOOK = "/org.extent.sample.Book";
const q = encodeURIComponent;
const books = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ title: `Book number ${from + i}`, isbn: `978-${from + i}`, pages: 100 + i, tags: ["sf", "classic"] }));

let handler: RestHandler;
let plain: RestHandler;
let bigId: number;
let smallId: number;
before(async () => {
  // Small pages, so 300 objects stream in many: the compressor must take a stream as it comes.
  handler = createRestHandler({ context: { ...sample, url: ":memory:" }, firstPageSize: 7, pageSize: 23 });
  await handler.ready;
  for (const book of books(300)) assert.equal((await call("POST", BOOK, {}, book)).status, 201);
  bigId = (await (await call("POST", BOOK, {}, { title: "x".repeat(3000), isbn: "big" })).json()).id;
  smallId = (await (await call("POST", BOOK, {}, { title: "Dune", isbn: "small" })).json()).id;
  plain = createRestHandler({ context: { ...sample, url: ":memory:" }, compress: false });
  await plain.ready;
});
after(() => {
  handler?.close();
  plain?.close();
});

function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown, h = handler): Promise<Response> {
  const init: RequestInit = { method, headers: body === undefined ? headers : { "content-type": "application/json", ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return h.fetch(new Request(`http://localhost${path}`, init));
}

const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

/** GET `path` plainly and with `encoding`: the second is compressed and decompresses to the first's bytes. */
async function assertCompressed(path: string, encoding = "gzip"): Promise<{ plain: Buffer; packed: Buffer; response: Response }> {
  const identity = await call("GET", path);
  assert.equal(identity.status, 200, path);
  assert.equal(identity.headers.get("content-encoding"), null);
  const expected = await bytes(identity);
  const response = await call("GET", path, { "accept-encoding": encoding });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-encoding"), encoding, path);
  assert.equal(response.headers.get("content-length"), null);
  assert.match(response.headers.get("vary") ?? "", /Accept-Encoding/);
  const packed = await bytes(response);
  const unpacked = encoding === "gzip" ? gunzipSync(packed) : encoding === "deflate" ? inflateSync(packed) : brotliDecompressSync(packed);
  assert.ok(unpacked.equals(expected), `${path}: the decompressed answer differs from the plain one`);
  assert.ok(packed.length < expected.length / 3, `${path}: ${packed.length} of ${expected.length} bytes`);
  return { plain: expected, packed, response };
}

describe("large answers are compressed and decompress to exactly the plain bytes", () => {
  test("an extent streamed over many pages, with and without a fetch plan", async () => {
    const { plain } = await assertCompressed(BOOK);
    assert.equal(JSON.parse(plain.toString()).length, 302);
    await assertCompressed(`${BOOK}?fetchGroup=all`);
    await assertCompressed(BOOK, "deflate");
  });

  test("an object by key, a filter's answer, a JDOQL and a JPQL query", async () => {
    const { response } = await assertCompressed(`${BOOK}/${bigId}`);
    assert.equal(response.headers.get("etag"), '"1"', "the ETag is the object's version, compressed or not");
    await assertCompressed(`${BOOK}?filter=${q("pages > 150")}`);
    await assertCompressed(`/jdoql?query=${q("SELECT FROM org.extent.sample.Book WHERE pages >= 100")}`);
    await assertCompressed(`/jpql?query=${q("SELECT b FROM Book b")}`);
  });

  test("a large problem document is compressed too (its type is compressible)", async () => {
    const body = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field${i}`, 1]));
    const r = await call("POST", BOOK, { "accept-encoding": "gzip" }, body);
    assert.equal(r.status, 422);
    assert.equal(r.headers.get("content-encoding"), "gzip");
    assert.equal(JSON.parse(gunzipSync(await bytes(r)).toString()).errors.length, 60);
  });
});

describe("what stays as it is", () => {
  const gzip = { "accept-encoding": "gzip" };

  test("a small answer (under 1 KiB) is sent plainly, the same for every client (no Vary)", async () => {
    const r = await call("GET", `${BOOK}/${smallId}`, gzip);
    assert.equal(r.headers.get("content-encoding"), null);
    assert.equal(r.headers.get("vary"), null);
    assert.equal((await r.json()).title, "Dune");
  });

  test("an answer told by its text alone: under 1 KiB of ASCII plain and without Vary for every client; 1 KiB of UTF-8 in fewer characters compressed", async () => {
    // About 700 bytes: more than a third of the threshold in characters, less than it in bytes.
    const mid = await (await call("POST", BOOK, {}, { title: "m".repeat(600), isbn: "mid" })).json();
    for (const headers of [{}, { "accept-encoding": "gzip" }] as Record<string, string>[]) {
      const r = await call("GET", `${BOOK}/${mid.id}`, headers);
      const body = await bytes(r);
      assert.ok(body.length > 342 && body.length < 1024, String(body.length));
      assert.equal(r.headers.get("content-encoding"), null);
      assert.equal(r.headers.get("vary"), null, "the same answer for every client");
    }
    // 400 euro signs: 1,200 bytes in UTF-8 though fewer than 1,024 characters.
    const wide = await (await call("POST", BOOK, {}, { title: "€".repeat(400), isbn: "wide" })).json();
    const { plain: text, response } = await assertCompressed(`${BOOK}/${wide.id}`);
    assert.ok(text.length >= 1024 && text.toString().length < 1024);
    assert.match(response.headers.get("vary") ?? "", /Accept-Encoding/);
    assert.match((await call("GET", `${BOOK}/${wide.id}`)).headers.get("vary") ?? "", /Accept-Encoding/);
    for (const id of [mid.id, wide.id]) assert.equal((await call("DELETE", `${BOOK}/${id}`)).status, 204);
  });

  test("HEAD, 304 (both forms of the tag), 204 and 201 without body are untouched", async () => {
    const head = await call("HEAD", BOOK, gzip);
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-encoding"), null);
    assert.equal((await bytes(head)).length, 0);
    for (const tag of ['"1"', 'W/"1"']) {
      const r = await call("GET", `${BOOK}/${bigId}`, { ...gzip, "if-none-match": tag });
      assert.equal(r.status, 304, tag);
      assert.equal(r.headers.get("content-encoding"), null);
      assert.equal(r.headers.get("etag"), '"1"');
    }
    const put = await call("PUT", `${BOOK}/${bigId}`, { ...gzip, "if-match": '"1"' }, { title: "z".repeat(3000), isbn: "big" });
    assert.equal(put.status, 200, "the tag a compressed GET gave makes If-Match hold");
    assert.equal(put.headers.get("content-encoding"), "gzip");
    assert.equal(put.headers.get("etag"), '"2"');
    const del = await call("DELETE", `${BOOK}/${bigId}`, gzip);
    assert.equal(del.status, 204);
    assert.equal(del.headers.get("content-encoding"), null);
  });

  test("identity, q=0, an unknown coding, or no Accept-Encoding: plain", async () => {
    for (const accept of ["identity", "gzip;q=0", "gzip;q=0, deflate;q=0", "zstd", "*;q=0", undefined]) {
      const r = await call("GET", BOOK, accept === undefined ? {} : { "accept-encoding": accept });
      assert.equal(r.headers.get("content-encoding"), null, String(accept));
      assert.match(r.headers.get("vary") ?? "", /Accept-Encoding/, "a large answer's encoding depends on the request's");
      assert.equal(JSON.parse(await r.text()).length, 301);
    }
  });

  test("compress: false compresses nothing", async () => {
    await call("POST", BOOK, {}, { title: "y".repeat(5000), isbn: "p" }, plain);
    const r = await call("GET", BOOK, { "accept-encoding": "gzip" }, undefined, plain);
    assert.equal(r.headers.get("content-encoding"), null);
    assert.equal(r.headers.get("vary"), null);
  });

  test("the choice of encoding follows the client's weights, gzip first among equals", () => {
    assert.equal(chooseEncoding("gzip, deflate, br, zstd"), "gzip");
    assert.equal(chooseEncoding("deflate, gzip;q=0.5"), "deflate");
    assert.equal(chooseEncoding("*"), "gzip");
    assert.equal(chooseEncoding("br"), undefined, "Node 20's CompressionStream has no brotli");
    assert.equal(chooseEncoding(" GZIP ; q=0.3"), "gzip");
    assert.equal(chooseEncoding("identity"), undefined);
  });
});

/** One GET over node:http, which passes the body as it came (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Over HTTP: a large extent gzipped on the wire, unpacking to the plain answer's bytes; a small answer plain. */
async function overHttp(base: string, path: string, small: string): Promise<void> {
  const identity = await rawGet(`${base}${path}`, { "accept-encoding": "identity" });
  assert.equal(identity.status, 200);
  assert.equal(identity.headers["content-encoding"], undefined);
  const gz = await rawGet(`${base}${path}`, { "accept-encoding": "gzip" });
  assert.equal(gz.headers["content-encoding"], "gzip");
  assert.match(String(gz.headers["vary"]), /Accept-Encoding/);
  assert.ok(gunzipSync(gz.body).equals(identity.body), "the gzip answer unpacks to the plain bytes");
  assert.ok(gz.body.length * 3 < identity.body.length, `${gz.body.length} of ${identity.body.length}`);
  const little = await rawGet(`${base}${small}`, { "accept-encoding": "gzip" });
  assert.equal(little.status, 200);
  assert.equal(little.headers["content-encoding"], undefined);
}

describe("over real HTTP", () => {
  test("Node (serve() from src/runtime/serve.ts)", async () => {
    const served = await serve(handler.fetch, 0, "127.0.0.1");
    try {
      await overHttp(served.url, BOOK, `${BOOK}/${smallId}`);
    } finally {
      await served.close();
    }
  });

  for (const name of ["bun", "deno"] as const) {
    test(`${name} (the local entry)`, { timeout: 120_000 }, async () => {
      const target = await startTarget(name);
      try {
        const api = `${target.url}/api`;
        for (const book of books(40, 1000)) {
          const r = await fetch(`${api}${BOOK}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(book) });
          assert.equal(r.status, 201);
        }
        await overHttp(api, `${BOOK}?fetchGroup=all`, "/");
        if (name === "deno") {
          const br = await rawGet(`${api}${BOOK}`, { "accept-encoding": "br" });
          assert.equal(br.headers["content-encoding"], "br", "Deno's CompressionStream writes brotli");
          assert.ok(brotliDecompressSync(br.body).length > 2000);
        }
      } catch (error) {
        (error as Error).message += `\n--- ${name} output ---\n${target.output().slice(-4000)}`;
        throw error;
      } finally {
        await target.stop();
      }
    });
  }
});
