/**
 * Injection (issue 9, item 2): a corpus of SQL and JSON injection strings
 * (test/fixtures/injection-corpus.ts) through every entry point of the real handler over a real
 * libSQL file, on the sample model: class names in the path, keys (String, numeric, datastore and
 * composite keys in the path, keys in bodies), filter, JDOQL and JPQL string literals, parameter
 * values, names and `params` JSON, field names (in bodies, and as identifiers in queries),
 * fetch-group names, `maxFetchDepth`, JSON bodies (string values, `class` values, nested objects,
 * prototype keys, duplicate keys) and headers.
 *
 * What it proves, for every request:
 * - never a 5xx; a refused request answers its precise 4xx as a problem document whose strings,
 *   once the client's own text is taken out, hold no SQL and no stack trace;
 * - no string reaches SQL text: every statement the store runs is recorded (RecordingStore), no
 *   statement text holds a tell-tale fragment (`DROP`, `--`, `;`, `UNION`, `sqlite_master`, ...),
 *   a request carrying an injection string runs exactly the SQL text the same request with a
 *   benign string runs (or none at all), and the string arrives as a bound parameter;
 * - nothing changes the meaning: objects whose fields hold the injection strings themselves are
 *   stored, and each query returns exactly the objects whose value equals (starts with, ends with,
 *   contains) the string, `%` and `_` and GLOB's `*?[` taken literally;
 * - a read or a refused request leaves the database as it was. The store is the handler's only way
 *   to the database, so a request that ran no statement changed nothing; after one that did, SQLite's
 *   `total_changes()` and `schema_version` on the store's connection are compared (no row written,
 *   no DDL run, not even in a batch that was rolled back), and when either moved, and at the end of
 *   every family, the digest of every table (databaseDigest) must equal the last one.
 *
 * Every corpus string goes through every entry point; where an entry point has several request
 * shapes (methods, quotings, string methods, paths), the strings take them in turn (`rotate`), so
 * each shape sees a share of the corpus and the file runs in a few seconds. Strings with wildcards,
 * quotes and backslashes take every pattern shape.
 *
 * Bugs found are kept as todo tests naming the bug (see the end of the file).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";
import { INJECTIONS, NUL_INJECTIONS, SQL_IDENTIFIERS, SQL_TEXT_FRAGMENTS, WILDCARD_INJECTIONS } from "./fixtures/injection-corpus.ts";
import { databaseDigest } from "./support/digest.ts";
import { type Harness, type Reply, startHarness } from "./support/harness.ts";
import { type Recorded, RecordingStore } from "./support/recording-store.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const P = "org.extent.sample";
const ITEM = `/${P}.Item`;
const BOOK = `/${P}.Book`;
const AUTHOR = `/${P}.Author`;
const MEMBER = `/${P}.Member`;
const CATEGORY = `/${P}.Category`;
const SHELF = `/${P}.Shelf`;
const E = encodeURIComponent;

let h: Harness;
let rec: RecordingStore;

/** One corpus string and the objects stored with it in their fields. */
interface Stored {
  s: string;
  i: number;
  authorId: number;
  bookId: number;
  categoryId: number;
  memberLocation: string;
  /** The statements of the three POSTs that stored them. */
  posts: Recorded[][];
}
const stored: Stored[] = [];
/** The SQL texts of the same three POSTs with benign values. */
let benignPosts: string[] = [];
/** Every Item after seeding: the reference for the expected answers of queries. */
let items: { id: number; title: string | null; tags: string[] | null }[] = [];

const authorBody = (s: string, i: number) => ({
  name: s,
  address: { street: s, city: "City", country: "XX" },
  works: [{ class: `${P}.Book`, title: s, isbn: s, pages: 1000 + i, tags: [s, `tag${i}`] }],
});

before(async () => {
  const { context, problems } = resolveContext(await loadConfigDir(SCHEMA), "sample");
  assert.deepEqual(problems, []);
  h = await startHarness(
    { metadata: context.metadata },
    {},
    {
      wrapStore: (store) => {
        // Speed only: commits without fsync (WAL + synchronous NORMAL); this test does not test durability.
        (store as { db?: { exec?(sql: string): void } }).db?.exec?.("PRAGMA synchronous = NORMAL");
        return (rec = new RecordingStore(store));
      },
    },
  );
  const data = JSON.parse(readFileSync(new URL("../schema/sample-data.json", import.meta.url), "utf8")) as Record<string, unknown[]>;
  for (const [cls, list] of Object.entries(data)) {
    for (const o of list) assert.equal((await h.post(`/${cls}`, o)).status, 201);
  }
  const postAll = async (s: string, i: number, email: string) => {
    const posts: Recorded[][] = [];
    rec.clear();
    const author = await h.post(AUTHOR, authorBody(s, i));
    assert.equal(author.status, 201, author.text);
    posts.push(rec.take());
    const member = await h.post(MEMBER, { email, name: s, phones: { tel: s } });
    assert.equal(member.status, 201, member.text);
    posts.push(rec.take());
    const category = await h.post(CATEGORY, { id: 100 + i, kind: s, name: s });
    assert.equal(category.status, 201, category.text);
    posts.push(rec.take());
    return { author, member, category, posts };
  };
  benignPosts = (await postAll("benign", -1, "benign@example.org")).posts.map(shapeOf);
  for (const [i, s] of INJECTIONS.entries()) {
    const { author, member, posts } = await postAll(s, i, s);
    stored.push({
      s,
      i,
      authorId: author.body._id,
      bookId: author.body.works[0].id,
      categoryId: 100 + i,
      memberLocation: member.headers.get("location")!,
      posts,
    });
  }
  items = (await h.get(ITEM)).body.map((o: any) => ({ id: o.id, title: o.title, tags: o.tags }));
  await acceptChanges();
});
after(() => h.close());

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

let digest = "";
let sentinel = "";

/** Rows written and DDL run on the store's connection so far: equal means nothing was written. */
async function changeSentinel(): Promise<string> {
  const [row] = await h.sql("SELECT total_changes(), (SELECT schema_version FROM pragma_schema_version)");
  return `${row![0]}/${row![1]}`;
}

/** After an intended write: the current state is the reference. */
async function acceptChanges(): Promise<void> {
  digest = await databaseDigest(h.sql);
  sentinel = await changeSentinel();
}

/** After a read or a refused request: the database is as it was. */
async function assertUnchanged(what: string, full = false): Promise<void> {
  const now = await changeSentinel();
  if (now === sentinel && !full) return;
  sentinel = now;
  assert.equal(await databaseDigest(h.sql), digest, `${what} changed the database`);
}

const shapeOf = (statements: readonly Recorded[]) => statements.map((s) => s.sql).join("\n");

interface Sent extends Reply {
  statements: Recorded[];
  /** The SQL texts the request ran, in order. */
  shape: string;
}

