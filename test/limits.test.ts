/**
 * Request limits (src/config/limits.ts): each has a default, each is set in the persistence
 * context (code or `extent.limit.*` properties) and on the CLI, and a request beyond one gets a
 * problem document naming the limit, never a 5xx, and changes nothing.
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseServeArgs } from "../src/cli/args.ts";
import { DEFAULT_LIMITS, resolveLimits } from "../src/config/limits.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { createRestHandler } from "../src/handler.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { EmbeddedStore } from "../src/store/embedded-store.ts";
import { openLibsqlStore } from "../src/store/libsql-store.ts";
import type { Statement, StatementResult, Store } from "../src/store/store.ts";
import { TimeLimitError } from "../src/errors/capacity-errors.ts";
import { databaseDigest } from "./support/digest.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const metadata = sample.metadata;
const q = encodeURIComponent;
const BOOK = "/org.extent.sample.Book";

function assertProblem(r: Reply, status: number, detail: RegExp): void {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
  assert.equal(r.body.status, status);
  assert.match(r.body.detail, detail);
}

/** Runs `request` and checks that it left every table as it was. */
async function unchanged(h: Harness, request: () => Promise<Reply>): Promise<Reply> {
  const before = await databaseDigest(h.sql);
  const reply = await request();
  assert.equal(await databaseDigest(h.sql), before, "the refused request changed the database");
  return reply;
}

const nested = (depth: number): unknown => {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe("limits set in the persistence context", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      metadata,
      limits: { bodyBytes: 4096, jsonDepth: 8, objectsPerRequest: 4, maxFetchDepth: 3, queryLength: 200, queryParameters: 3 },
    });
    assert.equal((await h.post(BOOK, { title: "Seed", isbn: "seed", pages: 10 })).status, 201);
  });
  after(() => h.close());

  test("a body larger than bodyBytes is 413", async () => {
    const r = await unchanged(h, () => h.post(BOOK, { title: "x".repeat(5000) }));
    assertProblem(r, 413, /4096 bytes/);
  });

  test("a body nested deeper than jsonDepth is 413, and so is one nested 100 000 levels deep", async () => {
    assertProblem(await unchanged(h, () => h.post(BOOK, { title: "deep", tags: nested(8) })), 413, /deeper than 8 levels.*jsonDepth/);
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const big = await startHarness({ metadata, limits: { bodyBytes: 1 << 20 } });
    try {
      assertProblem(await unchanged(big, () => big.call("POST", BOOK, `{"title": "deep", "tags": ${deep}}`)), 413, /jsonDepth/);
      assertProblem(await unchanged(big, () => big.call("PUT", `${BOOK}/1`, `{"tags": ${deep}}`)), 413, /jsonDepth/);
    } finally {
      big.close();
    }
  });

  test("a body within jsonDepth is accepted", async () => {
    assert.equal((await h.post(BOOK, { title: "shallow", tags: ["a", "b"] })).status, 201);
  });

  test("a body holding more objects than objectsPerRequest is 413", async () => {
    const works = Array.from({ length: 4 }, (_, i) => ({ class: "org.extent.sample.Book", title: `W${i}` }));
    const r = await unchanged(h, () => h.post("/org.extent.sample.Author", { name: "Many", works }));
    assertProblem(r, 413, /more than 4 objects.*objectsPerRequest/);
    assert.equal((await h.post("/org.extent.sample.Author", { name: "Few", works: works.slice(0, 3) })).status, 201);
  });

  test("maxFetchDepth beyond the cap is 400; at the cap it is answered; -1 reads to the cap", async () => {
    assertProblem(await h.get(`${BOOK}/1?maxFetchDepth=4`), 400, /maxFetchDepth 4 .*limit maxFetchDepth: 3/);
    assertProblem(await h.get(`${BOOK}?maxFetchDepth=4`), 400, /limit maxFetchDepth/);
    assertProblem(await h.get(`/jdoql?query=${q("SELECT FROM org.extent.sample.Book")}&maxFetchDepth=99`), 400, /limit maxFetchDepth/);
    assert.equal((await h.get(`${BOOK}/1?maxFetchDepth=3`)).status, 200);
    const unlimited = await h.get(`/org.extent.sample.Author?fetchGroup=all&maxFetchDepth=-1`);
    assert.equal(unlimited.status, 200);
    assert.deepEqual(unlimited.body, (await h.get(`/org.extent.sample.Author?fetchGroup=all&maxFetchDepth=3`)).body);
  });

  test("a filter, JDOQL or JPQL text longer than queryLength is 400 before it is parsed", async () => {
    const long = `title == "${"x".repeat(200)}"`;
    assertProblem(await h.get(`${BOOK}?filter=${q(long)}`), 400, /filter is \d+ characters long; the limit is 200 \(limit queryLength\)/);
    assertProblem(await h.get(`${BOOK}?${q(long)}`), 400, /limit queryLength/);
    assertProblem(await h.get(`/jdoql?query=${q(`SELECT FROM org.extent.sample.Book WHERE ${long}`)}`), 400, /JDOQL query .*limit queryLength/);
    assertProblem(await h.get(`/jpql?query=${q(`SELECT b FROM Book b WHERE b.title = '${"x".repeat(200)}'`)}`), 400, /JPQL query .*limit queryLength/);
    assert.equal((await h.get(`${BOOK}?filter=${q(`title == "Seed"`)}`)).status, 200);
  });

  test("more params values than queryParameters is 400", async () => {
    const filter = q("title == :a || title == :b || title == :c || title == :d");
    assertProblem(
      await h.get(`${BOOK}?filter=${filter}&params=${q(JSON.stringify({ a: "1", b: "2", c: "3", d: "4" }))}`),
      400,
      /params has 4 values; the limit is 3/,
    );
    assertProblem(
      await h.get(`/jdoql?query=${q("SELECT FROM org.extent.sample.Book WHERE title == ?1")}&params=${q(JSON.stringify([1, 2, 3, 4, 5]))}`),
      400,
      /limit queryParameters/,
    );
    const three = q("title == :a || title == :b || title == :c");
    assert.equal((await h.get(`${BOOK}?filter=${three}&params=${q(JSON.stringify({ a: "Seed", b: "2", c: "3" }))}`)).body.length, 1);
  });
});

