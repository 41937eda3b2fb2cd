/**
 * Streamed extents: GET of a class reads its extent in pages (keyset pagination, one read batch
 * per page) and streams the JSON array. The answer is the same text as the extent read at once
 * (`readExtent`, the object path at once), for the sample model, for a graph of shared related objects
 * and cycles, and for a complete-table hierarchy (several tables, one extent); every page costs
 * the same statements in one round trip; the body is a pull-based stream that reads a page only
 * when the client asks for more; failures before the first byte are problem documents.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { createRestHandler, type RestHandler, type RestHandlerOptions } from "../src/handler.ts";
import type { PersistenceContext } from "../src/config/context.ts";
import { DEFAULT_LIMITS } from "../src/config/limits.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { seedIfEmpty } from "../src/runtime/seed.ts";
import { parseFetchPlan } from "../src/read/fetch-plan.ts";
import { jsonSelect } from "../src/read/json-select.ts";
import { readExtent } from "../src/read/read-objects.ts";
import { LibsqlStore } from "../src/store/libsql-store.ts";
import { BatchRecordingStore } from "./support/batch-recording-store.ts";
import { GRAPH_PKG, graphModel, seedGraph } from "./support/graph-model.ts";
import { VEHICLES_MODEL } from "./support/vehicles-model.ts";

/** One database file; handlers of several page sizes over it, each with its recording store. */
class Database {
  readonly dir = mkdtempSync(join(tmpdir(), "extent-stream-"));
  readonly url = `file:${join(this.dir, "test.db")}`;
  private readonly handlers: RestHandler[] = [];
  constructor(readonly context: Omit<PersistenceContext, "name" | "url">) {}

  /**
   * A handler reading pages of `pageSize` objects (first and later pages alike, whatever their
   * JSON weighs), or, with `paging`, sized as it says.
   */
  async handler(
    pageSize?: number,
    paging?: Pick<RestHandlerOptions, "firstPageSize" | "pageBytes">,
  ): Promise<{ api: RestHandler; store: BatchRecordingStore }> {
    const store = new BatchRecordingStore(new LibsqlStore(createClient({ url: this.url })));
    const fixed = pageSize === undefined ? {} : { pageSize, firstPageSize: pageSize, pageBytes: Number.MAX_SAFE_INTEGER };
    const api = createRestHandler({ context: { name: "stream", ...this.context, url: this.url }, store, ...fixed, ...paging });
    await api.ready;
    this.handlers.push(api);
    return { api, store };
  }

  /** The extent as the non-streaming path writes it: one load, then the serializer's objects as one JSON text. */
  async reference(api: RestHandler, className: string, query: string): Promise<string> {
    const parsed = parseFetchPlan(api.model, new URLSearchParams(query));
    assert.ok(parsed.ok);
    const rt = {
      model: api.model,
      store: api.store,
      prefix: "",
      limits: DEFAULT_LIMITS,
      writeFetchPlan: parsed.plan,
      serverTiming: false,
      pageSize: 1,
      firstPageSize: 1,
      pageBytes: 1,
    };
    return readExtent(rt, api.model.classes.get(className)!, parsed.plan);
  }