const LEAKS: RegExp[] = [
  /SELECT /,
  /FROM "/,
  /sqlite/i,
  /SQLITE_/,
  /SqliteError|LibsqlError/,
  /\n\s+at\s/,
  /\bat\s+\S+\s+\(/,
  /\.ts:\d+/,
  /node:internal/,
  /file:\/\//,
  /extent_guard|extent_sequence/,
];

/** Every string inside a JSON value. */
function stringsOf(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(stringsOf);
  if (v && typeof v === "object") return Object.values(v).flatMap(stringsOf);
  return [];
}

/**
 * A problem document with the reply's status, whose strings leak no SQL and no stack trace. A
 * detail may quote the client's own text, whole or cut short: a match counts as quoted when it lies
 * in a quotation of one of `echoes`, or when it and three characters on one side of it are found
 * in one of them.
 */
function assertProblem(r: Reply, where: string, echoes: readonly string[]): void {
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json\s*(;|$)/, `${where}: content-type of ${r.text}`);
  assert.ok(r.body && typeof r.body === "object" && !Array.isArray(r.body), `${where}: a problem object, got ${r.text}`);
  assert.equal(r.body.status, r.status, `${where}: status in ${r.text}`);
  assert.equal(typeof r.body.title, "string");
  assert.equal(typeof r.body.type, "string");
  assert.ok(typeof r.body.detail === "string" && r.body.detail.length > 0, `${where}: a detail in ${r.text}`);
  const forms = echoes
    .filter((e) => e.length > 0)
    .flatMap((e) => [e, JSON.stringify(e), JSON.stringify(e).slice(1, -1), e.replace(/~/g, "~0").replace(/\//g, "~1")]);
  for (const text of stringsOf(r.body)) {
    const covered: [number, number][] = [];
    for (const f of forms) for (let at = text.indexOf(f); at >= 0; at = text.indexOf(f, at + 1)) covered.push([at, at + f.length]);
    const quoted = (at: number, length: number) =>
      covered.some(([a, b]) => a <= at && at + length <= b) ||
      [text.slice(Math.max(0, at - 3), at + length), text.slice(at, at + length + 3)].some((w) => w.length > length && forms.some((f) => f.includes(w)));
    for (const leak of LEAKS) {
      for (const m of text.matchAll(new RegExp(leak.source, `${leak.flags}g`))) {
        assert.ok(quoted(m.index!, m[0].length), `${where}: the problem leaks ${leak}: ${r.text}`);
      }
    }
  }
}

/**
 * Sends a request and checks what holds for every request: no 5xx, no tell-tale fragment in any
 * SQL text, a problem document for a refusal, and an unchanged database after a read or a refusal.
 * `echoes` are the client's own strings, which a problem's detail may quote.
 */
async function send(method: string, path: string, body?: unknown, headers?: Record<string, string>, echoes: readonly string[] = []): Promise<Sent> {
  rec.clear();
  const reply = await h.call(method, path, body, headers);
  const statements = rec.take();
  const where = `${method} ${path}`;
  assert.ok(reply.status < 500, `${where} answered ${reply.status}: ${reply.text}`);
  for (const st of statements) {
    for (const fragment of SQL_TEXT_FRAGMENTS) assert.doesNotMatch(st.sql, fragment, `${where}: a client's text reached SQL: ${st.sql}`);
  }
  if (reply.status >= 400 && method !== "HEAD") assertProblem(reply, where, [...echoes, decodeURIComponentSafe(path), typeof body === "string" ? body : ""]);
  // The store is the handler's only way to the database: a request that ran no statement changed nothing.
  if (statements.length && (reply.status >= 400 || method === "GET" || method === "HEAD")) await assertUnchanged(where);
  return { ...reply, statements, shape: shapeOf(statements) };
}

/** Sends a request that must be refused with `status`. */
async function refused(
  status: number,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
  echoes: readonly string[] = [],
): Promise<Sent> {
  const r = await send(method, path, body, headers, echoes);
  assert.equal(
    r.status,
    status,
    `${method} ${path} ${body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body)}: expected ${status}, got ${r.status}: ${r.text}`,
  );
  return r;
}

/** Sends a read that must succeed. */
async function ok(path: string, echoes: readonly string[] = []): Promise<Sent> {
  const r = await send("GET", path, undefined, undefined, echoes);
  assert.equal(r.status, 200, `GET ${path}: ${r.text}`);
  return r;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Whether a bound value is `value`, or JSON text (a key list, a collection) holding it. */
function holds(param: unknown, value: unknown): boolean {
  if (param === value) return true;
  if (typeof param !== "string" || !/^[[{]/.test(param)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(param);
  } catch {
    return false;
  }
  const inside = (v: unknown): boolean => v === value || (Array.isArray(v) ? v.some(inside) : !!v && typeof v === "object" && Object.values(v).some(inside));
  return inside(parsed);
}

/** The value arrived as a bound parameter of some statement (itself, or inside a JSON parameter). */
function assertBound(r: Sent, value: unknown, what: string): void {
  assert.ok(
    r.statements.some((st) => st.params.some((p) => holds(p, value))),
    `${what}: ${JSON.stringify(value)} is not among the parameters ${JSON.stringify(r.statements.map((s) => s.params))}`,
  );
}

/** Runs the same SQL text as `base` (a refusal may also run none). */
function assertSameSql(r: Sent, base: Sent, what: string): void {
  if (r.status >= 400 && r.statements.length === 0) return;
  assert.equal(r.shape, base.shape, `${what}: the SQL text differs from the benign request's`);
}

/** JSON pointer of a member (RFC 6901). */
const pointer = (...names: (string | number)[]) => names.map((n) => `/${String(n).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const idsOf = (objects: { id: number }[]) => sorted(objects.map((o) => o.id));
/** The ids of the Items whose title satisfies `pred` (a null title satisfies nothing). */
const expectIds = (pred: (title: string) => boolean) => sorted(items.filter((i) => i.title !== null && pred(i.title)).map((i) => i.id));

// Literals in each language's syntax.
const jdoqlDouble = (s: string) =>
  `"${s
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")}"`;
const jdoqlSingle = (s: string) =>
  `'${s
    .replace(/[\\']/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")}'`;
const jdoqlUnicode = (s: string) => `"${Array.from({ length: s.length }, (_, k) => `\\u${s.charCodeAt(k).toString(16).padStart(4, "0")}`).join("")}"`;
const jpql = (s: string) => `'${s.replaceAll("'", "''")}'`;
/** A regex (matches()) for the string itself, every special character escaped. */
const regexOf = (s: string) => s.replace(/[.\\*?+()[\]{}|^$]/g, (c) => `\\${c}`);
/** A LIKE pattern for the string itself, with `!` as the escape character. */
const likeOf = (s: string) => s.replace(/[%_!]/g, (c) => `!${c}`);
/** JPQL LIKE semantics (case-sensitive; `%` any run, `_` one character). */
const likeMatches = (text: string, pattern: string) =>
  new RegExp(`^${[...pattern].map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("")}$`, "su").test(text);

/**
 * The shape corpus string number `i` takes among several of an entry point: every string goes
 * through every entry point, each shape takes its share of the strings (the suite stays fast).
 */
const rotate = <T>(i: number, options: readonly T[]): T => options[i % options.length]!;

const looksLikeJsonObject = (s: string) => {
  if (!/^\s*\{/.test(s)) return false;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// Class names
// ---------------------------------------------------------------------------------------------

test("class names in the path: 404 for every method, and no statement runs", async () => {
  const names = [
    ...INJECTIONS,
    ...NUL_INJECTIONS,
    ...SQL_IDENTIFIERS,
    `${P}.Item'; DROP TABLE ITEM; --`,
    `${P}.Item' OR '1'='1`,
    `${P}.Item%`,
    `${P}.*`,
    `${P}.item`,
    ` ${P}.Item`,
    `${P}.Item\u0000`,
    `${P}.Address`,
    `${P}.Category$Key`,
    `Item`,
    `Book`,
  ];
  for (const [i, name] of names.entries()) {
    const seg = E(name);
    const [method, path, body] = rotate(i, [
      ["GET", `/${seg}`],
      ["GET", `/${seg}?filter=${E('title == "x"')}`],
      ["GET", `/${seg}/1`],
      ["POST", `/${seg}`, { title: name }],
      ["PUT", `/${seg}/1`, { title: name }],
      ["DELETE", `/${seg}`],
      ["DELETE", `/${seg}/1`],
      ["HEAD", `/${seg}/1`],
    ] as [string, string, unknown?][]);
    const r = await refused(404, method, path, body, undefined, [name]);
    assert.equal(r.statements.length, 0, `${method} ${path} ran SQL`);
  }
  await assertUnchanged("class names", true);
});

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

test("keys: a String key in the path addresses exactly its object, whatever it holds", async () => {
  const base = await ok(`${MEMBER}/benign%40example.org`);
  const baseJson = await ok(`${MEMBER}/${E(JSON.stringify({ email: "benign@example.org" }))}`);
  const baseMissing = await refused(404, "GET", `${MEMBER}/nobody`);
  const members = async () => new Map((await h.sql(`SELECT email, name FROM "MEMBER"`)).map((row) => [String(row[0]), row[1]]));
  const before = await members();
  for (const { s, i } of stored) {
    // A key that reads as a JSON object is taken as the key object (README): see the todo test.
    if (i % 2 === 0 && !looksLikeJsonObject(s)) {
      const r = await ok(`${MEMBER}/${E(s)}`, [s]);
      assert.equal(r.body.email, s);
      assert.equal(r.body.name, s);
      assertSameSql(r, base, `GET member ${JSON.stringify(s)}`);
      assertBound(r, s, `GET member ${JSON.stringify(s)}`);
    } else {
      const r = await ok(`${MEMBER}/${E(JSON.stringify({ email: s }))}`, [s]);
      assert.equal(r.body.email, s);
      assertSameSql(r, baseJson, `GET member {email: ${JSON.stringify(s)}}`);
      assertBound(r, s, `GET member {email: ${JSON.stringify(s)}}`);
    }
    // A key nobody has: 404, the same SQL as a benign missing key, nothing changed.
    const missing = `☃${s}`;
    const [method, body] = rotate(i, [["GET"], ["HEAD"], ["PUT", { name: "x" }], ["DELETE"]] as [string, unknown?][]);
    const r404 = await refused(404, method, `${MEMBER}/${E(missing)}`, body, undefined, [missing]);
    if (method === "GET") assertSameSql(r404, baseMissing, `GET missing member ${JSON.stringify(missing)}`);
    // A PUT through the key changes that member only.
    if (i % 4 === 1 && !looksLikeJsonObject(s)) {
      const put = await send("PUT", `${MEMBER}/${E(s)}`, { name: `${s}!` });
      assert.equal(put.status, 200, put.text);
      assertBound(put, s, `PUT member ${JSON.stringify(s)}`);
      const after = await members();
      for (const [email, name] of before)
        assert.equal(after.get(email), email === s ? `${s}!` : name, `PUT of ${JSON.stringify(s)} and member ${JSON.stringify(email)}`);
      assert.equal(after.size, before.size);
      assert.equal((await send("PUT", `${MEMBER}/${E(s)}`, { name: s })).status, 200);
    }
  }
  assert.deepEqual(await members(), before);
  await acceptChanges();
});

test("keys: numeric and datastore keys refuse anything but a number, before any SQL", async () => {
  const keys = [
    ...INJECTIONS,
    ...NUL_INJECTIONS,
    "1 OR 1=1",
    "1;",
    "1--",
    "1/**/",
    "0x1",
    "1e0",
    "+1",
    "-1 UNION SELECT 1",
    "١",
    "１",
    "1 1",
    "Infinity",
    "NaN",
    "[1]",
    '{"id":"1"}',
    '{"_id":"1 OR 1=1"}',
  ];
  for (const [i, s] of keys.entries()) {
    const [method, body] = rotate(i, [["GET"], ["HEAD"], ["PUT", { name: "x" }], ["DELETE"]] as [string, unknown?][]);
    const path = `${rotate(i, [ITEM, AUTHOR, BOOK])}/${E(s)}`;
    const r = await refused(400, method, path, body, undefined, [s]);
    assert.equal(r.statements.length, 0, `${method} ${path} ran SQL`);
  }
  // (control) numbers in the forms the README allows still address the object.
  for (const form of ["1", " 1", "1.0", E(JSON.stringify({ id: 1 }))]) assert.equal((await ok(`${ITEM}/${form}`)).body.id, 1);
  await assertUnchanged("numeric keys", true);
});

test("keys: composite keys as URL-encoded JSON address exactly their object", async () => {
  const key = (k: unknown) => `${CATEGORY}/${E(JSON.stringify(k))}`;
  const base = await ok(key({ id: 99, kind: "benign" }));
  const baseMissing = await refused(404, "GET", key({ id: 1, kind: "nothing" }));
  for (const { s, i, categoryId } of stored) {
    const r = await ok(key({ id: categoryId, kind: s }), [s]);
    assert.equal(r.body.kind, s);
    assert.equal(r.body.name, s);
    assert.equal(r.body.id, categoryId);
    assertSameSql(r, base, `GET category ${JSON.stringify(s)}`);
    assertBound(r, s, `GET category ${JSON.stringify(s)}`);
    if (i % 2 === 0) {
      // Another object's id with this kind, this id with another kind, a parent of this kind: nothing.
      const k = rotate(i / 2, [
        { id: 1, kind: s },
        { id: categoryId, kind: `${s}x` },
        { id: 2, kind: "genre", parent: { id: 1, kind: s } },
      ]);
      const [method, body] = rotate(i / 2, [["GET"], ["DELETE"], ["PUT", { name: "x" }], ["GET"]] as [string, unknown?][]);
      const miss = await refused(404, method, key(k), body, undefined, [s, JSON.stringify(k)]);
      if (method === "GET" && !("parent" in k)) assertSameSql(miss, baseMissing, `GET category ${JSON.stringify(k)}`);
    } else {
      // The string as a member name, as the parent, or as the whole segment: a malformed key, before any SQL.
      const [method, path, pointed] = rotate((i - 1) / 2, [
        ["GET", key({ id: 1, kind: "genre", [s]: 1 }), true],
        ["GET", key({ id: 2, kind: "genre", parent: s }), false],
        ["GET", `${CATEGORY}/${E(s)}`, false],
        ["DELETE", `${CATEGORY}/${E(s)}`, false],
      ] as [string, string, boolean][]);
      const bad = await refused(400, method, path, undefined, undefined, [s]);
      assert.equal(bad.statements.length, 0);
      // (The pointer of a name holding / or ~ is not escaped: see the todo test.)
      if (pointed && !/[/~]/.test(s))
        assert.deepEqual(
          bad.body.errors.map((e: any) => e.path),
          [pointer(s)],
          bad.text,
        );
    }
  }
  await assertUnchanged("composite keys", true);
});

test("keys in bodies: a key object deletes exactly its object; references by key are checked", async () => {
  const baseMissing = await refused(404, "DELETE", CATEGORY, { id: 5000, kind: "benign" });
  const categories = async () => (await h.sql(`SELECT id, kind, name FROM "CATEGORY" ORDER BY id, kind`)).map((r) => JSON.stringify(r));
  const before = await categories();
  for (const { s, i } of stored) {
    const shape = i % 3;
    if (shape === 0) {
      const miss = await refused(404, "DELETE", CATEGORY, { id: 5000, kind: s }, undefined, [s]);
      assertSameSql(miss, baseMissing, `DELETE category {5000, ${JSON.stringify(s)}}`);
    } else if (shape === 1) {
      // A member that is not a key field, or a body that is the raw string: 400 before any SQL.
      const malformed = rotate((i - 1) / 3, [{ id: 1, kind: "genre", [s]: 1 }, s]);
      assert.equal((await refused(400, "DELETE", CATEGORY, malformed, undefined, [s])).statements.length, 0);
    } else {
      // References by key with the string where a number belongs: 422 with the value's path.
      const [method, path, body, at] = rotate((i - 2) / 3, [
        ["POST", BOOK, { title: "ref", author: { _id: s } }, pointer("author", "_id")],
        ["POST", SHELF, { label: "ref", items: [{ class: `${P}.Book`, id: s }] }, pointer("items", 0, "id")],
        ["POST", MEMBER, { email: "ref@example.org", borrowed: [{ id: s }] }, pointer("borrowed", 0, "id")],
        ["PUT", `${ITEM}/1`, { author: { _id: s } }, pointer("author", "_id")],
      ] as [string, string, unknown, string][]);
      const r = await refused(422, method, path, body, undefined, [s]);
      assert.ok(
        r.body.errors.some((e: any) => e.path === at),
        `${method} ${path}: an error at ${at} in ${r.text}`,
      );
    }
    // Create, then delete by a body key: exactly that row goes.
    if (i % 4 === 0) {
      assert.equal((await send("POST", CATEGORY, { id: 6000 + i, kind: s, name: "tmp" })).status, 201);
      const del = await send("DELETE", CATEGORY, { id: 6000 + i, kind: s });
      assert.equal(del.status, 204, del.text);
      assertBound(del, s, `DELETE category ${JSON.stringify(s)}`);
      assert.deepEqual(await categories(), before);
    }
  }
  await acceptChanges();
});

// ---------------------------------------------------------------------------------------------
// String literals in filters, JDOQL and JPQL
// ---------------------------------------------------------------------------------------------

/** Strings that take every pattern method (the others take one each, in turn): wildcards, quotes, escapes. */
const ALL_METHODS = new Set([...WILDCARD_INJECTIONS, `\\`, `'`, `"`]);

test("filter string literals: == in every quoting, startsWith, endsWith, indexOf, matches", async () => {
  const filter = (f: string) => `${ITEM}?filter=${E(f)}`;
  const quotings = [
    ["double", jdoqlDouble],
    ["single", jdoqlSingle],
    ["unicode", jdoqlUnicode],
  ] as const;
  const methods: [string, (s: string) => string, (t: string, s: string) => boolean][] = [
    ["startsWith", (s) => `title.startsWith(${jdoqlDouble(s)})`, (t, s) => t.startsWith(s)],
    ["endsWith", (s) => `title.endsWith(${jdoqlSingle(s)})`, (t, s) => t.endsWith(s)],
    ["indexOf", (s) => `title.indexOf(${jdoqlDouble(s)}) >= 0`, (t, s) => t.includes(s)],
    // (?s): `.` matches line terminators too, so "contains s" is exactly Java's answer (without it a
    // title holding a line break matches no `.*`).
    ["matches", (s) => `title.matches(${jdoqlDouble(`(?s).*${regexOf(s)}.*`)})`, (t, s) => t.includes(s)],
  ];
  const base = new Map<string, Sent>();
  for (const [name, lit] of quotings) base.set(name, await ok(filter(`title == ${lit("benign")}`)));
  base.set("raw", await ok(`${ITEM}?${E(`title == ${jdoqlDouble("benign")}`)}`));
  for (const [name, f] of methods) base.set(name, await ok(filter(f("benign"))));

  for (const { s, i } of stored) {
    const equal = expectIds((t) => t === s);
    assert.ok(equal.length >= 1, `the book titled ${JSON.stringify(s)} is stored`);
    // Double quotes, single quotes, every character as \uXXXX: each string takes one, in turn.
    const [quoting, lit] = rotate(i, quotings);
    const f = `title == ${lit(s)}`;
    const r = await ok(filter(f), [s, f]);
    assert.deepEqual(idsOf(r.body), equal, f);
    assertSameSql(r, base.get(quoting)!, f);
    assertBound(r, s, f);
    if (i % 3 === 0) {
      // HEAD counts the same matches (the query is compiled already).
      const head = await send("HEAD", filter(f));
      assert.equal(head.headers.get("x-match-count"), String(equal.length), `HEAD ${f}`);
      assert.equal(head.status, equal.length === 1 ? 200 : 404);
    } else if (i % 3 === 1) {
      // The raw form: the whole query string is the filter.
      const raw = await ok(`${ITEM}?${E(`title == ${jdoqlDouble(s)}`)}`, [s]);
      assert.deepEqual(idsOf(raw.body), equal);
      assertSameSql(raw, base.get("raw")!, `raw ${s}`);
    }
    for (const [name, text, pred] of ALL_METHODS.has(s) ? methods : [rotate(i, methods)]) {
      const r = await ok(filter(text(s)), [s, text(s)]);
      assert.deepEqual(
        idsOf(r.body),
        expectIds((t) => pred(t, s)),
        text(s),
      );
      assertSameSql(r, base.get(name)!, text(s));
      if (name !== "matches") assertBound(r, s, text(s));
    }
  }
  // % and _ are plain characters to a prefix or suffix test.
  for (const [f, pred] of [
    [`title.startsWith("%")`, (t: string) => t.startsWith("%")],
    [`title.endsWith("_")`, (t: string) => t.endsWith("_")],
    [`title.startsWith("_")`, (t: string) => t.startsWith("_")],
  ] as const) {
    const expected = expectIds(pred);
    assert.ok(expected.length >= 1 && expected.length < items.length);
    assert.deepEqual(idsOf((await ok(filter(f))).body), expected, f);
  }
  await assertUnchanged("filter literals", true);
});

test("JDOQL string literals: in WHERE, in the result, in tags.contains", async () => {
  const q = (text: string) => `/jdoql?query=${E(text)}`;
  const shapes: [string, (s: string, i: number) => string, (s: string) => unknown][] = [
    [
      "where",
      (s, i) => `SELECT id FROM ${P}.Item WHERE title == ${rotate(Math.floor(i / 3), [jdoqlDouble, jdoqlSingle, jdoqlUnicode])(s)} ORDER BY id`,
      (s) => expectIds((t) => t === s),
    ],
    // The literal comes back as the value it is.
    ["select", (s) => `SELECT ${jdoqlDouble(s)} FROM ${P}.Item WHERE id == 1`, (s) => [s]],
    [
      "contains",
      (s) => `SELECT id FROM ${P}.Item WHERE tags.contains(${jdoqlSingle(s)}) ORDER BY id`,
      (s) => sorted(items.filter((x) => x.tags?.includes(s)).map((x) => x.id)),
    ],
  ];
  const bases = new Map<string, Sent>();
  for (const [name, text] of shapes) bases.set(name, await ok(q(text("benign", 0))));
  for (const { s, i } of stored) {
    const [name, text, expected] = rotate(i, shapes);
    const r = await ok(q(text(s, i)), [s, text(s, i)]);
    assert.deepEqual(r.body, expected(s), text(s, i));
    assertSameSql(r, bases.get(name)!, text(s, i));
    assertBound(r, s, text(s, i));
  }
  await assertUnchanged("JDOQL literals", true);
});

test("JPQL string literals: '' escaping, LIKE with ESCAPE, LOCATE, in the result", async () => {
  const q = (text: string) => `/jpql?query=${E(text)}`;
  const shapes: [string, (s: string) => string, (s: string) => unknown][] = [
    ["equal", (s) => `SELECT i.id FROM Item i WHERE i.title = ${jpql(s)} ORDER BY i.id`, (s) => expectIds((t) => t === s)],
    ["select", (s) => `SELECT ${jpql(s)} FROM Item i WHERE i.id = 1`, (s) => [s]],
    ["prefix", (s) => `SELECT i.id FROM Item i WHERE i.title LIKE ${jpql(`${likeOf(s)}%`)} ESCAPE '!' ORDER BY i.id`, (s) => expectIds((t) => t.startsWith(s))],
    ["locate", (s) => `SELECT i.id FROM Item i WHERE LOCATE(${jpql(s)}, i.title) > 0 ORDER BY i.id`, (s) => expectIds((t) => t.includes(s))],
  ];
  const bases = new Map<string, Sent>();
  for (const [name, text] of shapes) bases.set(name, await ok(q(text("benign"))));
  for (const { s, i } of stored) {
    for (const [name, text, expected] of ALL_METHODS.has(s) ? shapes : [rotate(i, shapes)]) {
      const r = await ok(q(text(s)), [s, text(s)]);
      assert.deepEqual(r.body, expected(s), text(s));
      assertSameSql(r, bases.get(name)!, text(s));
      if (name !== "prefix") assertBound(r, s, text(s));
    }
  }
  // JPQL's strings are single-quoted: a double-quoted string is a precise 400, before any SQL.
  const dq = await refused(400, "GET", q(`SELECT i FROM Item i WHERE i.title = "x' OR '1'='1"`));
  assert.equal(dq.statements.length, 0);
  await assertUnchanged("JPQL literals", true);
});

// ---------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------

test("parameter values (params=): named and positional, in JDOQL and JPQL, bound as values", async () => {
  const run = (path: string, query: string, params: unknown) =>
    `${path}?${path === "/jdoql" || path === "/jpql" ? "query" : "filter"}=${E(query)}&params=${E(JSON.stringify(params))}`;
  const ids = (b: any) => idsOf(b);
  const emails = (b: any) => b.map((m: any) => m.email);
  const same = (b: any) => b;
  const cases: { path: string; query: string; params: (s: string) => unknown; expect: (s: string) => unknown; result: (body: any) => unknown }[] = [
    { path: ITEM, query: "title == :p", params: (s) => ({ p: s }), expect: (s) => expectIds((t) => t === s), result: ids },
    { path: ITEM, query: "title == :p", params: (s) => [s], expect: (s) => expectIds((t) => t === s), result: ids },
    {
      path: "/jdoql",
      query: `SELECT id FROM ${P}.Item WHERE title == ?1 ORDER BY id`,
      params: (s) => [s],
      expect: (s) => expectIds((t) => t === s),
      result: same,
    },
    {
      path: ITEM,
      query: "tags.contains(:p)",
      params: (s) => ({ p: s }),
      expect: (s) => sorted(items.filter((x) => x.tags?.includes(s)).map((x) => x.id)),
      result: ids,
    },
    { path: MEMBER, query: `phones.get("tel") == :p`, params: (s) => ({ p: s }), expect: (s) => [s], result: emails },
    { path: MEMBER, query: "phones.containsValue(:p)", params: (s) => ({ p: s }), expect: (s) => [s], result: emails },
    { path: AUTHOR, query: "address.street == :p", params: (s) => ({ p: s }), expect: (s) => [s], result: (b) => b.map((a: any) => a.name) },
    { path: CATEGORY, query: "kind == :p", params: (s) => ({ p: s }), expect: (s) => [s], result: (b) => b.map((c: any) => c.kind) },
    {
      path: "/jpql",
      query: "SELECT i.id FROM Item i WHERE i.title = :p ORDER BY i.id",
      params: (s) => ({ p: s }),
      expect: (s) => expectIds((t) => t === s),
      result: same,
    },
    {
      path: "/jpql",
      query: "SELECT i.id FROM Item i WHERE i.title = ?1 ORDER BY i.id",
      params: (s) => [s],
      expect: (s) => expectIds((t) => t === s),
      result: same,
    },
    // Patterns: % and _ literal to prefix and suffix tests; LIKE's wildcards only without ESCAPE (JPQL's meaning).
    { path: ITEM, query: "title.startsWith(:p)", params: (s) => ({ p: s }), expect: (s) => expectIds((t) => t.startsWith(s)), result: ids },
    { path: ITEM, query: "title.endsWith(:p)", params: (s) => ({ p: s }), expect: (s) => expectIds((t) => t.endsWith(s)), result: ids },
    { path: ITEM, query: "title.matches(:p)", params: (s) => ({ p: `(?s).*${regexOf(s)}.*` }), expect: (s) => expectIds((t) => t.includes(s)), result: ids },
    {
      path: "/jpql",
      query: "SELECT i.id FROM Item i WHERE i.title LIKE :p ESCAPE '!' ORDER BY i.id",
      params: (s) => ({ p: `${likeOf(s)}%` }),
      expect: (s) => expectIds((t) => t.startsWith(s)),
      result: same,
    },
    {
      path: "/jpql",
      query: "SELECT i.id FROM Item i WHERE i.title LIKE :p ORDER BY i.id",
      params: (s) => ({ p: s }),
      expect: (s) => expectIds((t) => likeMatches(t, s)),
      result: same,
    },
  ];
  const patterns = cases.filter((c) => /startsWith|endsWith|matches|LIKE/.test(c.query));
  const bases = new Map<(typeof cases)[number], Sent>();
  for (const c of cases) bases.set(c, await ok(run(c.path, c.query, c.params("benign"))));
  for (const { s, i } of stored) {
    // Named equality for every string, and one other case in turn; every pattern case for wildcards.
    const chosen = new Set([cases[0]!, rotate(i, cases.slice(1)), ...(WILDCARD_INJECTIONS.includes(s) ? patterns : [])]);
    for (const c of chosen) {
      const r = await ok(run(c.path, c.query, c.params(s)), [s, c.query]);
      assert.deepEqual(c.result(r.body), c.expect(s), `${c.query} with ${JSON.stringify(c.params(s))}`);
      assertSameSql(r, bases.get(c)!, `${c.query} with ${JSON.stringify(s)}`);
      if (!/matches|LIKE/.test(c.query)) assertBound(r, s, `${c.query} with ${JSON.stringify(s)}`);
    }
  }
  await assertUnchanged("parameter values", true);
});

test("parameters: wrong types, unknown names, and params that are not a JSON object or array", async () => {
  const url = (query: string, params: string, path = ITEM) => `${path}?filter=${E(query)}&params=${E(params)}`;
  for (const { s, i } of stored) {
    const shape = i % 3;
    if (shape === 0) {
      // A string where a number or an object belongs (one-character strings for a number: see the todo test).
      const [path, numeric] = rotate(i / 3, [
        [url("pages == :p", JSON.stringify({ p: s }), BOOK), true],
        [`/jpql?query=${E("SELECT b FROM Book b WHERE b.pages = :p")}&params=${E(JSON.stringify({ p: s }))}`, true],
        [url("author == :p", JSON.stringify({ p: s })), false],
        [url("author == :p", JSON.stringify({ p: { _id: s } })), false],
      ] as [string, boolean][]);
      if (!numeric || s.length !== 1) await refused(400, "GET", path, undefined, undefined, [s]);
    } else if (shape === 1) {
      // The string as a parameter's name: not one the query uses.
      if (s !== "p")
        await refused(
          400,
          "GET",
          url("title == :p", JSON.stringify(rotate((i - 1) / 3, [{ [s]: "Cosmos" }, { p: "Cosmos", [s]: "Cosmos" }]))),
          undefined,
          undefined,
          [s],
        );
    } else {
      // The string as the whole params: malformed, or JSON that binds nothing right.
      let parsed: unknown;
      try {
        parsed = JSON.parse(s);
      } catch {
        parsed = undefined;
      }
      const empty = parsed !== null && typeof parsed === "object" && Object.keys(parsed).length === 0;
      const withParams = ((i - 2) / 3) % 2 === 0;
      const whole = await send("GET", url(withParams ? "title == :p" : `title == "Cosmos"`, s), undefined, undefined, [s]);
      assert.equal(whole.status, !withParams && empty ? 200 : 400, `params=${s}: ${whole.text}`);
      if (whole.status === 400) assert.equal(whole.statements.length, 0);
    }
  }
  // Values of the wrong JSON type for a String parameter: never coerced into SQL.
  for (const v of [1, true, { $ne: null }, { $gt: "" }, ["a", "b"], { toString: "x" }]) {
    await refused(400, "GET", url("title == :p", JSON.stringify({ p: v })));
    await refused(400, "GET", `/jpql?query=${E("SELECT i FROM Item i WHERE i.title = :p")}&params=${E(JSON.stringify({ p: v }))}`);
  }
  // Prototype keys in params bind nothing; a duplicate key is JSON.parse's (the last).
  await refused(400, "GET", url("title == :p", `{"__proto__":{"p":"Cosmos"}}`));
  await refused(400, "GET", url("title == :p", `{"constructor":{"p":"Cosmos"}}`));
  const dup = await ok(url("title == :p", `{"p":"nothing","p":"Cosmos"}`));
  assert.deepEqual(
    dup.body.map((b: any) => b.title),
    ["Cosmos"],
  );
  await assertUnchanged("parameter errors", true);
});

// ---------------------------------------------------------------------------------------------
// Field names
// ---------------------------------------------------------------------------------------------

test("field names in bodies: 422 at the field's JSON pointer, nothing written", async () => {
  const names = [...INJECTIONS, ...SQL_IDENTIFIERS.filter((n) => !n.includes("\u0000")), "Title", "TITLE", "title ", "ISBN", "_id", "id "];
  for (const [i, name] of names.entries()) {
    const [method, path, body, at] = rotate(i, [
      ["POST", BOOK, { title: "field", [name]: 1 }, pointer(name)],
      ["POST", AUTHOR, { name: "field", works: [{ class: `${P}.Book`, title: "w", [name]: "x" }] }, pointer("works", 0, name)],
      ["POST", AUTHOR, { name: "field", address: { street: "s", [name]: "x" } }, pointer("address", name)],
      ["PUT", `${ITEM}/1`, { [name]: "x" }, pointer(name)],
      ["PUT", `${MEMBER}/ada%40example.org`, { name: "Ada", [name]: null }, pointer(name)],
    ] as [string, string, unknown, string][]);
    const r = await refused(422, method, path, body, undefined, [name]);
    assert.ok(
      r.body.errors.some((e: any) => e.path === at && e.message.includes("unknown field")),
      `${method} ${path} with field ${JSON.stringify(name)}: ${r.text}`,
    );
  }
  await assertUnchanged("field names in bodies", true);
});

test("field and class names as query identifiers: SQL names resolve to nothing", async () => {
  for (const [i, id] of SQL_IDENTIFIERS.entries()) {
    const literal = id.startsWith('"'); // a double-quoted "title" is a JDOQL string literal, not a name
    const shapes: [string, string][] = [
      ["filter", `${ITEM}?filter=${E(`${id} == 1`)}`],
      ["this", `${ITEM}?filter=${E(`this.${id} == 1`)}`],
      ["method", `${ITEM}?filter=${E(`title.${id}()`)}`],
      ["navigate", `${ITEM}?filter=${E(`author.${id} == 1`)}`],
      ["select", `/jdoql?query=${E(`SELECT ${id} FROM ${P}.Item`)}`],
      ["order", `/jdoql?query=${E(`SELECT FROM ${P}.Item ORDER BY ${id}`)}`],
      ["from", `/jdoql?query=${E(`SELECT FROM ${id}`)}`],
      ["instanceof", `/jdoql?query=${E(`SELECT FROM ${P}.Item WHERE this instanceof ${id}`)}`],
      ["jpql-path", `/jpql?query=${E(`SELECT b FROM Book b WHERE b.${id} = 1`)}`],
      ["jpql-select", `/jpql?query=${E(`SELECT b.${id} FROM Book b`)}`],
      ["jpql-from", `/jpql?query=${E(`SELECT x FROM ${id} x`)}`],
      ["jpql-order", `/jpql?query=${E(`SELECT b FROM Book b ORDER BY ${id}`)}`],
    ];
    // Each identifier in half of the places, in turn (every place sees half of the identifiers).
    for (const [shape, path] of shapes.filter((_, k) => (k + i) % 2 === 0 || (literal && k >= 4 && k <= 5))) {
      if (literal && (shape === "select" || shape === "order")) {
        const r = await ok(path, [id]);
        if (shape === "select")
          assert.deepEqual(
            r.body,
            items.map(() => "title"),
          );
        else
          assert.deepEqual(
            r.body.map((o: any) => o.id),
            items.map((x) => x.id),
            "ORDER BY a constant keeps the key order",
          );
        continue;
      }
      const r = await refused(400, "GET", path, undefined, undefined, [id]);
      assert.equal(r.statements.length, 0, `${path} ran SQL`);
    }
  }
  // Corpus strings where a class name or a result is expected.
  for (const [i, s] of [...INJECTIONS, ...NUL_INJECTIONS].entries()) {
    const path = rotate(i, [
      `/jdoql?query=${E(`SELECT FROM ${s}`)}`,
      `/jpql?query=${E(`SELECT x FROM ${s} x`)}`,
      `/jdoql?query=${E(`SELECT ${s} FROM ${P}.Item WHERE 1 == 0`)}`,
    ]);
    const r = await send("GET", path, undefined, undefined, [s]);
    if (r.status === 200) {
      // Only a literal can make a query of this: its value is the literal's, never a column's.
      assert.deepEqual(r.body, [], `${path}: ${r.text}`);
      continue;
    }
    assert.equal(r.status, 400, `${path}: ${r.text}`);
    assert.equal(r.statements.length, 0, `${path} ran SQL`);
  }
  await assertUnchanged("query identifiers", true);
});

// ---------------------------------------------------------------------------------------------
// Fetch plans
// ---------------------------------------------------------------------------------------------

test("fetch-group names: an unknown group is a 400 everywhere, and a write is not made", async () => {
  const known = new Set(["all", "withAuthor"]);
  const names = [...INJECTIONS, ...NUL_INJECTIONS, ...SQL_IDENTIFIERS, "hasOwnProperty", "valueOf", "ALL", "Default", "withauthor", "all;", "all--"];
  for (const [i, s] of names.entries()) {
    const groups = s
      .split(",")
      .map((g) => g.trim())
      .filter((g) => g && g !== "default");
    if (groups.every((g) => known.has(g))) continue;
    const fg = E(s);
    const [method, path, body] = rotate(i, [
      ["GET", `${ITEM}/1?fetchGroup=${fg}`],
      ["GET", `${ITEM}?fetch=${fg}`],
      ["GET", `${ITEM}?fetchGroup=all,${fg}`],
      ["GET", `${ITEM}/1?fetchGroup=withAuthor,${fg}`],
      ["GET", `${ITEM}?filter=${E('title == "Cosmos"')}&fetchGroup=${fg}`],
      ["GET", `/jdoql?query=${E(`SELECT FROM ${P}.Item`)}&fetchGroup=${fg}`],
      ["GET", `/jpql?query=${E("SELECT i FROM Item i")}&fetchGroup=${fg}`],
      // Writes with an unknown group are refused before anything is written.
      ["POST", `${BOOK}?fetchGroup=${fg}`, { title: "never written" }],
      ["PUT", `${ITEM}/1?fetchGroup=${fg}`, { title: "never written" }],
    ] as [string, string, unknown?][]);
    const r = await refused(400, method, path, body, undefined, [s]);
    assert.equal(r.body.errors?.[0]?.path, "fetchGroup", r.text);
    assert.equal(r.statements.length, 0, `${method} ${path} ran SQL`);
  }
  await assertUnchanged("fetch groups", true);
});

test("maxFetchDepth: only a positive integer or -1, whatever else it holds", async () => {
  const values = [
    ...INJECTIONS,
    ...NUL_INJECTIONS,
    "1 OR 1=1",
    "1;",
    "1; DROP TABLE ITEM",
    "1--",
    "1/**/",
    "0x1",
    "1e1",
    "1.0",
    "+1",
    "١",
    "１",
    "Infinity",
    "NaN",
    "-0",
    "0",
    "-2",
    "9007199254740993",
    "[1]",
    '{"$gt":0}',
    "",
    " ",
    "1 1",
  ];
  const valid = (v: string) => /^-?\d+$/.test(v.trim()) && (Number(v) === -1 || (Number.isSafeInteger(Number(v)) && Number(v) >= 1));
  for (const [i, v] of values.entries()) {
    assert.ok(!valid(v), v);
    const d = E(v);
    const [method, path, body] = rotate(i, [
      ["GET", `${ITEM}?maxFetchDepth=${d}`],
      ["GET", `${ITEM}/1?maxFetchDepth=${d}`],
      ["GET", `${AUTHOR}/1?fetchGroup=all&maxFetchDepth=${d}`],
      ["GET", `${ITEM}?filter=${E("id > 0")}&maxFetchDepth=${d}`],
      ["GET", `/jdoql?query=${E(`SELECT FROM ${P}.Item`)}&maxFetchDepth=${d}`],
      ["POST", `${BOOK}?maxFetchDepth=${d}`, { title: "never written" }],
      ["PUT", `${ITEM}/1?maxFetchDepth=${d}`, { title: "never written" }],
    ] as [string, string, unknown?][]);
    const r = await refused(400, method, path, body, undefined, [v]);
    assert.equal(r.body.errors?.[0]?.path, "maxFetchDepth", r.text);
    assert.equal(r.statements.length, 0, `${method} ${path} ran SQL`);
  }
  // (control) the valid spellings answer as their number does.
  for (const [v, n] of [
    [" 2 ", "2"],
    ["002", "2"],
    ["-1", "-1"],
  ]) {
    assert.equal((await ok(`${AUTHOR}/1?fetchGroup=all&maxFetchDepth=${E(v!)}`)).text, (await ok(`${AUTHOR}/1?fetchGroup=all&maxFetchDepth=${n}`)).text);
  }
  await assertUnchanged("maxFetchDepth", true);
});

// ---------------------------------------------------------------------------------------------
// JSON bodies
// ---------------------------------------------------------------------------------------------

test("JSON bodies: string values are stored and answered verbatim, and reach SQL only as parameters", async () => {
  for (const { s, i, posts, bookId, authorId, categoryId } of stored) {
    posts.forEach((statements, k) => {
      assert.equal(shapeOf(statements), benignPosts[k], `POST ${k} with ${JSON.stringify(s)}: the SQL text differs from the benign POST's`);
      assert.ok(
        statements.some((st) => st.mode === "write" && st.params.includes(s)),
        `POST ${k}: ${JSON.stringify(s)} bound`,
      );
      for (const st of statements) for (const f of SQL_TEXT_FRAGMENTS) assert.doesNotMatch(st.sql, f);
    });
    if (i % 2 === 0) {
      const book = await ok(`${BOOK}/${bookId}`);
      assert.equal(book.body.class, `${P}.Book`);
      assert.equal(book.body.title, s);
      assert.equal(book.body.isbn, s);
      assert.deepEqual(book.body.tags, [s, `tag${i}`]);
    } else {
      const author = await ok(`${AUTHOR}/${authorId}?fetchGroup=all`);
      assert.equal(author.body.name, s);
      assert.equal(author.body.address.street, s);
      assert.equal(author.body.works[0].title, s);
    }
    // As stored in the database, byte for byte.
    assert.deepEqual(await h.sql(`SELECT i.title, b.isbn FROM "ITEM" i JOIN "BOOK" b ON b.id = i.id WHERE i.id = ?`, [bookId]), [[s, s]]);
    assert.deepEqual(await h.sql(`SELECT name, phones FROM "MEMBER" WHERE email = ?`, [s]), [[s, JSON.stringify({ tel: s })]]);
    assert.deepEqual(await h.sql(`SELECT name FROM "CATEGORY" WHERE id = ? AND kind = ?`, [categoryId, s]), [[s]]);
  }
  await assertUnchanged("stored strings", true);
});

test("JSON bodies: `class` values name a subclass or are refused with 422 at /class", async () => {
  const values: unknown[] = [
    ...INJECTIONS,
    ...NUL_INJECTIONS,
    `${P}.Address`,
    `${P}.Category$Key`,
    `${P}.Author`,
    `${P}.book`,
    `Book`,
    ` ${P}.Book`,
    `${P}.Book `,
    `${P}.Book\u0000`,
    `java.lang.Object`,
    1,
    true,
    {},
    [],
    { $ne: null },
    [`${P}.Book`],
  ];
  for (const [i, v] of values.entries()) {
    const [method, path, body, at] = rotate(i, [
      ["POST", ITEM, { class: v, title: "c" }, pointer("class")],
      ["POST", BOOK, { class: v, title: "c" }, pointer("class")],
      ["POST", AUTHOR, { name: "c", works: [{ class: v, title: "w" }] }, pointer("works", 0, "class")],
      ["POST", SHELF, { label: "c", items: [{ class: v, title: "w" }] }, pointer("items", 0, "class")],
      ["PUT", `${ITEM}/1`, { class: v }, pointer("class")],
    ] as [string, string, unknown, string][]);
    const r = await refused(422, method, path, body, undefined, typeof v === "string" ? [v] : []);
    assert.ok(
      r.body.errors.some((e: any) => e.path === at),
      `${method} ${path} class ${JSON.stringify(v)}: ${r.text}`,
    );
  }
  await assertUnchanged("class values", true);
});

test("JSON bodies: __proto__, constructor and prototype keys are unknown fields, and pollute nothing", async () => {
  const cases: [string, string, string, string][] = [
    ["POST", BOOK, `{"title":"p","__proto__":{"pages":5,"polluted":true}}`, pointer("__proto__")],
    ["POST", ITEM, `{"__proto__":{"class":"${P}.Magazine"},"class":"${P}.Book","title":"p"}`, pointer("__proto__")],
    ["POST", BOOK, `{"title":"p","constructor":{"prototype":{"polluted":true}}}`, pointer("constructor")],
    ["POST", BOOK, `{"title":"p","prototype":{"polluted":true}}`, pointer("prototype")],
    ["POST", AUTHOR, `{"name":"p","works":[{"class":"${P}.Book","__proto__":{"title":"x"}}]}`, pointer("works", 0, "__proto__")],
    ["POST", AUTHOR, `{"name":"p","address":{"street":"s","__proto__":{"city":"x"}}}`, pointer("address", "__proto__")],
    ["POST", AUTHOR, `{"name":"p","address":{"constructor":{"prototype":{"polluted":true}}}}`, pointer("address", "constructor")],
    ["PUT", `${ITEM}/1`, `{"__proto__":{"title":"polluted"}}`, pointer("__proto__")],
    ["PUT", `${MEMBER}/ada%40example.org`, `{"constructor":{"name":"polluted"}}`, pointer("constructor")],
  ];
  for (const [method, path, body, at] of cases) {
    const r = await refused(422, method, path, body);
    assert.ok(
      r.body.errors.some((e: any) => e.path === at),
      `${method} ${path} ${body}: ${r.text}`,
    );
  }
  // In keys: a key object's __proto__ is not a key field.
  await refused(400, "GET", `${CATEGORY}/${E(`{"id":1,"kind":"genre","__proto__":{"id":2}}`)}`);
  await refused(400, "DELETE", CATEGORY, `{"id":1,"kind":"genre","__proto__":{"id":2}}`);
  const inParent = await send("GET", `${CATEGORY}/${E(`{"id":2,"kind":"genre","parent":{"__proto__":{"id":1,"kind":"genre"}}}`)}`);
  assert.equal(inParent.status, 400, inParent.text);
  // Nothing reached Object.prototype.
  const probe = {} as Record<string, unknown>;
  for (const name of ["polluted", "title", "pages", "class", "city", "name", "id"]) assert.equal(probe[name], undefined, `Object.prototype.${name}`);
  await assertUnchanged("prototype keys", true);
});

test("JSON bodies: duplicate keys are read as JSON.parse reads them (the last), in the answer and in the database", async () => {
  const book = await send("POST", BOOK, `{"title":"dup-a","isbn":"i","title":"dup-b"}`);
  assert.equal(book.status, 201, book.text);
  assert.equal(book.body.title, "dup-b");
  assert.deepEqual(await h.sql(`SELECT title FROM "ITEM" WHERE id = ?`, [book.body.id]), [["dup-b"]]);
  const item = await send("POST", ITEM, `{"class":"${P}.Magazine","class":"${P}.Book","title":"dup-c","isbn":"i"}`);
  assert.equal(item.status, 201, item.text);
  assert.equal(item.body.class, `${P}.Book`);
  assert.deepEqual(await h.sql(`SELECT KIND FROM "ITEM" WHERE id = ?`, [item.body.id]), [["BOOK"]]);
  const member = await send("POST", MEMBER, `{"email":"dup1@example.org","name":"d","email":"dup2@example.org"}`);
  assert.equal(member.status, 201, member.text);
  assert.equal(member.body.email, "dup2@example.org");
  assert.deepEqual(await h.sql(`SELECT email FROM "MEMBER" WHERE email LIKE 'dup%' ORDER BY email`), [["dup2@example.org"]]);
  await acceptChanges();
  // In a key: the last kind wins.
  assert.equal((await ok(`${CATEGORY}/${E(`{"id":1,"kind":"nothing","kind":"genre"}`)}`)).body.name, "Fiction");
  await assertUnchanged("duplicate keys", true);
});

test("JSON bodies that are a corpus string: malformed JSON is a 400, a JSON value that is not an object a 422", async () => {
  for (const [i, s] of INJECTIONS.entries()) {
    let parsed: unknown;
    let malformed = false;
    try {
      parsed = JSON.parse(s);
    } catch {
      malformed = true;
    }
    if (i % 2 === 0 && (malformed || parsed === null || typeof parsed !== "object" || Array.isArray(parsed))) {
      const [method, path] = rotate(i / 2, [
        ["POST", BOOK],
        ["PUT", `${ITEM}/1`],
      ]);
      const r = await refused(malformed ? 400 : 422, method!, path!, s, undefined, [s]);
      if (malformed) assert.equal(r.statements.length, 0);
      continue;
    }
    // A value of the wrong type holding the string.
    const [field, at] = rotate(i, [
      ["pages", "/pages"],
      ["price", "/price"],
      ["published", "/published"],
      ["genre", "/genre"],
      ["tags", "/tags"],
    ]);
    const r = await refused(422, "POST", BOOK, { title: "t", [field!]: s }, undefined, [s]);
    assert.ok(
      r.body.errors.some((e: any) => e.path === at),
      `${field} = ${JSON.stringify(s)}: ${r.text}`,
    );
  }
  // A decimal's text out of a double's range is refused like the number itself (it was once stored as NULL).
  for (const v of ["1e309", "-1e309"]) await refused(422, "POST", BOOK, { title: "huge", price: v }, undefined, [v]);
  await assertUnchanged("body strings", true);
});

// ---------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------

test("headers: a content type that is not JSON is a 415; header values change nothing", async () => {
  const notJson = [
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/xml",
    "text/json'; DROP TABLE ITEM; --",
    "application/json'--",
    "application/jsonp",
    "json",
    "application/javascript",
    "*/*",
    "application/*",
    "' OR '1'='1",
    "text/plain; charset=utf-8; x=application/json",
  ];
  const body = { title: "never written" };
  for (const ct of notJson) {
    const r = await refused(415, "POST", BOOK, body, { "content-type": ct }, [ct]);
    assert.equal(r.statements.length, 0);
    await refused(415, "PUT", `${ITEM}/1`, body, { "content-type": ct }, [ct]);
    await refused(415, "DELETE", CATEGORY, { id: 1, kind: "genre" }, { "content-type": ct }, [ct]);
  }
  // JSON media types with hostile parameters are JSON: the write is the benign write's SQL.
  const base = await send("POST", BOOK, { title: "ct-benign" });
  assert.equal(base.status, 201);
  for (const [k, ct] of [
    "application/json; charset=utf-8'; DROP TABLE ITEM; --",
    'application/json; charset="\' OR 1=1 --"',
    "APPLICATION/JSON",
    "application/problem+json",
    "application/x'--+json",
  ].entries()) {
    const r = await send("POST", BOOK, { title: `ct-${k}` }, { "content-type": ct });
    assert.equal(r.status, 201, `${ct}: ${r.text}`);
    assert.equal(r.shape, base.shape);
  }
  await acceptChanges();

  // Other headers with corpus values (those a header can carry) leave a read as it was.
  const plain = await ok(`${ITEM}/1`);
  const headerSafe = [...INJECTIONS].filter((s) => /^[\x20-\x7e\t]*$/.test(s) && s.trim() === s && s.length > 0);
  for (const s of headerSafe) {
    const headers = {
      accept: s,
      "accept-language": s,
      authorization: `Bearer ${s}`,
      cookie: s,
      "x-forwarded-for": s,
      "x-forwarded-host": s,
      "x-request-id": s,
      origin: s,
      referer: s,
      "user-agent": s,
      range: s,
      "x-http-method-override": "DELETE",
      "x-method-override": "PUT",
    };
    const r = await send("GET", `${ITEM}/1`, undefined, headers);
    assert.equal(r.status, 200);
    assert.equal(r.text, plain.text);
    assert.equal(r.shape, plain.shape);
  }
  // A method override header is not a method: a GET deletes nothing.
  assert.equal((await send("GET", CATEGORY, undefined, { "x-http-method-override": "DELETE" })).status, 200);
  assert.equal((await refused(400, "GET", `${ITEM}/1?fetchGroup=nothing`, undefined, { "x-http-method-override": "DELETE" })).statements.length, 0);
  await assertUnchanged("headers", true);
});

// ---------------------------------------------------------------------------------------------
// U+0000
// ---------------------------------------------------------------------------------------------

test("U+0000: refused in bodies and keys (422/400), and in query literals and parameters (400: no stored text holds it)", async () => {
  for (const s of NUL_INJECTIONS) {
    const r = await refused(422, "POST", BOOK, { title: s }, undefined, [s]);
    assert.deepEqual(
      r.body.errors.map((e: any) => e.path),
      ["/title"],
    );
    await refused(422, "POST", MEMBER, { email: s }, undefined, [s]);
    await refused(400, "GET", `${MEMBER}/${E(s)}`, undefined, undefined, [s]);
    const filter = (f: string) => `${ITEM}?filter=${E(f)}`;
    for (const f of [
      `title == ${jdoqlDouble(s)}`,
      `title == ${jdoqlUnicode(s)}`,
      `title.startsWith(${jdoqlDouble(s)})`,
      `title.indexOf(${jdoqlDouble(s)}) >= 0`,
      `tags.contains(${jdoqlDouble(s)})`,
    ]) {
      await refused(400, "GET", filter(f), undefined, undefined, [s, f]);
    }
    await refused(400, "GET", `${ITEM}?filter=${E("title == :p")}&params=${E(JSON.stringify({ p: s }))}`, undefined, undefined, [s]);
    await refused(400, "GET", `/jpql?query=${E(`SELECT i.id FROM Item i WHERE i.title = ${jpql(s)}`)}`, undefined, undefined, [s]);
  }
  await assertUnchanged("NUL", true);
});

// ---------------------------------------------------------------------------------------------
// Bugs found, kept as todo tests (each names the bug; the suite stays green)
// ---------------------------------------------------------------------------------------------

test("a String key that reads as a JSON object, or is '..': its Location addresses it", async () => {
  for (const { s, memberLocation } of stored.filter((x) => looksLikeJsonObject(x.s))) {
    const r = await send("GET", memberLocation);
    assert.equal(r.status, 200, `${memberLocation}: ${r.text}`);
    assert.equal(r.body.email, s, `GET ${memberLocation} (the Location of member ${JSON.stringify(s)}) answered member ${JSON.stringify(r.body.email)}`);
  }
  const dots = await send("POST", MEMBER, { email: "..", name: "dots" });
  assert.equal(dots.status, 201);
  await acceptChanges();
  const r = await send("GET", dots.headers.get("location")!);
  assert.equal(r.body?.email, "..", `GET ${dots.headers.get("location")}: ${r.text}`);
});

test("a map key __proto__ is stored like any other key", async () => {
  const r = await send("POST", MEMBER, `{"email":"proto-map@example.org","phones":{"__proto__":"+1 555","home":"+1 556"}}`);
  await acceptChanges();
  assert.ok(r.status === 201 || r.status === 422, r.text);
  if (r.status === 201) assert.deepEqual(JSON.parse(r.text).phones, JSON.parse(`{"__proto__":"+1 555","home":"+1 556"}`));
});

test("a parameter named after an Object.prototype member, left unbound, is a 400 'not bound'", async (t) => {
  const log = console.error;
  console.error = () => {}; // the 500s this bug causes are logged with their stack
  t.after(() => void (console.error = log));
  for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"]) {
    for (const path of [
      `/jdoql?query=${E(`SELECT :${name} FROM ${P}.Item`)}&params=%7B%7D`,
      `/jdoql?query=${E(`SELECT FROM ${P}.Item WHERE :${name} == null`)}&params=%7B%7D`,
      `${ITEM}?filter=${E(`title == :${name}`)}&params=%7B%7D`,
    ]) {
      const r = await h.get(path);
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.match(r.body.detail, /not bound/, `${path}: ${r.text}`);
    }
  }
});

test("a one-character string for a numeric parameter is a 400", async () => {
  for (const s of ["5", ";", "'"]) {
    const r = await h.get(`${BOOK}?filter=${E("pages < :n")}&params=${E(JSON.stringify({ n: s }))}`);
    assert.equal(r.status, 400, `n=${JSON.stringify(s)}: ${r.status} ${r.text.slice(0, 200)}`);
  }
});

test("U+0000 in a query literal or parameter is a 400 (no stored text holds it, and SQLite's patterns stop at it)", async () => {
  for (const f of [
    `title.endsWith("\\u0000")`,
    `title.endsWith("\\u0000' OR '1'='1")`,
    `title.matches(".*\\u0000.*")`,
    `title.matches("Cos.*\\u0000")`,
    'title.endsWith("\u0000")',
  ]) {
    const r = await h.get(`${ITEM}?filter=${E(f)}`);
    assert.equal(r.status, 400, `${f}: ${r.text}`);
    assert.match(r.body.detail, /U\+0000/);
  }
  const like = await h.get(`/jpql?query=${E("SELECT i.title FROM Item i WHERE i.title LIKE :p")}&params=${E(JSON.stringify({ p: "Cos%\u0000" }))}`);
  assert.equal(like.status, 400);
  assert.match(like.body.detail, /parameter p .*U\+0000/);
  const jpqlLiteral = await h.get(`/jpql?query=${E("SELECT i.title FROM Item i WHERE i.title LIKE 'Cos%\u0000'")}`);
  assert.equal(jpqlLiteral.status, 400);
});

test("a lone surrogate in a body is refused or kept", async () => {
  const r = await send("POST", BOOK, { title: "lone \ud800 surrogate" });
  await acceptChanges();
  assert.ok(r.status === 422 || r.body.title === "lone \ud800 surrogate", `stored as ${JSON.stringify(r.body?.title)}`);
});

test("a key object's errors point at the member with an RFC 6901 pointer", async () => {
  for (const name of ["a/b", "a~b", "../../etc/passwd"]) {
    const r = await h.get(`${CATEGORY}/${E(JSON.stringify({ id: 1, kind: "genre", [name]: 1 }))}`);
    assert.equal(r.status, 400);
    assert.deepEqual(
      r.body.errors.map((e: any) => e.path),
      [pointer(name)],
    );
  }
});