test("a filter nested as deep as the query length allows costs time in proportion to it, not to its square", async () => {
  const h = await startHarness({ metadata });
  try {
    await h.get(`${BOOK}?filter=${q("!true")}`);
    // 1,500 negations: the compiler asked each level for the variables of everything below it,
    // walking the subtree anew (1.1 s alone on this machine); now each node is walked once (~0.25 s,
    // most of it reaching the stack's end and coming back with the 400).
    const started = performance.now();
    const deep = await h.get(`${BOOK}?filter=${q("!".repeat(1500) + "true")}`);
    const ms = performance.now() - started;
    assertProblem(deep, 400, /nested too deeply/);
    assert.ok(ms < 700, `a 1,500-level filter took ${ms.toFixed(0)} ms`);
    assert.equal((await h.get(`${BOOK}?filter=${q("!".repeat(400) + "true")}`)).status, 200);
  } finally {
    h.close();
  }
});

test("the defaults: 1 MiB bodies, depth 64, 10 000 objects, fetch depth 10, 10 000 characters, 100 parameters, 10 s, 32 MiB answers, 1 KiB keys, 32 KiB URLs", async () => {
  assert.deepEqual(
    { ...DEFAULT_LIMITS },
    {
      bodyBytes: 1 << 20,
      jsonDepth: 64,
      objectsPerRequest: 10_000,
      maxFetchDepth: 10,
      queryLength: 10_000,
      queryParameters: 100,
      requestTimeMs: 10_000,
      answerBytes: 32 << 20,
      keyBytes: 1024,
      urlBytes: 32 * 1024,
    },
  );
  const h = await startHarness({ metadata });
  try {
    assertProblem(await h.get(`${BOOK}?maxFetchDepth=11`), 400, /limit maxFetchDepth: 10/);
    assertProblem(await h.post(BOOK, { title: "deep", tags: nested(64) }), 413, /deeper than 64 levels/);
    // A String key of 1024 UTF-8 bytes is stored and reached by its Location; one byte more is not stored.
    const at = (local: string) => `${local}@${"x".repeat(1024 - local.length - 1)}`;
    const created = await h.post("/org.extent.sample.Member", { email: at("edge"), name: "Edge" });
    assert.equal(created.status, 201, created.text);
    assert.equal((await h.get(created.headers.get("location")!)).body.name, "Edge");
    const over = await unchanged(h, () => h.post("/org.extent.sample.Member", { email: at("edge") + "x", name: "Over" }));
    assertProblem(over, 422, /does not fit/);
    assert.deepEqual(over.body.errors, [{ path: "/email", message: "the key is 1025 bytes long (UTF-8); the limit is 1024 (limit keyBytes)" }]);
    // A query parameter of 10 000 characters (the queryLength) fits in the default URL, percent-encoded.
    const long = encodeURIComponent(`title == "${"x".repeat(10_000 - 12)}"`);
    assert.equal((await h.get(`${BOOK}?filter=${long}`)).status, 200);
    assertProblem(await h.get(`${BOOK}?filter=${long}&pad=${"x".repeat(32 * 1024)}`), 414, /limit urlBytes/);
  } finally {
    h.close();
  }
});

