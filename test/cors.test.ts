/**
 * Web clients, part one (issue 19, item 4; contract §7): OPTIONS answers 204 with `Allow` on every
 * served path, under a prefix too; CORS is off unless configured (code, property, flag), and when
 * on, preflights are answered before authentication and every answer, problem documents
 * included, carries the CORS headers for an allowed origin and none for another. Real handler,
 * real Requests; test/cors-browser.test.ts does the same from a real browser.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseServeArgs } from "../src/cli/args.ts";
import type { PersistenceContext } from "../src/config/context.ts";
import { resolveCors } from "../src/config/cors.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { createRestHandler, type RestHandler } from "../src/handler.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { hs256 } from "./support/tokens.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const BOOK = "/org.extent.sample.Book";
const A = "http://app.example:5173";
const B = "https://other.example";
const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
const EXPOSED = ["ETag", "Location", "Content-Range", "Link", "X-Match-Count", "Preference-Applied", "WWW-Authenticate", "Allow"];

const handlers: RestHandler[] = [];
after(() => handlers.forEach((h) => h.close()));

async function handlerOf(
  context: Partial<PersistenceContext>,
  prefix = "/api",
): Promise<(method: string, path: string, headers?: Record<string, string>, body?: unknown) => Promise<Response>> {
  const handler = createRestHandler({ context: { ...sample, url: ":memory:", ...context }, prefix });
  handlers.push(handler);
  await handler.ready;
  return (method, path, headers = {}, body) =>
    handler.fetch(
      new Request(`http://localhost${prefix}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
}

const preflight = (origin: string, method = "PUT", headers = "authorization,content-type,if-match") => ({
  origin,
  "access-control-request-method": method,
  "access-control-request-headers": headers,
});

describe("OPTIONS answers 204 with Allow on every served path, under a prefix", () => {
  test("the root, the query paths, a class and an object; an unknown class is 404", async () => {
    const call = await handlerOf({});
    const book = await call("POST", BOOK, {}, { title: "Dune", isbn: "1" });
    assert.equal(book.status, 201);
    const id = (await book.json()).id;
    for (const [path, allow] of [
      ["", "GET, HEAD"],
      ["/", "GET, HEAD"],
      ["/jdoql", "GET, HEAD"],
      ["/query", "GET, HEAD"],
      ["/jpql", "GET, HEAD"],
      [BOOK, "GET, HEAD, POST, DELETE"],
      [`${BOOK}/${id}`, "GET, HEAD, PUT, DELETE"],
      [`${BOOK}/987654`, "GET, HEAD, PUT, DELETE"],
    ]) {
      const r = await call("OPTIONS", path!);
      assert.equal(r.status, 204, `OPTIONS /api${path}: ${await r.text()}`);
      assert.equal(r.headers.get("allow"), allow, `OPTIONS /api${path}`);
      assert.equal(r.headers.get("access-control-allow-origin"), null, "CORS is off unless configured");
    }
    assert.equal((await call("OPTIONS", "/org.extent.sample.Nope")).status, 404);
  });
});

describe("CORS off: no CORS header, a preflight is a plain OPTIONS", () => {
  test("GET and a preflight from another origin", async () => {
    const call = await handlerOf({});
    const get = await call("GET", BOOK, { origin: A });
    assert.equal(get.status, 200);
    const pre = await call("OPTIONS", BOOK, preflight(A));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("allow"), "GET, HEAD, POST, DELETE");
    for (const r of [get, pre]) for (const [name] of r.headers) assert.doesNotMatch(name, /^access-control-/, name);
  });
});

describe("CORS for listed origins", () => {
  let call: Awaited<ReturnType<typeof handlerOf>>;
  before(async () => (call = await handlerOf({ cors: { origins: `${A}, https://b.example` } })));

  test("a preflight from an allowed origin: 204 with the methods, the API's request headers and a max age", async () => {
    const r = await call("OPTIONS", `${BOOK}/1`, preflight(A));
    assert.equal(r.status, 204);
    assert.equal(r.headers.get("access-control-allow-origin"), A);
    assert.deepEqual(r.headers.get("access-control-allow-methods")!.split(","), ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]);
    const allowed = r.headers.get("access-control-allow-headers")!.toLowerCase().split(",");
    for (const h of ["content-type", "authorization", "if-match", "if-none-match", "prefer"]) assert.ok(allowed.includes(h), h);
    assert.equal(r.headers.get("access-control-max-age"), "600");
    assert.match(r.headers.get("vary") ?? "", /Origin/);
    assert.equal(await r.text(), "");
  });

  test("a preflight from another origin gets no Access-Control-Allow-Origin (the browser refuses)", async () => {
    const r = await call("OPTIONS", BOOK, preflight(B, "POST"));
    assert.equal(r.headers.get("access-control-allow-origin"), null);
  });

  test("actual requests: the allowed origin is echoed and the API's headers exposed; another origin gets none", async () => {
    const created = await call("POST", BOOK, { origin: A }, { title: "Emma", isbn: "2" });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("access-control-allow-origin"), A);
    assert.deepEqual(created.headers.get("access-control-expose-headers")!.split(",").slice(0, EXPOSED.length), EXPOSED);
    assert.match(created.headers.get("vary") ?? "", /Origin/);
    assert.ok(created.headers.get("location") && created.headers.get("etag"));
    const other = await call("GET", BOOK, { origin: B });
    assert.equal(other.status, 200, "the server answers; the browser keeps the answer from the page");
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    const none = await call("GET", BOOK);
    assert.equal(none.headers.get("access-control-allow-origin"), null);
  });

  test("problem documents carry the headers: 404, 400, 405, 415", async () => {
    for (const [method, path, body] of [
      ["GET", "/org.extent.sample.Nope", undefined],
      ["GET", `${BOOK}?filter=${encodeURIComponent("nope ==")}`, undefined],
      ["PATCH", BOOK, undefined],
      ["GET", "/no/such/path/here", undefined],
    ] as const) {
      const r = await call(method, path, { origin: A }, body);
      assert.ok(r.status >= 400, `${method} ${path}`);
      assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
      assert.equal(r.headers.get("access-control-allow-origin"), A, `${method} ${path}: ${r.status}`);
    }
  });

  test("a plain OPTIONS (no Access-Control-Request-Method) is the route's: Allow, and the CORS headers", async () => {
    const r = await call("OPTIONS", BOOK, { origin: A });
    assert.equal(r.status, 204);
    assert.equal(r.headers.get("allow"), "GET, HEAD, POST, DELETE");
    assert.equal(r.headers.get("access-control-allow-origin"), A);
    assert.match(r.headers.get("access-control-expose-headers") ?? "", /Allow/);
    assert.equal((await call("OPTIONS", "/org.extent.sample.Nope", { origin: A })).status, 404);
  });
});

describe("CORS for every origin, with access control on", () => {
  let call: Awaited<ReturnType<typeof handlerOf>>;
  before(async () => (call = await handlerOf({ cors: { origins: "*" }, access: { jwt: { secret: SECRET }, rules: { default: "deny" } } })));

  test("a preflight needs no credentials; the 401 that follows is readable (WWW-Authenticate exposed)", async () => {
    const pre = await call("OPTIONS", BOOK, preflight(B, "GET", "authorization"));
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
    assert.doesNotMatch(pre.headers.get("vary") ?? "", /Origin/, "the answer is the same for every origin");
    const anonymous = await call("GET", BOOK, { origin: B });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get("access-control-allow-origin"), "*");
    assert.match(anonymous.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.match(anonymous.headers.get("access-control-expose-headers") ?? "", /WWW-Authenticate/);
    const forged = await call("GET", BOOK, { origin: B, authorization: `Bearer ${await hs256({ sub: "x" }, "another-secret-of-thirty-two-bytes-or-more")}` });
    assert.equal(forged.status, 401);
    assert.equal(forged.headers.get("access-control-allow-origin"), "*");
    const admitted = await call("GET", BOOK, { origin: B, authorization: `Bearer ${await hs256({ sub: "x", roles: ["r"] }, SECRET)}` });
    assert.equal(admitted.status, 403, "a principal without grant");
    assert.equal(admitted.headers.get("access-control-allow-origin"), "*");
  });
});

describe("configuration: code, property, flag, each checked at start-up naming what is wrong", () => {
  test("in code: * or origins, as a list or one text; anything else is a RangeError naming the option", () => {
    assert.deepEqual(resolveCors({ origins: "*" }), { origins: "*" });
    assert.deepEqual(resolveCors({ origins: "https://a.example, http://localhost:5173" }), { origins: ["https://a.example", "http://localhost:5173"] });
    assert.deepEqual(resolveCors({ origins: ["https://a.example", "*"] }), { origins: "*" });
    assert.throws(() => resolveCors({ origin: "*" } as never), /^RangeError: cors\.origins \(extent\.cors\.origins\): must be an object \{ origins \}/);
    for (const [origins, message] of [
      ["https://a.example/", /cors\.origins\[0\] \(extent\.cors\.origins\): "https:\/\/a\.example\/" is not an origin/],
      [["https://a.example", "a.example"], /cors\.origins\[1\].*"a\.example" is not an origin/],
      ["ftp://files.example", /is not an origin/],
      ["", /must not be empty/],
      [[], /at least one origin/],
    ] as const) {
      assert.throws(() => resolveCors({ origins: origins as string }), message);
      assert.throws(() => createRestHandler({ context: { ...sample, url: ":memory:", cors: { origins: origins as string } } }), message);
    }
  });

  test("the property extent.cors.origins, in persistence.xml; a bad one is a problem naming the file", () => {
    const xml = (origins: string) =>
      new Map([
        [
          "persistence.xml",
          `<persistence><persistence-unit name="u"><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/><property name="extent.cors.origins" value="${origins}"/></properties></persistence-unit></persistence>`,
        ],
      ]);
    const good = resolveContext(xml("https://a.example,https://b.example"), "u");
    assert.deepEqual(good.problems, []);
    assert.deepEqual(good.context.cors, { origins: "https://a.example,https://b.example" });
    const bad = resolveContext(xml("https://a.example/app"), "u");
    assert.equal(bad.problems.length, 1);
    assert.equal(bad.problems[0]!.file, "persistence.xml");
    assert.match(bad.problems[0]!.message, /extent\.cors\.origins.*is not an origin/);
  });

  test("the flag --cors, which names itself when wrong", () => {
    const parse = (...args: string[]) => parseServeArgs(["--config", "d", "--persistence-context", "p", ...args]);
    const ok = parse("--cors", "*");
    assert.ok(ok.ok && ok.options.cors === "*");
    const bad = parse("--cors", "localhost:5173");
    assert.ok(!bad.ok);
    assert.match(bad.message, /^--cors: "localhost:5173" is not an origin/);
  });
});
