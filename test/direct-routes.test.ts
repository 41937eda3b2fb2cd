/**
 * The routes the app runs without Hono's dispatch (src/http/direct.ts) answer what Hono's dispatch
 * answers. Two databases of one model, one app each: the same requests, in the same order, go to
 * one app's `fetch` (direct where it can) and to the other's Hono app alone, and every answer must
 * be the same: status, headers and body, errors included, and the stores must end the same. The
 * requests that should run directly must do so (`direct` answers them), and those that must not
 * (HEAD, OPTIONS, a path CORS middleware is on, a path no route has) must not.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type App, buildApp } from "../src/http/app.ts";
import { resolveLimits } from "../src/config/limits.ts";
import { resolveCors } from "../src/config/cors.ts";
import { type Harness, appRuntime, startHarness } from "./support/harness.ts";

const MODEL = `<jdo><package name="d">
  <class name="Author" identity-type="application">
    <field name="id" primary-key="true" field-type="long"/>
    <field name="name" field-type="java.lang.String"/>
  </class>
  <class name="Tag" identity-type="application">
    <version strategy="version-number"/>
    <field name="code" primary-key="true" field-type="java.lang.String"/>
    <field name="label" field-type="java.lang.String"/>
  </class>
</package></jdo>`;

let direct: Harness;
let hono: Harness;
before(async () => {
  direct = await startHarness({ metadata: [{ source: "d.jdo", text: MODEL }] });
  hono = await startHarness({ metadata: [{ source: "d.jdo", text: MODEL }] });
});
after(() => {
  direct?.close();
  hono?.close();
});

function appOf(h: Harness, prefix: string, cors = false): App {
  return buildApp(appRuntime(h, prefix, resolveLimits({ keyBytes: 64 })), () => Promise.resolve(), undefined, {
    compressThreshold: 1024,
    describe: () => "{}",
    cors: cors ? resolveCors({ origins: ["https://app.example"] }) : undefined,
  });
}

type Call = [method: string, path: string, body?: unknown, headers?: Record<string, string>];

/** Each call made on both apps; `runsDirectly` says whether the direct one must take it. */
async function same(a: App, b: App, prefix: string, calls: readonly Call[], runsDirectly: boolean): Promise<void> {
  for (const [method, path, body, headers = {}] of calls) {
    const request = () =>
      new Request(`http://localhost${prefix}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
    const what = `${method} ${prefix}${path}`;
    // `direct` leaves a request it does not take untouched: each request runs once on each app.
    const taken = a.direct(request());
    assert.equal(taken !== undefined, runsDirectly, `${what} ${runsDirectly ? "runs" : "does not run"} directly`);
    const got = taken ? await taken : await a.fetch(request());
    const y = await b.app.fetch(request());
    assert.equal(got.status, y.status, what);
    assert.deepEqual([...got.headers], [...y.headers], what);
    assert.equal(await got.text(), await y.text(), what);
  }
}

for (const prefix of ["", "/api"]) {
  test(`plain routes${prefix ? ` under ${prefix}` : ""} answer directly what Hono's dispatch answers`, async () => {
    const a = appOf(direct, prefix);
    const b = appOf(hono, prefix);
    const n = prefix ? 100 : 0;
    await same(
      a,
      b,
      prefix,
      [
        ["POST", "/d.Author", { id: n + 1, name: "Ann" }],
        ["POST", "/d.Author", { id: n + 2, name: "Bo" }],
        ["POST", "/d.Tag", { code: `a b/${n}`, label: "spaced" }],
        ["GET", `/d.Author/${n + 1}`],
        ["GET", `/d.Author/${n + 1}/`],
        ["GET", `/d.Author/${n + 1}?fetchGroup=all`],
        ["GET", `/d.Author/${n + 1}?maxFetchDepth=x`],
        ["GET", `/d.Author/${n + 9}`],
        ["GET", "/d.Author/x"],
        ["GET", `/d.Author/${"9".repeat(80)}`],
        ["GET", `/d.Nope/${n + 1}`],
        ["GET", `/d.Tag/${encodeURIComponent(`a b/${n}`)}`],
        ["GET", `/d.Tag/${encodeURIComponent(`a b/${n}`)}`, undefined, { "if-none-match": '"1"' }],
        ["GET", "/d.Tag/%E0%A4%A"],
        ["PUT", `/d.Tag/${encodeURIComponent(`a b/${n}`)}`, { label: "changed" }, { "if-match": '"1"' }],
        ["PUT", `/d.Tag/${encodeURIComponent(`a b/${n}`)}`, { label: "again" }, { "if-match": '"1"' }],
        ["PUT", `/d.Author/${n + 2}`, { name: "Bea" }],
        ["PUT", `/d.Author/${n + 2}`, "{not json"],
        ["PUT", `/d.Author/${n + 9}`, { name: "none" }],
        ["GET", "/d.Author"],
        ["GET", "/d.Author?filter=name == 'Bea'"],
        ["GET", "/d.Author?filter=name =="],
        ["GET", "/d.Author?ordering=name desc&range=0,1"],
        ["GET", "/jdoql?query=SELECT FROM d.Author WHERE id > 0"],
        ["GET", "/jpql?query=SELECT a FROM Author a"],
        ["DELETE", `/d.Author/${n + 1}`],
        ["DELETE", `/d.Author/${n + 1}`],
        ["GET", "/d.Author"],
      ],
      true,
    );
    // Hono's own: HEAD, OPTIONS, the root, a path no route has, a method a path does not serve.
    await same(
      a,
      b,
      prefix,
      [
        ["HEAD", `/d.Author/${n + 2}`],
        ["OPTIONS", `/d.Author/${n + 2}`],
        ["GET", "/"],
        ["GET", "/a/b/c"],
        ["PATCH", `/d.Author/${n + 2}`],
        ["GET", "/openapi.json"],
      ],
      false,
    );
    assert.deepEqual(await direct.sql("SELECT * FROM AUTHOR ORDER BY ID"), await hono.sql("SELECT * FROM AUTHOR ORDER BY ID"));
    assert.deepEqual(await direct.sql("SELECT * FROM TAG ORDER BY CODE"), await hono.sql("SELECT * FROM TAG ORDER BY CODE"));
  });
}

test("with CORS middleware on every path, every request goes through Hono's dispatch", async () => {
  const a = appOf(direct, "/cors", true);
  const b = appOf(hono, "/cors", true);
  await same(
    a,
    b,
    "/cors",
    [
      ["GET", "/d.Author/2", undefined, { origin: "https://app.example" }],
      ["GET", "/d.Author"],
    ],
    false,
  );
});
