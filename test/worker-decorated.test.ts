/**
 * A worker's model can be decorated classes instead of bundled XML: wrangler's esbuild lowers the
 * TC39 decorators, and the classes describe the same sample (test/runtimes.test.ts runs the XML
 * form through the whole conformance script).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BIN, ROOT, freePort, startServer } from "./support/processes.ts";

test("a worker with decorated classes serves the sample in workerd on D1", { timeout: 120_000 }, async () => {
  const [port, inspector] = [await freePort(), await freePort()];
  const config = `${ROOT}test/fixtures/decorated-worker/wrangler.toml`;
  const state = mkdtempSync(join(tmpdir(), "extent-decorated-"));
  const args = [
    "dev",
    "-c",
    config,
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(inspector),
    "--persist-to",
    join(state, "state"),
    "--show-interactive-dev-session=false",
  ];
  const worker = await startServer(BIN("wrangler"), args, { probe: `http://127.0.0.1:${port}/api/`, timeoutMs: 90_000 });
  try {
    const api = `${worker.url}/api`;
    const classes = await (await fetch(`${api}/`)).json();
    assert.deepEqual(classes.classes.sort(), [
      "org.extent.sample.Author",
      "org.extent.sample.Book",
      "org.extent.sample.Category",
      "org.extent.sample.Item",
      "org.extent.sample.Magazine",
      "org.extent.sample.Member",
      "org.extent.sample.Shelf",
    ]);
    const created = await fetch(`${api}/org.extent.sample.Author`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Octavia E. Butler", works: [{ class: "org.extent.sample.Book", title: "Kindred", pages: 264 }] }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    assert.match(created.headers.get("location") ?? "", /^\/api\/org\.extent\.sample\.Author\/\d+$/);
    const books = await (await fetch(`${api}/org.extent.sample.Item?fetchGroup=all`)).json();
    assert.deepEqual(
      books.map((b: { class: string; title: string }) => [b.class, b.title]),
      [["org.extent.sample.Book", "Kindred"]],
    );
    const refused = await fetch(`${api}/org.extent.sample.Book`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"pages": "many"}',
    });
    assert.equal(refused.status, 422);
  } catch (error) {
    (error as Error).message += `\n--- wrangler output ---\n${worker.output().slice(-3000)}`;
    throw error;
  } finally {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  }
});