test("a limit that is not a whole number of at least 1 is refused where it is set: code, properties, CLI", async () => {
  assert.throws(() => resolveLimits({ bodyBytes: 0 }), /limits.bodyBytes: must be at least 1, got 0/);
  assert.throws(() => resolveLimits({ queryLength: 1.5 }), /limits.queryLength: must be a whole number/);
  assert.throws(() => resolveLimits({ bogus: 1 } as never), /limits.bogus/);
  assert.equal(resolveLimits({ maxFetchDepth: -1 }).maxFetchDepth, -1);
  assert.throws(() => createRestHandler({ context: { name: "x", url: ":memory:", metadata, limits: { requestTimeMs: -5 } } }), /limits.requestTimeMs/);

  const unit = (props: string) =>
    new Map([
      [
        "persistence.xml",
        `<persistence><persistence-unit name="u"><mapping-file>package.jdo</mapping-file><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/>${props}</properties></persistence-unit></persistence>`,
      ],
      ["package.jdo", metadata![0]!.text],
    ]);
  const good = resolveContext(unit(`<property name="extent.limit.body-bytes" value="2048"/><property name="extent.limit.max-fetch-depth" value="-1"/>`), "u");
  assert.deepEqual(good.problems, []);
  assert.deepEqual(good.context.limits, { bodyBytes: 2048, maxFetchDepth: -1 });
  const bad = resolveContext(unit(`<property name="extent.limit.request-time-ms" value="soon"/>`), "u");
  assert.equal(bad.problems.length, 1);
  assert.equal(bad.problems[0]!.file, "persistence.xml");
  assert.match(bad.problems[0]!.message, /extent.limit.request-time-ms must be a whole number of at least 1, got "soon"/);

  const cli = parseServeArgs(["--config", "c", "--persistence-context", "p", "--limit-query-length", "500", "--limit-request-time-ms=250"]);
  assert.ok(cli.ok);
  assert.deepEqual(cli.options.limits, { queryLength: 500, requestTimeMs: 250 });
  const wrong = parseServeArgs(["--config", "c", "--persistence-context", "p", "--limit-json-depth", "0"]);
  assert.deepEqual(wrong, { ok: false, message: `--limit-json-depth: must be a whole number of at least 1, got "0"` });
});

/** The embedded store, slowed down: each batch waits `delayMs` before it runs (a remote store's latency). */
class SlowStore implements Store {
  delayMs = 0;
  /** As a store that stops its own statements at the deadline it is given (an embedded file). */
  interrupts = false;
  constructor(private readonly inner: Store) {}
  async batch(statements: readonly Statement[], mode: "read" | "write", deadline?: number): Promise<StatementResult[]> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return this.inner.batch(statements, mode, deadline);
  }
  migrate(statements: readonly Statement[]) {
    return this.inner.migrate(statements);
  }
  close() {
    this.inner.close();
  }
}

