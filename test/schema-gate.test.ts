/**
 * `schemaCheck: "with-first-read"` (src/mapping/schema-gate.ts): the schema check rides with the
 * first read, so a start on a current schema costs no round trip of its own, and every other
 * start still ends with the schema made. Each test records the batches the handler sends to a real
 * embedded file: none before the first request; on a current schema the first GET is one batch
 * (the check's two reads in front of its own) and answers the stored objects; an empty database,
 * a changed model, a write first, many first requests at once and a store that fails the first
 * time all end with the right answers, the DDL run once.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRestHandler } from "../src/handler.ts";
import { openLibsqlStore } from "../src/store/libsql-store.ts";
import type { Store } from "../src/store/store.ts";
import { StoreBusyError } from "../src/errors/capacity-errors.ts";

const v1 = `<jdo><package name="g"><class name="Doc" identity-type="application">
  <field name="id" primary-key="true" field-type="long"/><field name="title" field-type="java.lang.String"/>
</class></package></jdo>`;
const v2 = v1.replace(
  `<field name="title" field-type="java.lang.String"/>`,
  `<field name="title" field-type="java.lang.String"/><field name="pages" field-type="int"/>`,
);

/** A handler on `url` with the check carried by the first read, and the SQL of every batch it sends. */
function start(url: string, text = v1, fail?: { times: number }) {
  const inner = openLibsqlStore(url);
  const batches: string[][] = [];
  const failing = (sql: string[]) => {
    batches.push(sql);
    if (fail && fail.times > 0) {
      fail.times--;
      throw new StoreBusyError("SQLITE_BUSY: database is locked"); // as the embedded store reports it
    }
  };
  const store: Store = {
    interrupts: inner.interrupts,
    batch: async (s, mode, deadline) => (failing(s.map((x) => x.sql)), inner.batch(s, mode, deadline)),
    migrate: async (s) => (failing(s.map((x) => x.sql)), inner.migrate(s)),
    close: () => inner.close(),
  };
  const handler = createRestHandler({ context: { name: "g", url, metadata: [{ source: "g.jdo", text }] }, store, schemaCheck: "with-first-read" });
  const call = async (method: string, path: string, body?: unknown) => {
    const init: RequestInit = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } };
    const response = await handler.fetch(new Request(`http://x${path}`, init));
    return { status: response.status, body: (await response.text()) || undefined };
  };
  return { handler, batches, call };
}

const isCheck = (sql: string) => /sqlite_master/.test(sql);
const ddlBatches = (batches: string[][]) => batches.filter((b) => b.some((s) => /CREATE VIEW extent_schema/.test(s))).length;