  close(): void {
    for (const h of this.handlers) h.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const get = (api: RestHandler, className: string, query = "") => api.fetch(new Request(`http://localhost/${className}${query ? `?${query}` : ""}`));

/** Fetch plans compared: the default group and `all`, at depths 1, 2 and 3. */
const QUERIES = ["", "maxFetchDepth=2", "fetchGroup=all", "fetchGroup=all&maxFetchDepth=2", "fetchGroup=all&maxFetchDepth=3"];
/**
 * Unlimited depth too, where the graph allows it: cycles are cut only along the path being
 * written, so in a graph of rings and shared cities every simple path is written out and the
 * JSON grows exponentially (streamed or not).
 */
const WITH_UNLIMITED = [...QUERIES, "fetchGroup=all&maxFetchDepth=-1"];

/** Every class's extent, with every fetch plan, streamed in pages of each size, equals the reference. */
async function assertSameAsReference(db: Database, classes: string[], pageSizes: number[], queries = WITH_UNLIMITED): Promise<void> {
  const reference = await db.handler();
  const paged = await Promise.all(pageSizes.map((size) => db.handler(size)));
  for (const className of classes) {
    for (const query of queries) {
      const expected = await db.reference(reference.api, className, query);
      assert.ok(JSON.parse(expected).length > 0, `${className} has objects`);
      for (const [i, { api }] of paged.entries()) {
        const response = await get(api, className, query);
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
        assert.equal(await response.text(), expected, `${className}?${query}, page size ${pageSizes[i]}`);
      }
    }
  }
}

describe("a streamed extent is the same JSON as the extent read at once", () => {
  test("the sample model (every class, new-table and superclass-table, composite and datastore keys)", async () => {
    const schema = new URL("../schema/jdo", import.meta.url).pathname;
    const { context } = resolveContext(await loadConfigDir(schema), "sample");
    const db = new Database({ metadata: context.metadata });
    try {
      const { api } = await db.handler();
      const data = JSON.parse(readFileSync(new URL("../schema/sample-data.json", import.meta.url), "utf8"));
      assert.ok((await seedIfEmpty(api, data)) > 0);
      const classes = [...api.model.classes.values()].filter((c) => !c.embeddedOnly && Object.keys(data).includes(c.name)).map((c) => c.name);
      await assertSameAsReference(db, [...classes, "org.extent.sample.Item", "org.extent.sample.Book"], [1, 2, 3]);
    } finally {
      db.close();
    }
  });

  test("a graph of shared related objects and cycles (self references, rings, shared cities, a subclass)", async () => {
    const db = new Database({ models: [graphModel] });
    try {
      await db.handler();
      await seedGraph(db.url, 40, 5);
      await assertSameAsReference(db, [`${GRAPH_PKG}.Person`, `${GRAPH_PKG}.Student`, `${GRAPH_PKG}.City`], [1, 7, 39, 40], QUERIES);
    } finally {
      db.close();
    }
  });

  test("a complete-table hierarchy: pages run across its tables in the extent's order", async () => {
    const db = new Database({ metadata: [{ source: "ct.jdo", text: VEHICLES_MODEL }] });
    try {
      const { api } = await db.handler();
      const kinds = ["ct.Vehicle", "ct.Car", "ct.Truck"];
      for (let id = 1; id <= 11; id++) {
        const body = { class: kinds[(id * 5) % 3], id, name: `v${id}`, next: id > 1 ? { id: ((id * 3) % (id - 1)) + 1 } : null };
        const response = await api.fetch(
          new Request("http://localhost/ct.Vehicle", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
        );
        assert.equal(response.status, 201, await response.text());
      }
      const ids = JSON.parse(await (await get(api, "ct.Vehicle")).text()).map((v: { id: number }) => v.id);
      assert.notDeepEqual(
        ids,
        [...ids].sort((a: number, b: number) => a - b),
        "table by table, not by key",
      );
      await assertSameAsReference(db, kinds, [1, 4]);
    } finally {
      db.close();
    }
  });
});

describe("pages: one round trip each, the same statements each; a small first page, then pages sized by their JSON", () => {
  const db = new Database({ models: [graphModel] });
  const PERSON = `${GRAPH_PKG}.Person`;
  before(async () => {
    await db.handler();
    await seedGraph(db.url, 2500, 50);
  });
  after(() => db.close());

  test("2500 objects in pages of 1000: 3 round trips of the statements the whole extent's plan has", async () => {
    const { api, store } = await db.handler(1000);
    const query = "fetchGroup=all";
    const plan = parseFetchPlan(api.model, new URLSearchParams(query));
    assert.ok(plan.ok);
    // The extent's statements: its JSON select's (one per table group).
    const planned = jsonSelect(api.model, api.model.classes.get(PERSON)!, { kind: "extent" }, plan.plan)!.steps.length;
    store.batches = [];
    const text = await (await get(api, PERSON, query)).text();
    assert.deepEqual(store.batches, [planned, planned, planned]);
    const ids = JSON.parse(text).map((p: { id: number }) => p.id);
    assert.deepEqual(
      ids,
      Array.from({ length: 2500 }, (_, i) => i + 1),
    );
    assert.equal(text, await db.reference(api, PERSON, query));
  });

  test("an extent of exactly one page or less costs one round trip, as before streaming", async () => {
    for (const size of [2500, 5000]) {
      const { api, store } = await db.handler(size);
      store.batches = [];
      await (await get(api, PERSON, "fetchGroup=all")).text();
      assert.equal(store.batches.length, 1, `page size ${size}`);
    }
    // Pages that divide the extent exactly: no extra round trip finding nothing.
    const { api, store } = await db.handler(1250);
    store.batches = [];
    await (await get(api, PERSON)).text();
    assert.equal(store.batches.length, 2);
  });

  test("a deeper fetch depth adds its level-by-level rounds per page, the same in every page", async () => {
    const { api, store } = await db.handler(1000);
    store.batches = [];
    await (await get(api, PERSON, "fetchGroup=chain&maxFetchDepth=6")).text();
    assert.equal(store.batches.length % 3, 0);
    const perPage = store.batches.length / 3;
    assert.ok(perPage > 1, "depth 6 needs rounds beyond the first batch");
    assert.deepEqual(store.batches.slice(perPage, 2 * perPage), store.batches.slice(0, perPage));
  });

  /** The objects of each chunk after the opening bracket, and each chunk's length. */
  async function chunks(api: RestHandler, query: string): Promise<{ objects: number[]; lengths: number[]; text: string }> {
    const reader = (await get(api, PERSON, query)).body!.getReader();
    const decoder = new TextDecoder();
    const objects: number[] = [];
    const lengths: number[] = [];
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = decoder.decode(value);
      text += chunk;
      if (chunk === "[") continue;
      objects.push(JSON.parse(`[${chunk.replace(/^,/, "").replace(/\]$/, "")}]`).length);
      lengths.push(chunk.length);
    }
    return { objects, lengths, text };
  }

  test("the first page holds 100 objects by default, so a large extent starts answering as soon as a small one", async () => {
    const { api, store } = await db.handler(undefined, {});
    store.batches = [];
    const { objects, text } = await chunks(api, "");
    // Small objects: after the first page, pages of pageSize (1000).
    assert.deepEqual(objects, [100, 1000, 1000, 400]);
    assert.equal(store.batches.length, 4);
    assert.equal(text, await db.reference(api, PERSON, ""));
  });

  test("objects with large JSON make pages of fewer objects, each near pageBytes", async () => {
    const pageBytes = 64 * 1024;
    const { api } = await db.handler(undefined, { pageBytes });
    const { objects, lengths, text } = await chunks(api, "fetchGroup=all");
    assert.equal(objects[0], 100);
    assert.ok(
      objects.slice(1, -1).every((n) => n < 1000),
      `later pages hold fewer objects: ${objects.join(", ")}`,
    );
    for (const length of lengths.slice(1, -1))
      assert.ok(length > pageBytes / 2 && length < pageBytes * 2, `a page of ${length} characters, aimed at ${pageBytes}`);
    assert.equal(
      objects.reduce((a, b) => a + b, 0),
      2500,
    );
    assert.equal(text, await db.reference(api, PERSON, "fetchGroup=all"));
  });
});

describe("the body is a stream, read page by page as the client reads", () => {
  const db = new Database({ models: [graphModel] });
  const PERSON = `${GRAPH_PKG}.Person`;
  before(async () => {
    await db.handler();
    await seedGraph(db.url, 2500, 50);
  });
  after(() => db.close());

  test("the answer starts after the first page; the next page is read only when the client asks", async () => {
    const { api, store } = await db.handler(1000);
    store.batches = [];
    const response = await get(api, PERSON, "fetchGroup=all");
    assert.equal(response.status, 200);
    assert.equal(store.batches.length, 1, "the first page is read before the answer");
    const reader = response.body!.getReader();
    const decode = async () => new TextDecoder().decode((await reader.read()).value);
    assert.equal(await decode(), "[", "the opening bracket, then the first page");
    const first = await decode();
    assert.equal(store.batches.length, 1, "the first page's chunk comes before the second page is read");
    assert.ok(first.startsWith(`{"class":"${PERSON}","id":1,`), first.slice(0, 80));
    assert.ok(first.endsWith("}"), "no closing bracket yet");
    const second = await decode();
    assert.equal(store.batches.length, 2);
    assert.ok(second.startsWith(`,{"class":"${PERSON}","id":1001,`));
    const third = await decode();
    assert.equal(store.batches.length, 3);
    assert.ok(third.startsWith(`,{"class":"${PERSON}","id":2001,`) && third.endsWith("}]"));
    assert.equal((await reader.read()).done, true);
  });

  test("a client that stops reading stops the reads", async () => {
    const { api, store } = await db.handler(1000);
    store.batches = [];
    const reader = (await get(api, PERSON)).body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(store.batches.length, 1);
  });

  test("a failure before the first byte is a problem document", async () => {
    const { api, store } = await db.handler(1000);
    store.batches = [];
    store.failAt = new Set([0]);
    const logged = console.error;
    console.error = () => {};
    try {
      const response = await get(api, PERSON);
      assert.equal(response.status, 500);
      assert.equal(response.headers.get("content-type"), "application/problem+json; charset=utf-8");
      assert.equal((await response.json()).status, 500);
    } finally {
      console.error = logged;
    }
  });

  test("a failure after the first byte aborts the stream (the status is already sent)", async () => {
    const { api, store } = await db.handler(1000);
    store.batches = [];
    store.failAt = new Set([1]);
    const messages: unknown[][] = [];
    const logged = console.error;
    console.error = (...args: unknown[]) => void messages.push(args);
    try {
      const response = await get(api, PERSON);
      assert.equal(response.status, 200);
      await assert.rejects(response.text(), /batch 1 failed on purpose/);
      assert.equal(messages.length, 1);
      assert.match(String(messages[0]![0]), /streamed extent of org\.test\.stream\.Person failed after its first page/);
    } finally {
      console.error = logged;
    }
  });

  test("pageSize, firstPageSize and pageBytes must be positive integers", () => {
    for (const n of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      for (const option of ["pageSize", "firstPageSize", "pageBytes"]) {
        assert.throws(() => createRestHandler({ context: { name: "bad", url: ":memory:", models: [graphModel] }, [option]: n }), RangeError, `${option}: ${n}`);
      }
    }
  });
});

test("later pages are sized within answerBytes too: an extent many times answerBytes streams whole, not cut short (found by the query-stream work)", async () => {
  const { context } = resolveContext(await loadConfigDir(new URL("../schema/jdo", import.meta.url).pathname), "sample");
  const h = createRestHandler({ context: { ...context, url: ":memory:", limits: { answerBytes: 20_000 } } });
  try {
    await h.ready;
    for (let i = 0; i < 1000; i++) {
      const r = await h.fetch(
        new Request("http://x/org.extent.sample.Shelf", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ code: `c${i}`, label: "l" }),
        }),
      );
      assert.equal(r.status, 201);
    }
    const r = await h.fetch(new Request("http://x/org.extent.sample.Shelf"));
    assert.equal(r.status, 200);
    const text = await r.text();
    assert.ok(text.length > 3 * 20_000);
    assert.equal(JSON.parse(text).length, 1000);
  } finally {
    h.close();
  }
});
