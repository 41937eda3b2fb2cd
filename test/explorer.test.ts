/**
 * The explorer over HTTP (contract §9), without a browser (test/explorer-browser.test.ts has one):
 * which Accept gets the page and which keeps the JSON, the page's headers and what it holds, its
 * files (allow-list, 404 problems for anything else, traversal attempts included, HEAD, ETag and
 * 304, 405/OPTIONS), the page without the renderers' files, with access control, turned off, and
 * the Node helper that reads the files from the installed packages.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { loadModel } from "../src/config/load-model.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { PACKAGE_FILES, type ExplorerAssets } from "../src/describe/explorer-assets.ts";
import { describeApi } from "../src/describe/openapi.ts";
import { createRestHandler, type RestHandler, type RestHandlerOptions } from "../src/handler.ts";
import { prefersHtml } from "../src/http/negotiate.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { nodeExplorerAssets } from "../src/runtime/explorer-files.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(`${ROOT}schema/jdo`), "sample");
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

function handlerWith(options: Partial<RestHandlerOptions> = {}): RestHandler {
  return createRestHandler({ context: { ...sample, url: ":memory:" }, prefix: "/api", ...options });
}
const get = (h: RestHandler, path: string, headers: Record<string, string> = {}, method = "GET") =>
  h.fetch(new Request(`http://localhost/api${path}`, { method, headers }));

test("Accept: HTML only when the header prefers text/html to JSON", () => {
  const cases: [string | null, boolean][] = [
    [null, false],
    ["", false],
    ["application/json", false],
    ["*/*", false],
    ["text/html;q=0.1, application/json", false],
    ["text/html, application/json", false], // a tie keeps the API's answer
    ["text/*;q=0.5, */*", false],
    ["text/html;q=0", false],
    ["text/html;q=abc", false],
    [BROWSER, true],
    ["text/html", true],
    ["TEXT/HTML", true],
    ["text/html, application/json;q=0.5", true],
    ["text/*, application/json;q=0.9", true],
  ];
  for (const [accept, html] of cases) assert.equal(prefersHtml(accept), html, `Accept: ${accept}`);
});