function withDir(run: (url: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), "extent-gate-"));
    try {
      await run(`file:${join(dir, "g.db")}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  "on a current schema the first GET is one round trip, the check in front of its read, and later reads carry no check",
  withDir(async (url) => {
    const made = start(url);
    assert.equal((await made.call("POST", "/g.Doc", { id: 1, title: "one" })).status, 201);
    made.handler.close();

    const { handler, batches, call } = start(url);
    await handler.ready;
    assert.equal(batches.length, 0, "ready reads nothing");
    const first = await call("GET", "/g.Doc");
    assert.equal(first.status, 200);
    assert.deepEqual(JSON.parse(first.body!), [{ class: "g.Doc", id: 1, title: "one" }]);
    assert.equal(batches.length, 1, `one round trip: ${JSON.stringify(batches)}`);
    assert.ok(batches[0]!.slice(0, 2).every(isCheck) && !batches[0]!.slice(2).some(isCheck), "the check's two reads, then the GET's own");
    const second = await call("GET", "/g.Doc/1");
    assert.equal(second.status, 200);
    assert.equal(batches.length, 2);
    assert.ok(!batches[1]!.some(isCheck), "no check after the first");
    handler.close();
  }),
);

test(
  "an empty database: the first GET makes the schema and answers an empty extent; a changed model's first GET adds its column",
  withDir(async (url) => {
    const empty = start(url);
    const first = await empty.call("GET", "/g.Doc");
    assert.equal(first.status, 200, first.body);
    assert.equal(first.body, "[]");
    assert.equal(ddlBatches(empty.batches), 1);
    assert.equal((await empty.call("POST", "/g.Doc", { id: 7, title: "seven" })).status, 201);
    empty.handler.close();

    const changed = start(url, v2);
    const read = await changed.call("GET", "/g.Doc/7");
    assert.equal(read.status, 200, read.body);
    assert.deepEqual(JSON.parse(read.body!), { class: "g.Doc", id: 7, title: "seven", pages: null });
    assert.ok(
      changed.batches.some((b) => b.some((s) => /ALTER TABLE "Doc" ADD COLUMN "pages"/i.test(s))),
      "the new column is added before the read runs again",
    );
    assert.equal((await changed.call("PUT", "/g.Doc/7", { pages: 3 })).status, 200);
    changed.handler.close();
  }),
);

test(
  "a write first: the check runs alone before it, then the write",
  withDir(async (url) => {
    const { handler, batches, call } = start(url);
    const created = await call("POST", "/g.Doc", { id: 2, title: "two" });
    assert.equal(created.status, 201, created.body);
    assert.ok(batches[0]!.every(isCheck), "the check first, on its own");
    assert.equal(ddlBatches(batches), 1);
    handler.close();
  }),
);

test(
  "many first requests at once on an empty database: every one answered, the schema made once",
  withDir(async (url) => {
    const { handler, batches, call } = start(url);
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => call("GET", "/g.Doc")),
      ...Array.from({ length: 3 }, (_, i) => call("POST", "/g.Doc", { id: 10 + i, title: `t${i}` })),
      call("GET", "/g.Doc/10"),
    ]);
    assert.deepEqual(
      answers.slice(0, 9).map((a) => a.status),
      [200, 200, 200, 200, 200, 200, 201, 201, 201],
    );
    assert.ok([200, 404].includes(answers[9]!.status), `a GET by key before or after its POST: ${answers[9]!.status}`);
    assert.equal(ddlBatches(batches), 1);
    assert.equal(JSON.parse((await call("GET", "/g.Doc")).body!).length, 3);
    handler.close();
  }),
);

test(
  "a store that fails the first check fails that request (503, nothing written) and the next request checks again",
  withDir(async (url) => {
    const fail = { times: 1 };
    const { handler, call } = start(url, v1, fail);
    const refused = await call("POST", "/g.Doc", { id: 3, title: "three" });
    assert.equal(refused.status, 503, refused.body);
    const read = await call("GET", "/g.Doc");
    assert.equal(read.status, 200, read.body);
    assert.equal(read.body, "[]", "the refused POST wrote nothing");
    assert.equal((await call("POST", "/g.Doc", { id: 3, title: "three" })).status, 201);
    handler.close();
  }),
);

test(
  "a read whose batch fails is run again once the check alone has run; when that fails too, the request answers 503",
  withDir(async (url) => {
    // Twice: the read with the check in front, then the check alone (a failed read may be for want of the schema).
    const fail = { times: 2 };
    const { handler, call } = start(url, v1, fail);
    assert.equal((await call("GET", "/g.Doc")).status, 503);
    const again = await call("GET", "/g.Doc");
    assert.equal(again.status, 200, again.body);
    assert.equal(again.body, "[]");
    handler.close();
  }),
);

test("schemaCheck is at-start or with-first-read", () => {
  assert.throws(
    () => createRestHandler({ context: { name: "g", url: ":memory:", metadata: [{ source: "g.jdo", text: v1 }] }, schemaCheck: "later" as "at-start" }),
    /schemaCheck must be "at-start" or "with-first-read", got "later"/,
  );
});
