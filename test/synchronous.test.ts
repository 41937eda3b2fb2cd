/**
 * `synchronous` (the property `extent.store.synchronous`): when an embedded file's commits reach
 * the disk. `full` (the default) syncs the write-ahead log at every commit, `normal` at checkpoints.
 * The setting read from persistence.xml, refused with its file when it is neither, refused in code,
 * and in force on the connection that writes (SQLite's `PRAGMA synchronous`: 2 is FULL, 1 NORMAL),
 * with the objects written there after the server is closed and opened again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveContext } from "../src/config/resolve-context.ts";
import type { Synchronous } from "../src/config/context.ts";
import { createRestHandler } from "../src/handler.ts";

const MODEL = `<jdo><package name="s"><class name="Note" identity-type="application">
  <field name="id" primary-key="true" field-type="long"/><field name="text" field-type="java.lang.String"/>
</class></package></jdo>`;
const metadata = [{ source: "package.jdo", text: MODEL }];

const unit = (props: string) =>
  new Map([
    [
      "persistence.xml",
      `<persistence><persistence-unit name="u"><mapping-file>package.jdo</mapping-file><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/>${props}</properties></persistence-unit></persistence>`,
    ],
    ["package.jdo", MODEL],
  ]);

test("extent.store.synchronous is read from persistence.xml: full or normal, any case; anything else names the file", () => {
  assert.equal(resolveContext(unit(""), "u").context.synchronous, undefined);
  assert.equal(resolveContext(unit(`<property name="extent.store.synchronous" value="NORMAL"/>`), "u").context.synchronous, "normal");
  assert.equal(resolveContext(unit(`<property name="extent.store.synchronous" value=" full "/>`), "u").context.synchronous, "full");
  const bad = resolveContext(unit(`<property name="extent.store.synchronous" value="off"/>`), "u");
  assert.equal(bad.problems.length, 1);
  assert.equal(bad.problems[0]!.file, "persistence.xml");
  assert.match(bad.problems[0]!.message, /extent.store.synchronous must be full or normal, got "off"/);
  assert.equal(bad.context.synchronous, undefined);
});

test("a synchronous setting that is neither full nor normal is refused in code", () => {
  assert.throws(
    () => createRestHandler({ context: { name: "x", url: ":memory:", metadata, synchronous: "off" as Synchronous } }),
    /synchronous must be "full" or "normal", got "off"/,
  );
});

for (const [setting, pragma] of [
  [undefined, 2],
  ["full", 2],
  ["normal", 1],
] as const) {
  test(`synchronous ${setting ?? "(default)"}: the writing connection runs PRAGMA synchronous = ${pragma}, and what it wrote is there after a restart`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "extent-synchronous-"));
    const url = `file:${join(dir, "s.db")}`;
    const context = { name: "s", url, metadata, ...(setting ? { synchronous: setting } : {}) };
    try {
      const first = createRestHandler({ context });
      await first.ready;
      // A write batch runs on the connection that writes (the readers have their own settings).
      const [result] = await first.store.batch([{ sql: "PRAGMA synchronous", params: [] }], "write");
      assert.deepEqual(result!.rows, [[pragma]]);
      for (let id = 1; id <= 20; id++) {
        const created = await first.fetch(
          new Request("http://x/s.Note", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id, text: `note ${id}` }) }),
        );
        assert.equal(created.status, 201, await created.text());
      }
      first.close();
      const again = createRestHandler({ context });
      await again.ready;
      const all = await again.fetch(new Request("http://x/s.Note"));
      assert.equal(((await all.json()) as unknown[]).length, 20);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