describe("requestTimeMs: a request that holds the server too long is 503 with Retry-After, and changes nothing", () => {
  let dir: string;
  let slow: SlowStore;
  let fetch: (method: string, path: string, body?: unknown) => Promise<Response>;
  const digest = () => databaseDigest(async (text, args = []) => (await slow.batch([{ sql: text, params: args }], "read"))[0]!.rows);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "extent-limits-"));
    slow = new SlowStore(await EmbeddedStore.open(join(dir, "t.db")));
    const handler = createRestHandler({ context: { name: "t", metadata, limits: { requestTimeMs: 150 } }, store: slow });
    await handler.ready;
    fetch = (method, path, body) =>
      handler.fetch(
        new Request(`http://x${path}`, {
          method,
          body: body === undefined ? undefined : JSON.stringify(body),
          headers: { "content-type": "application/json" },
        }),
      );
    assert.equal((await fetch("POST", BOOK, { title: "Kept", isbn: "k" })).status, 201);
  });
  after(() => {
    slow.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a read that waits past the limit is 503 with Retry-After and the limit in its detail", async () => {
    slow.delayMs = 400;
    const started = Date.now();
    const r = await fetch("GET", `${BOOK}/1`);
    const took = Date.now() - started;
    slow.delayMs = 0;
    assert.equal(r.status, 503);
    assert.equal(r.headers.get("retry-after"), "1");
    assert.match(r.headers.get("content-type") ?? "", /problem\+json/);
    assert.match((await r.json()).detail, /limit requestTimeMs: 150 ms/);
    assert.ok(took < 350, `answered after ${took} ms: the read was not given up at the deadline`);
  });

  test("a write whose lookup ran past the limit is refused before its batch: nothing changes", async () => {
    const before = await digest();
    // Item has subclasses, so a PUT looks the object up first; that read ends past the deadline.
    slow.delayMs = 200;
    slow.interrupts = true;
    const r = await fetch("PUT", `/org.extent.sample.Item/1`, { title: "Changed" });
    slow.delayMs = 0;
    slow.interrupts = false;
    assert.equal(r.status, 503);
    assert.equal(await digest(), before);
    assert.equal(((await (await fetch("GET", `${BOOK}/1`)).json()) as { title: string }).title, "Kept");
  });

  test("a write batch started in time is waited for and answered, even when it ends past the limit", async () => {
    slow.delayMs = 300; // one batch, sent at once, done at 300 ms: past the limit, yet it happened
    const r = await fetch("POST", BOOK, { title: "Slow but sure", isbn: "s" });
    slow.delayMs = 0;
    assert.equal(r.status, 201);
    assert.equal(((await r.json()) as { title: string }).title, "Slow but sure");
  });

  test("within the limit, requests are answered as usual", async () => {
    slow.delayMs = 20;
    const r = await fetch("GET", `${BOOK}?filter=${q('title == "Kept"')}`);
    slow.delayMs = 0;
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as unknown[]).length, 1);
  });
});

