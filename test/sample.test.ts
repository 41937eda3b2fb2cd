/**
 * The sample model in schema/ as a newcomer meets it: the persistence unit loads, the demo data
 * seeds through the handler, and the objects come back with their classes, keys and relations.
 * Also the library use: the handler mounted under a prefix in another Hono app.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Hono } from "hono";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { createRestHandler } from "../src/index.ts";
import { startHarness, type Harness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
let h: Harness;

before(async () => {
  const { context, problems } = resolveContext(await loadConfigDir(SCHEMA), "sample");
  assert.deepEqual(problems, []);
  h = await startHarness({ metadata: context.metadata });
  const data = JSON.parse(readFileSync(new URL("../schema/sample-data.json", import.meta.url), "utf8"));
  // Seed through real requests, exactly as `npm start --seed` does.
  const seeded = await seedIfEmpty({ fetch: handlerFetch }, data);
  assert.equal(seeded, 5);
});
after(() => h.close());

/** The harness's handler as a fetch function (the harness counts its statements). */
async function handlerFetch(r: Request): Promise<Response> {
  const path = new URL(r.url).pathname;
  const reply = await h.call(r.method, path, r.method === "POST" ? JSON.parse(await r.text()) : undefined);
  return new Response(reply.text || null, { status: reply.status, headers: reply.headers });
}

test("the Item extent holds books and magazines, each with its own class and fields", async () => {
  const items = (await h.get("/org.extent.sample.Item")).body;
  assert.deepEqual(
    items.map((i: any) => i.class),
    ["org.extent.sample.Book", "org.extent.sample.Book", "org.extent.sample.Book", "org.extent.sample.Magazine"],
  );
  assert.equal(items[0].isbn, "978-0061054884");
  assert.equal(items[3].issue, 42);
  assert.equal(items[3].isbn, undefined);
  assert.deepEqual(items[0].author, { class: "org.extent.sample.Author", _id: 1 });
  assert.equal(items[0]._version, 1);
});

test("an author with fetchGroup=all nests its works, whose author is cut to an identity", async () => {
  const author = (await h.get("/org.extent.sample.Author/1?fetchGroup=all")).body;
  assert.equal(author.name, "Ursula K. Le Guin");
  assert.equal(author.born, Date.UTC(1929, 9, 21));
  assert.deepEqual(author.address, { street: "1 Ekumen Way", city: "Portland", country: "US" });
  assert.deepEqual(
    author.works.map((w: any) => w.title),
    ["The Dispossessed", "A Wizard of Earthsea"],
  );
  assert.deepEqual(author.works[0].author, { class: "org.extent.sample.Author", _id: 1 });
});

test("a category's composite key nests its parent's key", async () => {
  const key = encodeURIComponent(JSON.stringify({ id: 2, kind: "genre", parent: { id: 1, kind: "genre" } }));
  const child = (await h.get(`/org.extent.sample.Category/${key}`)).body;
  assert.equal(child.name, "Science fiction");
  assert.deepEqual(child.parent, { class: "org.extent.sample.Category$Key", id: 1, kind: "genre", parent: null });
});

test("createRestHandler mounts under a prefix inside another Hono app", async () => {
  const { context } = resolveContext(await loadConfigDir(SCHEMA), "sample");
  const handler = createRestHandler({ context: { ...context, url: ":memory:" }, prefix: "/api" });
  const app = new Hono();
  app.get("/health", (c) => c.text("ok"));
  app.mount("/api", handler.fetch, { replaceRequest: false });
  const health = await app.request("/health");
  assert.equal(await health.text(), "ok");
  const created = await app.request("/api/org.extent.sample.Member", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "b@example.org", name: "B" }),
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get("location"), "/api/org.extent.sample.Member/b%40example.org");
  const got = await app.request("/api/org.extent.sample.Member/b@example.org");
  assert.equal((await got.json()).name, "B");
  handler.close();
});
