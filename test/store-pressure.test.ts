/**
 * Errors a client can cause beyond a bad body: a query nested deeper than the parser's stack (a
 * precise 400, not a crash), and a database another writer keeps locked past the wait (503 with
 * Retry-After, nothing changed).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createRestHandler } from "../src/handler.ts";
import { startHarness } from "./support/harness.ts";

const metadata = [{ source: "package.jdo", text: readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8") }];
const q = encodeURIComponent;

test("a query nested too deeply is a 400 problem document, in JDOQL, JPQL and filters", async () => {
  // Longer texts (and URLs) than the default queryLength and urlBytes limits allow, to reach the parser's stack.
  const h = await startHarness({ metadata, limits: { queryLength: 100_000, urlBytes: 1 << 20 } });
  try {
    const deep = (n: number) => "(".repeat(n) + "1 == 1" + ")".repeat(n);
    for (const path of [
      `/jdoql?query=${q(`SELECT FROM org.extent.sample.Book WHERE ${deep(20_000)}`)}`,
      `/jpql?query=${q(`SELECT b FROM Book b WHERE ${deep(20_000).replace("1 == 1", "1 = 1")}`)}`,
      `/org.extent.sample.Book?filter=${q("!".repeat(50_000) + "true")}`,
    ]) {
      const r = await h.get(path);
      assert.equal(r.status, 400, `${path.slice(0, 40)}: ${r.text.slice(0, 200)}`);
      assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
      assert.match(r.body.detail, /nested too deeply/);
    }
    // The handler is unharmed: the next query works.
    assert.equal((await h.get(`/jdoql?query=${q("SELECT FROM org.extent.sample.Book WHERE pages > 1")}`)).status, 200);
  } finally {
    h.close();
  }
});

// Found by fuzzing: short texts that parse, bind and compile, but nest deeper than SQLite takes
// (its limits, not ours), were 500s ("parser stack overflow" on SQLite 3.45; 3.47's parser stack
// grows, and its expression depth, 1000, is the limit now).
test("a query that SQLite finds nested too deeply is a 400 too, for GET and HEAD", async () => {
  const h = await startHarness({ metadata });
  try {
    const filter = `/org.extent.sample.Book?filter=${q("!".repeat(1100) + "true")}`;
    for (const path of [
      filter,
      `/jdoql?query=${q(`SELECT FROM org.extent.sample.Book WHERE ${"!".repeat(1100)}true`)}`,
      `/jpql?query=${q(`SELECT b FROM Book b WHERE ${"NOT ".repeat(1100)}TRUE`)}`,
    ]) {
      const r = await h.get(path);
      assert.equal(r.status, 400, `${path.slice(0, 40)}: ${r.text.slice(0, 200)}`);
      assert.match(r.body.detail, /nested too deeply/);
    }
    assert.equal((await h.call("HEAD", filter)).status, 400);
  } finally {
    h.close();
  }
});

test("a database locked by another writer past the wait answers 503 with Retry-After and changes nothing", { timeout: 30_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-busy-"));
  const file = join(dir, "db.sqlite");
  const handler = createRestHandler({ context: { name: "busy", url: `file:${file}`, metadata } });
  await handler.ready;
  const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => { exec(sql: string): void; close(): void } };
  const other = new Database(file);
  try {
    other.exec("BEGIN IMMEDIATE");
    const post = () =>
      handler.fetch(
        new Request("http://x/org.extent.sample.Magazine", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"title":"Locus","issue":1}',
        }),
      );
    const r = await post();
    assert.equal(r.status, 503, await r.clone().text());
    assert.equal(r.headers.get("retry-after"), "1");
    assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
    other.exec("ROLLBACK");
    assert.deepEqual(await (await handler.fetch(new Request("http://x/org.extent.sample.Magazine"))).json(), []);
    assert.equal((await post()).status, 201);
  } finally {
    other.close();
    handler.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
