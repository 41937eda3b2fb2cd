/**
 * Streamed query answers: a query whose answer is its candidates (JDOQL, JPQL, `?filter=`), when
 * more match than the first page holds, reads its ordered keys once and streams the objects page
 * by page, read by key. The answer is the same text as the candidates read at once
 * (`readCandidates`, the whole-answer path), with orderings, a RANGE, and a fetch plan nesting
 * related objects; a small answer costs the one read batch it always did; the body is read only
 * as the client reads it; the server's memory holds a page, not the answer.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { createRestHandler, type RestHandler, type RestHandlerOptions } from "../src/handler.ts";
import type { PersistenceContext } from "../src/config/context.ts";
import { DEFAULT_LIMITS, type Limits } from "../src/config/limits.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { parseFetchPlan } from "../src/read/fetch-plan.ts";
import { prepareFilter, prepareJdoql, prepareJpql, type PreparedQuery } from "../src/query/prepare.ts";
import { readCandidates } from "../src/read/read-objects.ts";
import { LibsqlStore } from "../src/store/libsql-store.ts";
import { BatchRecordingStore } from "./support/batch-recording-store.ts";
import { GRAPH_PKG, graphModel, seedGraph } from "./support/graph-model.ts";
import { mib } from "./fuzz/budget.ts";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { VEHICLES_MODEL } from "./support/vehicles-model.ts";

const run = promisify(execFile);

const PERSON = `${GRAPH_PKG}.Person`;

/** One database file (of the graph model unless `context` says otherwise); handlers of several page sizes over it. */
class Database {
  readonly dir = mkdtempSync(join(tmpdir(), "query-stream-"));
  readonly url = `file:${join(this.dir, "test.db")}`;
  private readonly handlers: RestHandler[] = [];
  constructor(readonly context: Omit<PersistenceContext, "name" | "url" | "limits"> = { models: [graphModel] }) {}

  /** Pages of `pageSize` objects (first and later alike), or sized as `paging` says. */
  async handler(
    pageSize?: number,
    paging?: Pick<RestHandlerOptions, "firstPageSize" | "pageBytes" | "pageSize">,
    limits?: Partial<Limits>,
  ): Promise<{ api: RestHandler; store: BatchRecordingStore }> {
    const store = new BatchRecordingStore(new LibsqlStore(createClient({ url: this.url })));
    const fixed = pageSize === undefined ? {} : { pageSize, firstPageSize: pageSize, pageBytes: Number.MAX_SAFE_INTEGER };
    const api = createRestHandler({ context: { name: "query-stream", ...this.context, url: this.url, limits }, store, ...fixed, ...paging });
    await api.ready;
    this.handlers.push(api);
    return { api, store };
  }