test("an embedded file opened by its URL stops its own statements at the request's deadline", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-limits-"));
  const store = openLibsqlStore(`file:${join(dir, "t.db")}`);
  try {
    // Known before the file is open: a request's clock never races a timer against an engine that stops itself.
    assert.equal(store.interrupts, true);
    const one = { sql: "SELECT 1", params: [] };
    assert.deepEqual(
      (await store.batch([one], "read")).map((r) => r.rows),
      [[[1]]],
    );
    await assert.rejects(store.batch([one, one], "read", Date.now() - 1), TimeLimitError);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("half a UTF-16 surrogate pair, which no database stores, is refused: 422 in a body (with its path), 400 in a query or parameter", async () => {
  const h = await startHarness({ metadata });
  try {
    const r = await unchanged(h, () => h.post(BOOK, { title: "ok", tags: ["fine", "lone \ud800 half"] }));
    assertProblem(r, 422, /not well-formed Unicode/);
    assert.deepEqual(
      r.body.errors.map((e: { path: string }) => e.path),
      ["/tags/1"],
    );
    assertProblem(await h.post(BOOK, { ["ti\udc00tle"]: "x" }), 422, /not well-formed Unicode/);
    assertProblem(await h.get(`${BOOK}?filter=${q("title == :t")}&params=${q(JSON.stringify({ t: "\udfff" }))}`), 400, /parameter t .*surrogate/);
    assert.equal((await h.post(BOOK, { title: "a pair is fine: \ud83d\ude00" })).body.title, "a pair is fine: \ud83d\ude00");
  } finally {
    h.close();
  }
});

// --- keyBytes and urlBytes --------------------------------------------------------------------

/** String keys, a composite key of two strings, and references to them (to-one and in a join table). */
const KEYS_JDO = `<jdo><package name="k">
  <class name="Tag" identity-type="application">
    <field name="name" field-type="java.lang.String" primary-key="true"/>
    <field name="note" field-type="java.lang.String"/>
  </class>
  <class name="Pair" identity-type="application" objectid-class="PairKey">
    <field name="a" field-type="java.lang.String" primary-key="true"/>
    <field name="b" field-type="java.lang.String" primary-key="true"/>
  </class>
  <class name="Post" identity-type="application">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="tag" field-type="k.Tag"/>
    <field name="tags" table="POST_TAGS">
      <collection element-type="k.Tag"/>
      <join column="POST_ID"/>
      <element column="TAG_NAME"/>
    </field>
  </class>
</package></jdo>`;
const KEYS_MODEL = [{ source: "keys.jdo", text: KEYS_JDO }];

/** 16 UTF-8 bytes in 8 characters: the limit counts bytes, not characters. */
const EDGE = "é".repeat(8);
const OVER = EDGE + "x";

/** The keyBytes edge on a handler whose limit is 16: keys in bodies (422 with the path), paths and parameters (400). */
async function checkKeyEdge(h: Harness): Promise<void> {
  const tag = (name: string) => `/k.Tag/${q(name)}`;
  // A key of exactly the limit is stored, answered with its Location, and reachable by path, body key and parameter.
  const created = await h.post("/k.Tag", { name: EDGE, note: "edge" });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get("location"), tag(EDGE));
  assert.equal((await h.get(tag(EDGE))).body.note, "edge");
  assert.equal((await h.call("HEAD", tag(EDGE))).status, 200);
  assert.equal((await h.post("/k.Post", { tag: { name: EDGE }, tags: [{ name: EDGE }] })).status, 201);
  assert.equal((await h.get(`/k.Post?filter=${q("tag == :t")}&params=${q(JSON.stringify({ t: { name: EDGE } }))}`)).body.length, 1);
  assert.equal((await h.post("/k.Pair", { a: "a".repeat(10), b: "b".repeat(6) })).status, 201);

  // One byte more: refused, and nothing is stored.
  const bad = async (body: unknown, cls: string, path: string) => {
    const r = await unchanged(h, () => h.post(cls, body));
    assertProblem(r, 422, /does not fit class/);
    assert.ok(
      r.body.errors.some((e: { path: string; message: string }) => e.path === path && /17 bytes.*limit is 16/.test(e.message)),
      `${path} in ${r.text}`,
    );
  };
  await bad({ name: OVER }, "/k.Tag", "/name");
  await bad({ tag: { name: OVER } }, "/k.Post", "/tag/name");
  await bad({ tags: [{ name: EDGE }, { name: OVER }] }, "/k.Post", "/tags/1/name");
  // A composite key counts its parts together.
  await bad({ a: "a".repeat(10), b: "b".repeat(7) }, "/k.Pair", "");
  // In a body key (DELETE and GET on the class path): 422; in a path or a parameter: 400.
  const deleted = await unchanged(h, () => h.del("/k.Tag", { name: OVER }));
  assertProblem(deleted, 422, /17 bytes.*limit keyBytes/);
  assert.deepEqual(
    deleted.body.errors.map((e: { path: string }) => e.path),
    ["/name"],
  );
  for (const path of [tag(OVER), `/k.Pair/${q(JSON.stringify({ a: "a".repeat(10), b: "b".repeat(7) }))}`]) {
    assertProblem(await h.get(path), 400, /17 bytes.*limit is 16 \(limit keyBytes\)/);
    assertProblem(await unchanged(h, () => h.put(path, { note: "x" })), 400, /limit keyBytes/);
    assertProblem(await unchanged(h, () => h.del(path)), 400, /limit keyBytes/);
  }
  assertProblem(
    await h.get(`/k.Post?filter=${q("tag == :t")}&params=${q(JSON.stringify({ t: { name: OVER } }))}`),
    400,
    /parameter :t.*17 bytes.*limit keyBytes/,
  );
  assertProblem(await h.get(`/jdoql?query=${q("SELECT FROM k.Post WHERE tags.contains(:t)")}&params=${q(JSON.stringify({ t: OVER }))}`), 400, /limit keyBytes/);
}

describe("keyBytes: how long a key may be, in UTF-8 bytes of its text (the parts of a composite key summed)", () => {
  test("set in code", async () => {
    const h = await startHarness({ metadata: KEYS_MODEL, limits: { keyBytes: 16 } });
    try {
      await checkKeyEdge(h);
    } finally {
      h.close();
    }
  });

  test("set as the property extent.limit.key-bytes", async () => {
    const files = new Map([
      [
        "persistence.xml",
        `<persistence><persistence-unit name="u"><mapping-file>keys.jdo</mapping-file><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/><property name="extent.limit.key-bytes" value="16"/></properties></persistence-unit></persistence>`,
      ],
      ["keys.jdo", KEYS_JDO],
    ]);
    const { context, problems } = resolveContext(files, "u");
    assert.deepEqual(problems, []);
    assert.deepEqual(context.limits, { keyBytes: 16 });
    const h = await startHarness({ metadata: context.metadata, limits: context.limits });
    try {
      await checkKeyEdge(h);
    } finally {
      h.close();
    }
  });

  test("set with --limit-key-bytes", () => {
    const cli = parseServeArgs(["--config", "c", "--persistence-context", "p", "--limit-key-bytes", "16", "--limit-url-bytes=300"]);
    assert.ok(cli.ok);
    assert.deepEqual(cli.options.limits, { keyBytes: 16, urlBytes: 300 });
    assert.deepEqual(parseServeArgs(["--config", "c", "--persistence-context", "p", "--limit-key-bytes", "0"]), {
      ok: false,
      message: `--limit-key-bytes: must be a whole number of at least 1, got "0"`,
    });
  });
});

describe("urlBytes: the longest request target (path and query as sent); 414 beyond, before any work", () => {
  test("exactly the limit is served, one byte more is 414 with a problem document; set in code and as a property", async () => {
    const files = new Map([
      [
        "persistence.xml",
        `<persistence><persistence-unit name="u"><mapping-file>keys.jdo</mapping-file><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/><property name="extent.limit.url-bytes" value="300"/></properties></persistence-unit></persistence>`,
      ],
      ["keys.jdo", KEYS_JDO],
    ]);
    const fromProperty = resolveContext(files, "u");
    assert.deepEqual(fromProperty.problems, []);
    assert.deepEqual(fromProperty.context.limits, { urlBytes: 300 });
    for (const limits of [{ urlBytes: 300 }, fromProperty.context.limits!]) {
      const h = await startHarness({ metadata: KEYS_MODEL, limits });
      try {
        const start = `/k.Tag?filter=${q('name == "')}`;
        const target = (n: number) => `${start}${"z".repeat(n - start.length - 3)}%22`;
        assert.equal(target(300).length, 300);
        assert.equal((await h.get(target(300))).status, 200);
        for (const method of ["GET", "HEAD", "DELETE"]) {
          const r = await unchanged(h, () => h.call(method, target(301)));
          assert.equal(r.status, 414, `${method}: ${r.text}`);
          if (method !== "HEAD") assertProblem(r, 414, /request target is 301 bytes long; the limit is 300 \(limit urlBytes\)/);
        }
        assertProblem(await unchanged(h, () => h.post(`/k.Tag?x=${"y".repeat(300)}`, { name: "t" })), 414, /limit urlBytes/);
      } finally {
        h.close();
      }
    }
  });
});
