/**
 * Embedding: the handler as a user mounts it in programs of their own, each taking the same
 * requests. A Hono app with routes of its own serves Extent under /api (in-process, real
 * `Request`s through `app.fetch`); `Bun.serve` and `Deno.serve` serve it over real HTTP, spawned
 * from test/fixtures/embed/. Each mounts the handler with `prefix: "/api"`, so `Location`
 * headers carry the prefix. A runtime whose binary is not installed is skipped, saying why.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { buildUserApp } from "./fixtures/embed/hono-app.ts";
import { BIN, ROOT, freePort, startServer } from "./support/processes.ts";

const AUTHOR = "org.extent.sample.Author";
const BOOK = "org.extent.sample.Book";
const metadata = [{ source: "package.jdo", text: readFileSync(join(ROOT, "schema/jdo/package.jdo"), "utf8") }];

type Send = (path: string, init?: RequestInit) => Response | Promise<Response>;

/**
 * The request sequence every embedding answers alike. `ownRoutes`: the program has routes of
 * its own (GET /health) and answers paths outside /api itself; otherwise Extent is the whole
 * server and answers them with its own 404 problem.
 */
async function exercise(send: Send, ownRoutes: boolean): Promise<void> {
  if (ownRoutes) {
    const health = await send("/health");
    assert.equal(health.status, 200);
    assert.equal(await health.text(), "ok");
  }

  const index = await send("/api/");
  assert.equal(index.status, 200);
  assert.ok(((await index.json()) as { classes: string[] }).classes.includes(AUTHOR));

  const created = await send(`/api/${AUTHOR}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Ursula K. Le Guin", works: [{ class: BOOK, title: "The Dispossessed", pages: 387 }] }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const location = created.headers.get("location");
  assert.ok(location?.startsWith(`/api/${AUTHOR}/`), `Location carries the prefix: ${location}`);
  const author = (await created.json()) as { _id: number; name: string };
  assert.equal(location, `/api/${AUTHOR}/${author._id}`);

  const read = await send(`${location}?fetchGroup=all`);
  assert.equal(read.status, 200);
  const readBack = (await read.json()) as { name: string; works: { title: string }[] };
  assert.equal(readBack.name, "Ursula K. Le Guin");
  assert.deepEqual(
    readBack.works.map((w) => w.title),
    ["The Dispossessed"],
  );

  const query = `SELECT FROM ${BOOK} WHERE author.name == 'Ursula K. Le Guin' && pages > 300`;
  const found = await send(`/api/jdoql?query=${encodeURIComponent(query)}`);
  assert.equal(found.status, 200);
  assert.deepEqual(
    ((await found.json()) as { title: string }[]).map((b) => b.title),
    ["The Dispossessed"],
  );

  const unknown = await send("/api/org.extent.sample.Nothing");
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(((await unknown.json()) as { status: number }).status, 404);

  const outside = await send("/elsewhere");
  assert.equal(outside.status, 404);
  if (ownRoutes) {
    // The user's app answers it (Hono's plain 404), not Extent.
    assert.doesNotMatch(outside.headers.get("content-type") ?? "", /problem\+json/);
    assert.equal(await outside.text(), "404 Not Found");
  } else {
    assert.match(outside.headers.get("content-type") ?? "", /^application\/problem\+json/);
    assert.match(((await outside.json()) as { detail: string }).detail, /no resource at \/elsewhere/);
  }
}

function tempDir(): { dir: string; dbUrl: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "extent-embed-"));
  return { dir, dbUrl: `file:${join(dir, "embedded.db")}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test("a Hono app serves Extent under /api next to its own routes (app.mount)", async () => {
  const temp = tempDir();
  const { app, extent } = buildUserApp(temp.dbUrl, metadata);
  try {
    await exercise((path, init) => app.fetch(new Request(`http://localhost${path}`, init)), true);

    // Why the fixture passes `replaceRequest: false`: mount's default strips "/api" from the
    // path, and a handler built with `prefix: "/api"` then finds nothing.
    const stripped = new Hono().mount("/api", extent.fetch);
    const miss = await stripped.fetch(new Request(`http://localhost/api/${AUTHOR}`));
    assert.equal(miss.status, 404);
    assert.match(((await miss.json()) as { detail: string }).detail, new RegExp(`no resource at /${AUTHOR}`));
  } finally {
    extent.close();
    temp.remove();
  }
});

/** Spawns a fixture program on a free port with a file database, runs the sequence over HTTP. */
async function overHttp(command: string, args: string[]): Promise<void> {
  const temp = tempDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(command, args, {
    probe: `${base}/api/`,
    env: { PORT: String(port), EXTENT_DB_URL: temp.dbUrl, DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" },
    timeoutMs: 20_000,
  });
  try {
    await exercise((path, init) => fetch(`${base}${path}`, init), false);
  } catch (error) {
    (error as Error).message += `\n--- server output ---\n${server.output()}`;
    throw error;
  } finally {
    await server.stop();
    temp.remove();
  }
}

const notInstalled = (name: string) => (existsSync(BIN(name)) ? false : `${name} is not installed: node_modules/.bin/${name} is missing`);

test("Bun.serve({ port, fetch: extent.fetch }) serves Extent under /api", { skip: notInstalled("bun") }, () =>
  overHttp(BIN("bun"), [join(ROOT, "test/fixtures/embed/bun-serve.ts")]),
);

test("Deno.serve({ port }, extent.fetch) serves Extent under /api", { skip: notInstalled("deno") }, () =>
  overHttp(BIN("deno"), ["run", "-A", join(ROOT, "test/fixtures/embed/deno-serve.ts")]),
);