describe("the page and its files, with the renderers' files from the installed packages", () => {
  let h: RestHandler;
  before(async () => {
    h = handlerWith({ explorer: nodeExplorerAssets() });
    await h.ready;
  });
  after(() => h.close());

  test("a browser gets the page; application/json, */* and no Accept the JSON; both Vary: Accept", async () => {
    const page = await get(h, "/", { accept: BROWSER });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(page.headers.get("vary")!, /^Accept\b/);
    assert.match(page.headers.get("content-security-policy")!, /default-src 'self'.*script-src 'self'; .*connect-src 'self'/);
    assert.equal(page.headers.get("cache-control"), "no-cache");
    for (const accept of ["application/json", "*/*", "text/html;q=0.1, application/json", undefined]) {
      const r = await get(h, "/", accept ? { accept } : {});
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type")!, /^application\/json/, `Accept: ${accept}`);
      assert.match(r.headers.get("vary")!, /^Accept\b/);
      assert.ok(Array.isArray((await r.json()).classes));
    }
  });

  test("the page: every class, the diagram's text, no inline script, nothing from another origin", async () => {
    const html = await (await get(h, "/", { accept: "text/html" })).text();
    for (const name of h.model.classes.keys()) assert.ok(html.includes(`data-class="${name}"`), name);
    assert.ok(html.includes('<pre class="mermaid" id="diagram-text">classDiagram'), "the diagram's text, for Mermaid");
    assert.ok(html.includes("Item &lt;|-- Book"), "escaped as HTML");
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    assert.ok(scripts.length === 3 && scripts.every((s) => / src="\/api\/_explorer\/[\w.-]+"/.test(s)), `scripts: ${scripts.join(" | ")}`);
    assert.ok(!/https?:\/\//.test(html), "no absolute URL: everything from this server");
    assert.ok(html.includes('data-renderers="on"') && !html.includes('id="token"'), "no token field without access control");
  });

  test("HEAD of the page answers GET's headers without a body", async () => {
    const r = await get(h, "/", { accept: "text/html" }, "HEAD");
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(await r.text(), "");
  });

  test("each file of the allow-list: its type, an ETag, Cache-Control; If-None-Match answers 304; HEAD no body", async () => {
    const types: Record<string, RegExp> = { "explorer.js": /^text\/javascript/, "explorer.css": /^text\/css/ };
    for (const [name, file] of Object.entries(PACKAGE_FILES)) types[name] = new RegExp(`^${file.type.split(";")[0]!.replace("/", "\\/")}`);
    for (const [name, type] of Object.entries(types)) {
      const r = await get(h, `/_explorer/${name}`);
      assert.equal(r.status, 200, name);
      assert.match(r.headers.get("content-type")!, type, name);
      assert.equal(r.headers.get("cache-control"), "public, max-age=3600");
      assert.equal(r.headers.get("x-content-type-options"), "nosniff");
      const etag = r.headers.get("etag")!;
      assert.match(etag, /^"[^"]+"$/, name);
      assert.ok((await r.arrayBuffer()).byteLength > 1000, name);
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const again = await get(h, `/_explorer/${name}`, { "if-none-match": condition });
        assert.equal(again.status, 304, `${name} If-None-Match: ${condition}`);
        assert.equal(again.headers.get("etag"), etag);
        assert.equal(await again.text(), "");
      }
      assert.equal((await get(h, `/_explorer/${name}`, { "if-none-match": '"other"' })).status, 200);
      const head = await get(h, `/_explorer/${name}`, {}, "HEAD");
      assert.equal(head.status, 200);
      assert.equal(head.headers.get("etag"), etag);
      assert.equal(await head.text(), "");
    }
    const mermaid = await (await get(h, "/_explorer/mermaid.min.js")).text();
    assert.equal(mermaid, readFileSync(`${ROOT}node_modules/mermaid/dist/mermaid.min.js`, "utf8"), "the package's own file");
  });

  test("any other name is a 404 problem: unknown files, traversal attempts, inherited property names", async () => {
    for (const path of [
      "/_explorer/nothing.js",
      "/_explorer/",
      "/_explorer/..%2Fpackage.json",
      "/_explorer/..%2F..%2Fsrc%2Fhandler.ts",
      "/_explorer/%2e%2e/%2e%2e/package.json",
      "/_explorer/sub/explorer.js",
      "/_explorer/explorer.js%00",
      "/_explorer/swagger-ui-bundle.js.map",
      "/_explorer/index.html",
      "/_explorer/__proto__",
      "/_explorer/constructor",
      "/_explorer/toString",
    ]) {
      const r = await get(h, path);
      assert.equal(r.status, 404, path);
      assert.match(r.headers.get("content-type")!, /^application\/problem\+json/, path);
      assert.equal((await r.json()).status, 404);
    }
  });

  test("a file is GET and HEAD only: 405 with Allow, OPTIONS 204", async () => {
    const post = await get(h, "/_explorer/explorer.js", {}, "POST");
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
    const options = await get(h, "/_explorer/explorer.js", {}, "OPTIONS");
    assert.equal(options.status, 204);
    assert.equal(options.headers.get("allow"), "GET, HEAD");
    assert.equal((await get(h, "/_explorer/nothing.js", {}, "POST")).status, 404, "an unknown file is 404 whatever the method");
  });

  test("the OpenAPI document describes the page as GET /'s other answer, and the page's files", async () => {
    const doc = await (await get(h, "/openapi.json")).json();
    const ok = doc.paths["/"].get.responses["200"];
    assert.deepEqual(Object.keys(ok.content), ["application/json", "text/html"]);
    assert.ok(ok.headers.Vary);
    const off = describeApi(h.model, { prefix: "/api", explorer: false }) as any;
    assert.deepEqual(Object.keys(off.paths["/"].get.responses["200"].content), ["application/json"]);
    assert.equal(off.paths["/_explorer/{file}"], undefined);
    // The files' path, with exactly the names this server serves: each answers 200, any other 404.
    const files = doc.paths["/_explorer/{file}"].get;
    const names: string[] = files.parameters.find((p: { name: string }) => p.name === "file").schema.enum;
    assert.deepEqual(names.sort(), ["explorer.css", "explorer.js", ...Object.keys(PACKAGE_FILES)].sort());
    for (const name of names) assert.equal((await get(h, `/_explorer/${name}`)).status, 200, name);
    assert.ok(files.responses["304"] && files.responses["404"]);
    const bare = describeApi(h.model, { prefix: "/api", explorer: { renderers: false } }) as any;
    assert.deepEqual(bare.paths["/_explorer/{file}"].get.parameters[0].schema.enum.sort(), ["explorer.css", "explorer.js"]);
  });
});

test("without the renderers' files: the page says so and shows the diagram as text; their names are 404", async () => {
  const h = handlerWith();
  try {
    const html = await (await get(h, "/", { accept: "text/html" })).text();
    assert.ok(html.includes('data-renderers="off"') && html.includes('id="no-renderers"'), "the note");
    assert.ok(!html.includes("mermaid.min.js") && !html.includes("swagger-ui"), "no link to files that are not there");
    assert.ok(html.includes("/api/_explorer/explorer.js"), "the console still runs");
    for (const name of Object.keys(PACKAGE_FILES)) assert.equal((await get(h, `/_explorer/${name}`)).status, 404, name);
    assert.equal((await get(h, "/_explorer/explorer.css")).status, 200);
  } finally {
    h.close();
  }
});

