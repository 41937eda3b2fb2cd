/**
 * Start-up schema work on a real database file: missing tables and columns are created, existing
 * data is kept, nothing is dropped, and `autoCreateSchema: false` creates nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRestHandler } from "../src/index.ts";
import { openLibsqlStore } from "../src/store/libsql-store.ts";
import type { Store } from "../src/store/store.ts";

const v1 = `<jdo><package name="org.s"><class name="Doc" identity-type="application">
  <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
  <field name="title" field-type="java.lang.String"/>
</class></package></jdo>`;
const v2 = `<jdo><package name="org.s"><class name="Doc" identity-type="application">
  <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
  <field name="title" field-type="java.lang.String"/>
  <field name="pages" field-type="java.lang.Integer"/>
</class>
<class name="Note"><field name="text" field-type="java.lang.String"/></class></package></jdo>`;

async function request(handler: { fetch(r: Request): Promise<Response> }, method: string, path: string, body?: unknown) {
  const r = await handler.fetch(
    new Request(`http://x${path}`, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined }),
  );
  return { status: r.status, body: r.status === 204 ? undefined : await r.json() };
}

test("a new field and a new class are added to an existing database; its rows and numbering survive", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-schema-"));
  const url = `file:${join(dir, "s.db")}`;
  try {
    const first = createRestHandler({ context: { name: "s", url, metadata: [{ source: "v1.jdo", text: v1 }] } });
    assert.equal((await request(first, "POST", "/org.s.Doc", { title: "kept" })).status, 201);
    first.close();

    const second = createRestHandler({ context: { name: "s", url, metadata: [{ source: "v2.jdo", text: v2 }] } });
    assert.deepEqual((await request(second, "GET", "/org.s.Doc/1")).body, { class: "org.s.Doc", id: 1, title: "kept", pages: null });
    const created = await request(second, "POST", "/org.s.Doc", { title: "new", pages: 3 });
    assert.equal(created.body.id, 2, "the sequence continues past the stored keys");
    assert.equal((await request(second, "POST", "/org.s.Note", { text: "hi" })).status, 201);
    second.close();

    // Back to the first model: the extra column and table stay, unused.
    const third = createRestHandler({ context: { name: "s", url, metadata: [{ source: "v1.jdo", text: v1 }] } });
    assert.deepEqual(
      (await request(third, "GET", "/org.s.Doc")).body.map((d: any) => d.title),
      ["kept", "new"],
    );
    third.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("autoCreateSchema false creates none of the model's tables, only Extent's own", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-schema-"));
  const url = `file:${join(dir, "s.db")}`;
  try {
    const handler = createRestHandler({ context: { name: "s", url, autoCreateSchema: false, metadata: [{ source: "v1.jdo", text: v1 }] } });
    await handler.ready;
    const tables = await handler.store.batch([{ sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", params: [] }], "read");
    assert.deepEqual(
      tables[0]!.rows.map((r) => r[0]),
      ["extent_doomed", "extent_guard", "extent_sequence"],
    );
    handler.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("foreign keys and join-table sides are indexed (relations load by them), embedded files run in WAL mode", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-indexes-"));
  try {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8");
    const handler = createRestHandler({ context: { name: "idx", url: `file:${join(dir, "db.sqlite")}`, metadata: [{ source: "package.jdo", text }] } });
    await handler.ready;
    const [indexes, mode] = await handler.store.batch(
      [
        {
          sql: "SELECT tbl_name, group_concat(p.name) FROM sqlite_master m JOIN pragma_index_info(m.name) p WHERE m.type = 'index' AND m.name LIKE 'extent_%' GROUP BY m.name ORDER BY 1, 2",
          params: [],
        },
        { sql: "PRAGMA journal_mode", params: [] },
      ],
      "read",
    );
    assert.deepEqual(indexes!.rows, [
      ["ITEM", "author"],
      ["LOANS", "BOOK_ID"],
      ["LOANS", "MEMBER_EMAIL"],
      ["SHELF_ITEMS", "ITEM_ID"],
      ["SHELF_ITEMS", "SHELF_CODE"],
    ]);
    assert.deepEqual(mode!.rows, [["wal"]]);
    handler.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a start-up on a schema already up to date costs one read round trip and writes nothing; a changed model or a dropped table is seen", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-schema-"));
  const url = `file:${join(dir, "s.db")}`;
  /** The statements of each batch one start-up runs, as SQL texts. */
  const startUp = async (text: string) => {
    const inner = openLibsqlStore(url);
    const batches: string[][] = [];
    const store: Store = {
      batch: (s, mode) => (batches.push(s.map((x) => x.sql)), inner.batch(s, mode)),
      migrate: (s) => (batches.push(s.map((x) => x.sql)), inner.migrate(s)),
      close: () => inner.close(),
    };
    const handler = createRestHandler({ context: { name: "s", url, metadata: [{ source: "m.jdo", text }] }, store });
    await handler.ready;
    handler.close();
    return batches;
  };
  try {
    const created = await startUp(v1);
    assert.equal(created.length, 2, "an empty database: the read, then one batch of DDL");
    assert.ok(
      created[1]!.some((s) => /CREATE VIEW extent_schema/.test(s)),
      "the fingerprint is recorded with the DDL",
    );
    const again = await startUp(v1);
    assert.equal(again.length, 1, `up to date: one round trip, ${JSON.stringify(again)}`);
    assert.ok(
      again[0]!.every((s) => /^SELECT/.test(s)),
      "and it only reads",
    );
    const changed = await startUp(v2);
    assert.equal(changed.length, 2, "a new field and class: the read, then the DDL");
    assert.ok(changed[1]!.some((s) => /ALTER TABLE "Doc" ADD COLUMN "pages"/i.test(s)));
    assert.equal((await startUp(v2)).length, 1);
    // A table dropped behind Extent's back is made again, though the fingerprint matches.
    const client = openLibsqlStore(url);
    await client.migrate([{ sql: 'DROP TABLE "Note"', params: [] }]);
    client.close();
    const repaired = await startUp(v2);
    assert.equal(repaired.length, 2);
    assert.ok(repaired[1]!.some((s) => /CREATE TABLE IF NOT EXISTS "Note"/.test(s)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
