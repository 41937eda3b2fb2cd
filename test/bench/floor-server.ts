/**
 * The floor: a hand-written Hono + libSQL server that answers each benchmark operation
 * with exactly the SQL statements Extent runs for it (captured from Extent at the start of the
 * run, so the two can never drift apart), bound from the request by hand, one batch per request
 * like Extent, and rows turned into the same JSON by hand. The ratio Extent / floor is then
 * Extent's own overhead: routing its model, parsing queries, planning, assembling objects.
 *
 * Two drivers: @libsql/client (the floor the issue names), and the `libsql` binding that Extent
 * itself runs embedded files on (EXTENT_FLOOR_DRIVER=native), the strict measure of Extent's own
 * overhead.
 *
 *   EXTENT_BENCH_DB=file:... EXTENT_BENCH_SQL=captured.json PORT=... node --import tsx test/bench/floor-server.ts
 */
import { readFileSync } from "node:fs";
import { createClient, type InValue, type ResultSet } from "@libsql/client";
import { Hono } from "hono";
import { serve } from "../../src/runtime/serve.ts";

export interface Captured {
  mode: "read" | "write";
  statements: { sql: string; params: unknown[] }[];
}

const captured: Record<string, Captured> = JSON.parse(readFileSync(process.env.EXTENT_BENCH_SQL!, "utf8"));

type Row = unknown[];
type Results = { rows: Row[] }[];
type Run = (op: string, params?: (i: number, captured: unknown[]) => unknown[]) => Promise<Results>;

/** EXTENT_FLOOR_DRIVER=client (default): @libsql/client, one `batch` per request. */
async function clientDriver(): Promise<Run> {
  const client = createClient({ url: process.env.EXTENT_BENCH_DB! });
  // As Extent opens an embedded file: WAL (already the file's mode), and waiting on another writer.
  await client.execute("PRAGMA busy_timeout = 5000");
  return async (op, params) => {
    const c = captured[op]!;
    const results: ResultSet[] = await client.batch(c.statements.map((s, i) => ({ sql: s.sql, args: (params ? params(i, s.params) : s.params) as InValue[] })), c.mode);
    return results as unknown as Results;
  };
}

/**
 * EXTENT_FLOOR_DRIVER=native: the `libsql` binding itself, as Extent runs embedded files: each
 * statement prepared once, rows as arrays, BEGIN … COMMIT around a request's statements.
 */
