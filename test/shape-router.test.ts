/**
 * Routing once per path shape (src/http/shape-router.ts) finds what Hono's trie router finds: the
 * app's real route table (with and without a prefix) is added to both, and every method over a
 * corpus of paths — each resource, wrong places for static names, extra and empty segments,
 * explorer files one and two segments deep, encoded and NUL characters, stand-in look-alikes —
 * must give the same handlers, in the same order, with the same parameter values. A request of a
 * shape already matched reuses it with its own segments. Routing as the app does, a match ends at
 * the first handler that always answers.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Result } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { buildApp } from "../src/http/app.ts";
import { ShapeRouter } from "../src/http/shape-router.ts";
import { alwaysAnswers } from "../src/http/resource.ts";
import { type Harness, appRuntime, startHarness } from "./support/harness.ts";
import { CACHE_MODEL } from "./models/cache-model.ts";

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "cc.jdo", text: CACHE_MODEL }] });
});
after(() => h?.close());

const METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"];
const PATHS = [
  "/",
  "",
  "/openapi.json",
  "/jdoql",
  "/query",
  "/jpql",
  "/cc.Book",
  "/cc.Book/1",
  "/cc.Book/1/2",
  "/jdoql/1",
  "/jdoql/jpql",
  "/openapi.json/x",
  "/_explorer",
  "/_explorer/swagger-ui.css",
  "/_explorer/a/b",
  "/_explorer/_explorer",
  "/x/jdoql",
  "//x",
  "/cc.Book//",
  "/%00",
  "/\u0000",
  "/\u00001",
  "/\u00002/\u00001",
  "/a/b/c/d/e/f",
  "/cc.Author/%7B%22id%22%3A1%7D",
  "/_explorer/a\nb",
  "/_explorer/a\u2028b",
  "/cc.Book/a\rb",
  "/_explorer/x/\u2028/y",
  `/cc.Book/1${"/x".repeat(20)}`,
  `/_explorer${"/".repeat(20)}a`,
];

/** Each handler with its parameters' values, from either form of Hono's match result. */
function resolved<T>(result: Result<T>): [T, Record<string, string | undefined>][] {
  const stash = result[1];
  return (result[0] as [T, Record<string, string | number>][]).map(([handler, params]) => [
    handler,
    Object.fromEntries(Object.entries(params).map(([name, v]) => [name, stash ? stash[v as number] : (v as string)])),
  ]);
}

for (const prefix of ["/api", ""]) {
  test(`the app's routes${prefix ? ` under ${prefix}` : ""} match alike by shape and by trie`, () => {
    const { app } = buildApp(appRuntime(h, prefix), () => Promise.resolve(), undefined, {
      compressThreshold: 1024,
      describe: () => "{}",
      explorer: { access: false },
    });
    const shape = new ShapeRouter<unknown>();
    const trie = new TrieRouter<unknown>();
    assert.ok(app.routes.length > 10);
    for (const r of app.routes) {
      shape.add(r.method, r.path, r.handler);
      trie.add(r.method, r.path, r.handler);
    }
    let compared = 0;
    for (let round = 0; round < 2; round++) {
      // The second round finds every shape kept: it must still answer each path's own values.
      for (const method of METHODS)
        for (const path of PATHS) {
          const full = `${prefix}${path}` || "/";
          assert.deepEqual(resolved(shape.match(method, full)), resolved(trie.match(method, full)), `${method} ${full}`);
          compared++;
        }
    }
    assert.equal(compared, 2 * METHODS.length * PATHS.length);

    // As the app routes: what the trie finds, up to the first handler that always answers (the
    // ones after it never run). A GET or PUT of an object then matches its one handler.
    const app_ = new ShapeRouter<[unknown, unknown]>(([handler]) => alwaysAnswers(handler as object));
    for (const r of app.routes) app_.add(r.method, r.path, [r.handler, r]);
    const upToAnswer = <T>(found: [[unknown, unknown], T][]) => found.slice(0, found.findIndex(([[h]]) => alwaysAnswers(h as object)) + 1 || found.length);
    let shortened = 0;
    for (const method of METHODS)
      for (const path of PATHS) {
        const full = `${prefix}${path}` || "/";
        const all = resolved(trie.match(method, full) as Result<unknown>) as [[unknown, unknown], Record<string, string | undefined>][];
        const want = upToAnswer(all.map(([handler, params]) => [[handler, undefined], params] as [[unknown, unknown], typeof params]));
        const got = resolved(app_.match(method, full));
        assert.deepEqual(
          got.map(([[h], params]) => [h, params]),
          want.map(([[h], params]) => [h, params]),
          `${method} ${full}`,
        );
        if (want.length < all.length) shortened++;
      }
    assert.ok(shortened > 0, "some paths match handlers that never run");
    for (const method of ["GET", "PUT", "DELETE"]) assert.equal(app_.match(method, `${prefix}/cc.Book/1`)[0].length, 1, `${method} of an object: one handler`);
  });
}

test("a route whose parameter only some segments satisfy cannot be added", () => {
  const router = new ShapeRouter<string>();
  assert.throws(() => router.add("GET", "/items/:id{[0-9]+}", "h"), /not static text, :name, :name\{\.\+\} or \*/);
  assert.throws(() => router.add("GET", "/items/:id?", "h"), /not static text/);
  router.add("GET", "/items/:id", "item");
  assert.deepEqual(resolved(router.match("GET", "/items/7")), [["item", { id: "7" }]]);
  assert.deepEqual(resolved(router.match("GET", "/items/8")), [["item", { id: "8" }]], "the shape kept, the value the request's");
});

test("more shapes than the router keeps still match as the trie matches them", () => {
  const shape = new ShapeRouter<string>();
  const trie = new TrieRouter<string>();
  for (const path of ["/api/:class", "/api/:class/:key{.+}", "/api/jdoql", "/api/_explorer/*"])
    for (const method of ["GET", "PUT"]) {
      shape.add(method, path, `${method} ${path}`);
      trie.add(method, path, `${method} ${path}`);
    }
  // 1,200 shapes of 13 segments (each segment empty or a stand-in), past the 512 kept, twice over:
  // the second pass finds the first shapes dropped and learns them again.
  const paths = Array.from({ length: 1200 }, (_, n) => `/api${Array.from({ length: 11 }, (_, b) => ((n >> b) & 1 ? "/s" : "/")).join("")}`);
  for (let round = 0; round < 2; round++)
    for (const path of paths) assert.deepEqual(resolved(shape.match("GET", path)), resolved(trie.match("GET", path)), path);
  assert.deepEqual(resolved(shape.match("PUT", "/api/a/b")), [["PUT /api/:class/:key{.+}", { class: "a", key: "b" }]]);
});