  close(): void {
    for (const h of this.handlers) h.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A query as a path, and how to prepare it (for the reference: the candidates read at once). */
interface Case {
  name: string;
  path: string;
  prepare: (api: RestHandler) => PreparedQuery;
}

const q = encodeURIComponent;
const JDOQL = `SELECT FROM ${PERSON} WHERE id != 17 ORDER BY city.name DESC, name ASCENDING RANGE 5, 1100`;
const JPQL = "SELECT p FROM Person p WHERE p.id > 3 ORDER BY p.name DESC";
const FILTER = "id % 3 != 1";

function cases(fetch: string): Case[] {
  const plan = fetch ? `&${fetch}` : "";
  return [
    { name: "JDOQL", path: `/jdoql?query=${q(JDOQL)}${plan}`, prepare: (api) => prepareJdoql(api.model, JDOQL) },
    { name: "JPQL", path: `/jpql?query=${q(JPQL)}${plan}`, prepare: (api) => prepareJpql(api.model, JPQL) },
    { name: "filter", path: `/${PERSON}?filter=${q(FILTER)}${plan}`, prepare: (api) => prepareFilter(api.model, api.model.classes.get(PERSON)!, FILTER) },
  ];
}

/** The candidates as the whole-answer path writes them: one read, then one JSON text. */
async function reference(api: RestHandler, c: Case, fetch: string): Promise<string> {
  const parsed = parseFetchPlan(api.model, new URLSearchParams(fetch));
  assert.ok(parsed.ok);
  const prepared = c.prepare(api);
  return readCandidates({ model: api.model, store: api.store, limits: DEFAULT_LIMITS }, prepared.candidate, prepared.selector!, {}, parsed.plan);
}

const get = (api: RestHandler, path: string) => api.fetch(new Request(`http://localhost${path}`));

/** Fetch plans compared: the default group, and `all` (cities with their residents, best friends, friends) one and two deep. */
const FETCH = ["", "fetchGroup=all", "fetchGroup=all&maxFetchDepth=2"];

describe("a streamed query answer is the same JSON as the candidates read at once", () => {
  const db = new Database();
  before(async () => {
    await db.handler();
    await seedGraph(db.url, 1200, 60);
  });
  after(() => db.close());

  test("JDOQL (ordering, RANGE), JPQL (ordering), ?filter=; with fetch plans nesting related objects; in pages of several sizes", async () => {
    const handlers = [await db.handler(7), await db.handler(1000), await db.handler(undefined, { pageBytes: 16 * 1024 }), await db.handler(undefined, {})];
    const firstPages = [7, 1000, 100, 100];
    for (const fetch of FETCH) {
      for (const c of cases(fetch)) {
        const expected = await reference(handlers[0]!.api, c, fetch);
        assert.ok(JSON.parse(expected).length > 700, `${c.name} matches many`);
        for (const [i, { api, store }] of handlers.entries()) {
          store.batches = [];
          const response = await get(api, c.path);
          assert.equal(response.status, 200);
          assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
          assert.equal(await response.text(), expected, `${c.name} ${fetch}, handler ${i}`);
          // More than a first page: the first read, the keys, then pages; else the one read.
          const streamed = JSON.parse(expected).length > firstPages[i]!;
          assert.ok(streamed ? store.batches.length >= 4 : store.batches.length === 1, `${c.name}: ${store.batches.length} batches`);
        }
      }
    }
  });

  test("the sample model: composite, datastore and ancestor keys, subclasses, several table groups", async () => {
    const schema = new URL("../schema/jdo", import.meta.url).pathname;
    const { context } = resolveContext(await loadConfigDir(schema), "sample");
    const sample = new Database({ metadata: context.metadata });
    try {
      const { api } = await sample.handler();
      const data = JSON.parse(readFileSync(new URL("../schema/sample-data.json", import.meta.url), "utf8"));
      assert.ok((await seedIfEmpty(api, data)) > 0);
      const paged = [await sample.handler(1), await sample.handler(2)];
      const classes = [...api.model.classes.values()].filter((c) => !c.embeddedOnly && Object.keys(data).includes(c.name)).map((c) => c.name);
      let streamed = 0;
      for (const name of [...classes, "org.extent.sample.Item"]) {
        const text = `SELECT FROM ${name}`;
        const c: Case = { name, path: `/jdoql?query=${q(text)}`, prepare: (a) => prepareJdoql(a.model, text) };
        for (const fetch of ["", "fetchGroup=all&maxFetchDepth=2"]) {
          const expected = await reference(api, c, fetch);
          if (JSON.parse(expected).length > 1) streamed++;
          for (const { api: pagedApi } of paged) assert.equal(await (await get(pagedApi, `${c.path}&${fetch}`)).text(), expected, `${name} ${fetch}`);
        }
      }
      assert.ok(streamed >= 4, `${streamed} answers took several pages`);
    } finally {
      sample.close();
    }
  });

  test("a complete-table hierarchy: the query's order runs across its tables", async () => {
    const ct = new Database({ metadata: [{ source: "ct.jdo", text: VEHICLES_MODEL }] });
    try {
      const { api } = await ct.handler();
      const kinds = ["ct.Vehicle", "ct.Car", "ct.Truck"];
      for (let id = 1; id <= 30; id++) {
        const body = { class: kinds[(id * 5) % 3], id, name: `v${(id * 7) % 30}`, next: id > 1 ? { id: ((id * 3) % (id - 1)) + 1 } : null };
        const response = await api.fetch(
          new Request("http://localhost/ct.Vehicle", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
        );
        assert.equal(response.status, 201, await response.text());
      }
      const paged = [await ct.handler(1), await ct.handler(4)];
      for (const text of [
        "SELECT FROM ct.Vehicle ORDER BY name DESC",
        "SELECT FROM ct.Vehicle WHERE id > 2 ORDER BY next.name, name RANGE 1, 25",
        "SELECT FROM ct.Car",
      ]) {
        const c: Case = { name: text, path: `/jdoql?query=${q(text)}`, prepare: (a) => prepareJdoql(a.model, text) };
        for (const fetch of ["", "fetchGroup=all&maxFetchDepth=2"]) {
          const expected = await reference(api, c, fetch);
          assert.ok(JSON.parse(expected).length > 4);
          for (const { api: pagedApi } of paged) assert.equal(await (await get(pagedApi, `${c.path}&${fetch}`)).text(), expected, `${text} ${fetch}`);
        }
      }
    } finally {
      ct.close();
    }
  });

  test("the order is the query's, not the keys'; a RANGE is applied once, over the whole order", async () => {
    const { api } = await db.handler(7);
    const ids = JSON.parse(await (await get(api, cases("")[1]!.path)).text()).map((p: { id: number; name: string }) => p.name);
    assert.equal(ids.length, 1197);
    assert.deepEqual(ids, [...ids].sort().reverse());
    const ranged = JSON.parse(await (await get(api, cases("")[0]!.path)).text());
    assert.equal(ranged.length, 1095);
  });
});

describe("round trips: a small answer is one batch, as before streaming; a large one, the query twice and a batch a page", () => {
  const db = new Database();
  before(async () => {
    await db.handler();
    await seedGraph(db.url, 2500, 50);
  });
  after(() => db.close());

  test("at most a first page of candidates: one read batch, answered as text", async () => {
    const { api, store } = await db.handler(undefined, {});
    for (const path of [`/jdoql?query=${q(`SELECT FROM ${PERSON} WHERE id <= 100 ORDER BY name`)}`, `/${PERSON}?filter=${q("id > 2400")}&fetchGroup=all`]) {
      store.batches = [];
      const response = await get(api, path);
      assert.equal(response.status, 200);
      assert.equal(JSON.parse(await response.text()).length, 100);
      assert.equal(store.batches.length, 1, path);
    }
  });

  test("2295 candidates in pages of 1000: the first read, the keys, then 3 pages", async () => {
    const { api, store } = await db.handler(1000);
    store.batches = [];
    const path = `/jdoql?query=${q(`SELECT FROM ${PERSON} WHERE id != 17 ORDER BY city.name DESC, name ASCENDING RANGE 5, 2300`)}&fetchGroup=all`;
    const text = await (await get(api, path)).text();
    assert.equal(JSON.parse(text).length, 2295);
    assert.equal(store.batches.length, 5);
    assert.equal(store.batches[1], 1, "the keys: one statement");
    assert.deepEqual(store.batches.slice(3), [store.batches[2], store.batches[2]], "every page the same statements");
  });

  test("UNIQUE and projections are not streamed", async () => {
    const { api, store } = await db.handler(7);
    store.batches = [];
    const unique = await get(api, `/jdoql?query=${q(`SELECT UNIQUE FROM ${PERSON} WHERE id == 5`)}`);
    assert.equal((await unique.json()).id, 5);
    const names = await get(api, `/jpql?query=${q("SELECT p.name FROM Person p")}`);
    assert.equal(typeof (await names.text()), "string");
    assert.equal(store.batches.length, 2);
    const many = await get(api, `/jdoql?query=${q(`SELECT UNIQUE FROM ${PERSON}`)}`);
    assert.equal(many.status, 400);
  });

  test("more candidates than answerBytes could hold: 400 naming the limit, before anything is sent", async () => {
    const { api } = await db.handler(100, undefined, { answerBytes: 40_000 });
    const response = await get(api, `/jdoql?query=${q(`SELECT FROM ${PERSON} ORDER BY name`)}`);
    assert.equal(response.status, 400);
    assert.match((await response.json()).detail, /answerBytes: 40000/);
  });
});

describe("the body is a stream, read page by page as the client reads", () => {
  const db = new Database();
  before(async () => {
    await db.handler();
    await seedGraph(db.url, 2500, 50);
  });
  after(() => db.close());

  test("objects deleted between pages are left out; each page is read as it is then", async () => {
    const { api } = await db.handler(1000);
    const reader = (await get(api, `/jdoql?query=${q(`SELECT FROM ${PERSON} ORDER BY id DESC`)}`)).body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (let i = 0; i < 2; i++) text += decoder.decode((await reader.read()).value);
    // The first page (2500 down to 1501) is sent; 1400 and 10 go before the pages holding them are read.
    for (const id of [1400, 10]) assert.equal((await api.fetch(new Request(`http://localhost/${PERSON}/${id}`, { method: "DELETE" }))).status, 204);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    const ids = JSON.parse(text).map((p: { id: number }) => p.id);
    assert.equal(ids.length, 2498);
    assert.ok(!ids.includes(1400) && !ids.includes(10));
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
    );
  });

  test("a client that stops reading stops the reads", async () => {
    const { api, store } = await db.handler(500);
    store.batches = [];
    const reader = (await get(api, `/jdoql?query=${q(`SELECT FROM ${PERSON} ORDER BY name`)}`)).body!.getReader();
    assert.equal(store.batches.length, 3, "the first read, the keys, the first page");
    await reader.read();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(store.batches.length, 3);
  });

  test("a failure before the first byte is a problem document; after it, the stream is cut short and logged", async () => {
    const logged = console.error;
    const messages: unknown[][] = [];
    console.error = (...args: unknown[]) => void messages.push(args);
    try {
      const { api, store } = await db.handler(500);
      for (const at of [0, 1, 2]) {
        store.batches = [];
        store.failAt = new Set([at]);
        const response = await get(api, `/${PERSON}?filter=${q("id > 0")}`);
        assert.equal(response.status, 500, `batch ${at}`);
        assert.equal(response.headers.get("content-type"), "application/problem+json; charset=utf-8");
      }
      store.batches = [];
      store.failAt = new Set([3]);
      const response = await get(api, `/${PERSON}?filter=${q("id > 0")}`);
      assert.equal(response.status, 200);
      await assert.rejects(response.text(), /batch 3 failed on purpose/);
      assert.match(String(messages.at(-1)![0]), /streamed answer of a query of org\.test\.stream\.Person failed after its first page/);
    } finally {
      console.error = logged;
    }
  });
});

describe("memory: the server holds a page, not the answer", () => {
  const db = new Database();
  before(async () => {
    await db.handler();
    await seedGraph(db.url, 5000, 250);
  });
  after(() => db.close());

  test("an answer of many pages, tens of MiB, grows the resident memory by far less than its size", async () => {
    const path = `/jdoql?query=${q(`SELECT FROM ${PERSON} WHERE id > 1 ORDER BY name DESC`)}&fetchGroup=all&maxFetchDepth=2`;
    const child = fileURLToPath(new URL("./support/query-stream-memory.ts", import.meta.url));
    const { stdout } = await run(process.execPath, ["--expose-gc", "--import", "tsx", child, db.url, path], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    });
    const { bytes, chunks, residentGrowth } = JSON.parse(stdout.trim().split("\n").at(-1)!);
    console.log(`a streamed answer of ${mib(bytes)} in ${chunks} chunks: the resident memory after a full collection grew by ${mib(residentGrowth)} at most`);
    assert.ok(bytes > 32 * 2 ** 20, `the answer is large: ${mib(bytes)}`);
    assert.ok(chunks > 50, "many pages");
    // Read at once (as before streaming), the same answer grows it by about five times its size.
    assert.ok(residentGrowth < bytes / 4, `the resident memory grew by ${mib(residentGrowth)} for an answer of ${mib(bytes)}`);
  });
});