test("a renderer's file goes out gzipped to a client that takes it, compressed once: its own ETag, 304 on it, Vary; identity otherwise and with compression off", async () => {
  let reads = 0;
  const node = nodeExplorerAssets()!;
  const assets: ExplorerAssets = { asset: (name) => (reads++, node.asset(name)) };
  const h = handlerWith({ explorer: assets });
  const off = handlerWith({ explorer: assets, compress: false });
  try {
    const plain = readFileSync(`${ROOT}node_modules/mermaid/dist/mermaid.min.js`);
    const gz = { "accept-encoding": "gzip" };
    const first = await get(h, "/_explorer/mermaid.min.js", gz);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-encoding"), "gzip");
    assert.match(first.headers.get("vary")!, /Accept-Encoding/);
    const etag = first.headers.get("etag")!;
    assert.match(etag, /-gzip"$/);
    const bytes = Buffer.from(await first.arrayBuffer());
    assert.ok(bytes.length < plain.length / 2, `${bytes.length} bytes gzipped of ${plain.length}`);
    assert.ok(gunzipSync(bytes).equals(plain), "the gzip holds the package's file");
    const second = await get(h, "/_explorer/mermaid.min.js", gz);
    assert.ok(Buffer.from(await second.arrayBuffer()).equals(bytes));
    const revalidated = await get(h, "/_explorer/mermaid.min.js", { ...gz, "if-none-match": etag });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers.get("content-encoding"), null);
    const identity = await get(h, "/_explorer/mermaid.min.js");
    assert.equal(identity.headers.get("content-encoding"), null);
    assert.notEqual(identity.headers.get("etag"), etag, "another representation, another strong tag");
    assert.ok(Buffer.from(await identity.arrayBuffer()).equals(plain));
    const uncompressed = await get(off, "/_explorer/mermaid.min.js", gz);
    assert.equal(uncompressed.headers.get("content-encoding"), null, "compress: false (the worker, where the platform compresses)");
    assert.ok(reads > 0);
  } finally {
    h.close();
    off.close();
  }
});

test("a provider without ETags: the handler tags the file by its bytes, asks once per 304; a file it lacks is 404", async () => {
  const asked: string[] = [];
  const assets: ExplorerAssets = {
    async asset(name) {
      asked.push(name);
      return name === "mermaid.min.js" ? undefined : new Response(`/* ${name} */`);
    },
  };
  const h = handlerWith({ explorer: assets });
  try {
    const r = await get(h, "/_explorer/swagger-ui.css");
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "/* swagger-ui.css */");
    assert.match(r.headers.get("content-type")!, /^text\/css/, "the type is the handler's, whatever the provider says");
    const etag = r.headers.get("etag")!;
    assert.match(etag, /^"s-[0-9a-f]{24}"$/);
    assert.equal((await get(h, "/_explorer/swagger-ui.css", { "if-none-match": etag })).status, 304);
    assert.deepEqual(asked, ["swagger-ui.css"], "the 304 did not ask the provider");
    const missing = await get(h, "/_explorer/mermaid.min.js");
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).detail, /not available/);
  } finally {
    h.close();
  }
});

test("with access control: the page and its files need no token; the console offers a field for one", async () => {
  const h = handlerWith({
    context: { ...sample, url: ":memory:", access: { jwt: { secret: "a-test-secret-of-at-least-thirty-two-bytes" }, rules: { default: "deny" } } },
    explorer: nodeExplorerAssets(),
  });
  try {
    const page = await get(h, "/", { accept: BROWSER });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.ok(html.includes('id="token"') && html.includes('data-access="on"'), "a token field");
    assert.equal((await get(h, "/_explorer/explorer.js")).status, 200);
    assert.equal((await get(h, "/_explorer/swagger-ui.css")).status, 200);
    assert.equal((await get(h, "/org.extent.sample.Book")).status, 401, "the data still needs one");
  } finally {
    h.close();
  }
});

test("explorer: false: GET / is JSON whatever the Accept, and no file is served", async () => {
  const h = handlerWith({ explorer: false });
  try {
    const r = await get(h, "/", { accept: BROWSER });
    assert.match(r.headers.get("content-type")!, /^application\/json/);
    assert.ok(!/^Accept\b/.test(r.headers.get("vary") ?? ""), "no Vary: Accept");
    assert.equal((await get(h, "/_explorer/explorer.js")).status, 404);
  } finally {
    h.close();
  }
});

test("nodeExplorerAssets: every package file with an ETag, read once; none for an unknown name or where the packages are not installed", async () => {
  const assets = nodeExplorerAssets()!;
  for (const name of Object.keys(PACKAGE_FILES)) {
    const [a, b] = [await assets.asset(name), await assets.asset(name)];
    assert.equal(a?.status, 200);
    assert.equal(a!.headers.get("etag"), b!.headers.get("etag"));
    assert.equal((await a!.arrayBuffer()).byteLength, (await b!.arrayBuffer()).byteLength);
  }
  assert.equal(await assets.asset("../package.json"), undefined);
  assert.equal(nodeExplorerAssets("file:///nowhere/at/all.js"), undefined);
  assert.ok(loadModel(sample).classes.size > 0);
});