async function nativeDriver(): Promise<Run> {
  const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };
  const db = new Database(process.env.EXTENT_BENCH_DB!.replace(/^file:/, ""));
  db.exec("PRAGMA busy_timeout = 5000");
  const prepared = new Map<string, any>();
  return async (op, params) => {
    const c = captured[op]!;
    db.exec(c.mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN");
    try {
      const out = c.statements.map((s, i) => {
        let stmt = prepared.get(s.sql);
        if (!stmt) prepared.set(s.sql, (stmt = db.prepare(s.sql)));
        const args = params ? params(i, s.params) : s.params;
        return stmt.reader ? { rows: stmt.raw(true).all(args) } : (stmt.run(args), { rows: [] });
      });
      db.exec("COMMIT");
      return out;
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };
}

const run: Run = await (process.env.EXTENT_FLOOR_DRIVER === "native" ? nativeDriver() : clientDriver());
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

const ITEM_CLASS: Record<string, string> = { BOOK: "bench.Book", MAGAZINE: "bench.Magazine" };
const ref = (cls: string, id: unknown) => (id == null ? null : { class: cls, id });
/** ITEM t0 LEFT JOIN BOOK t1: id, KIND, title, price, author, pages[, issue]. */
const item = (r: Row) => {
  const cls = ITEM_CLASS[r[1] as string]!;
  const out: Record<string, unknown> = { class: cls, id: r[0], title: r[2], price: r[3], author: ref("bench.Author", r[4]) };
  if (cls === "bench.Book") out.pages = r[5];
  else out.issue = r[6];
  return out;
};
const author = (r: Row, works: unknown[]) => ({ class: "bench.Author", id: r[0], name: r[1], born: r[2], works });
const byKey = <T>(rows: Row[], column: number, map: (r: Row) => T) => {
  const out = new Map<unknown, T[]>();
  for (const r of rows) out.set(r[column], [...(out.get(r[column]) ?? []), map(r)]);
  return out;
};
/** A work beyond the fetch depth: a reference carrying its class. */
const workRef = (r: Row) => ({ class: ITEM_CLASS[r[1] as string]!, id: r[0] });

/** A book with its author (depth 1) and the author's works as references: GET by key, and PUT's answer. */
function bookWithAuthor([books, authors, works]: Results) {
  const b = books!.rows[0];
  if (!b) return undefined;
  const out = item(b as unknown as Row);
  const a = authors!.rows[0] as unknown as Row | undefined;
  out.author = a ? author(a, (works!.rows as unknown as Row[]).map(workRef)) : null;
  return out;
}

const app = new Hono().basePath("/api");

app.get("/bench.Book/:id", async (c) => {
  const keys = JSON.stringify([Number(c.req.param("id"))]);
  const book = bookWithAuthor(await run("get by key (+to-one)", () => [keys]));
  return book ? json(book) : json({ status: 404 }, 404);
});

app.get("/bench.Publisher", async (c) => {
  const depth = c.req.query("maxFetchDepth");
  const results = await run(depth === "2" ? "extent of 100, depth 2" : "extent of 100, depth 1");
  const [publishers, editors] = results as [Results[0], Results[0]];
  let favourite = (id: unknown) => ref("bench.Author", id) as unknown;
  if (depth === "2") {
    // Level 2: each editor's favourite author in full, its works as references (statement 6
    // reads them as id, KIND, author). Statements 3 and 4 load the editors' publishers again,
    // which the answer shows as references.
    const works = byKey(results[5]!.rows as unknown as Row[], 2, workRef);
    const authors = new Map((results[4]!.rows as unknown as Row[]).map((r) => [r[0], author(r, works.get(r[0]) ?? [])]));
    favourite = (id) => (id == null ? null : authors.get(id) ?? null);
  }
  const byPublisher = byKey(editors.rows as unknown as Row[], 2, (r) => ({ class: "bench.Editor", id: r[0], name: r[1], publisher: ref("bench.Publisher", r[2]), favourite: favourite(r[3]) }));
  return json((publishers.rows as unknown as Row[]).map((r) => ({ class: "bench.Publisher", id: r[0], name: r[1], city: r[2], editors: byPublisher.get(r[0]) ?? [] })));
});

app.post("/bench.Author", async (c) => {
  const body = (await c.req.json()) as { name: string; born: number; works: { title: string; price: number; pages: number }[] };
  // Statements: two sequence reservations, the author, each work's ITEM and BOOK rows, the read-back.
  const results = await run("POST a graph (1+5)", (i, p) => {
    if (i === 2) return [...p.slice(0, 3), body.name, body.born];
    const w = Math.floor((i - 3) / 2);
    if (i >= 3 && w < body.works.length) {
      const work = body.works[w]!;
      return (i - 3) % 2 === 0 ? [...p.slice(0, 4), work.title, work.price, ...p.slice(6)] : [...p.slice(0, 3), work.pages];
    }
    return p;
  });
  const [a, works] = results.slice(-2) as [Results[0], Results[0]];
  const row = a.rows[0] as unknown as Row;
  const created = author(row, (works.rows as unknown as Row[]).map(item));
  return json(created, 201, { location: `/api/bench.Author/${row[0]}` });
});

app.put("/bench.Book/:id", async (c) => {
  const id = Number(c.req.param("id"));
  const body = (await c.req.json()) as { price: number };
  // Statements: the guard (id, class), the UPDATE (price, id), then the read-back of GET by key.
  let results: Results;
  try {
    results = await run("PUT partial update", (i, p) => (i === 0 ? [id, p[1]] : i === 1 ? [body.price, id] : [id]));
  } catch {
    return json({ status: 404 }, 404);
  }
  return json(bookWithAuthor(results.slice(2)));
});

app.get("/bench.Book", async () => json(((await run("filter with navigation"))[0]!.rows as unknown as Row[]).map(item)));
app.get("/jdoql", async () => json(((await run("JDOQL ORDER BY + RANGE"))[0]!.rows as unknown as Row[]).map(item)));
app.get("/jpql", async () => json(((await run("JPQL join + aggregate"))[0]!.rows as unknown as Row[]).map((r) => Array.from(r as unknown as ArrayLike<unknown>))));

const served = await serve(app.fetch, Number(process.env.PORT ?? 8090), "127.0.0.1");
console.log(`floor at ${served.url}/api (${served.runtime})`);
