/**
 * The floor: a hand-written Hono + libSQL server that answers each benchmark operation
 * with exactly the SQL statements Extent runs for it (captured from Extent at the start of the
 * run, so the two can never drift apart), bound from the request by hand, one batch per request
 * like Extent, and the answer made from the rows by hand: Extent's reads write their JSON in SQL
 * (src/read/json-select.ts), so the floor joins the texts of the rows, and the JPQL projection's
 * one row is its answer's text. The ratio Extent / floor is then Extent's own overhead: routing, reading the
 * request against its model, parsing queries, planning, binding.
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
  /** `oneRow`: Extent knows the statement answers one row at most (it then fetches that row alone). */
  statements: { sql: string; params: unknown[]; oneRow?: boolean }[];
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
    const results: ResultSet[] = await client.batch(
      c.statements.map((s, i) => ({ sql: s.sql, args: (params ? params(i, s.params) : s.params) as InValue[] })),
      c.mode,
    );
    return results as unknown as Results;
  };
}

/**
 * EXTENT_FLOOR_DRIVER=native: the `libsql` binding itself, as Extent runs embedded files: each
 * statement prepared once and known as a read or a write once (the binding's `reader` asks SQLite
 * for the columns at every call, about 5 µs), rows as arrays, a statement of one row at most
 * fetched with `get` (the binding's `all` goes through its row iterator, about 13 µs more for one
 * row), BEGIN … COMMIT around a request's statements.
 */
async function nativeDriver(): Promise<Run> {
  const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };
  const db = new Database(process.env.EXTENT_BENCH_DB!.replace(/^file:/, ""));
  db.exec("PRAGMA busy_timeout = 5000");
  const prepared = new Map<string, { stmt: any; reader: boolean }>();
  const execute = (s: Captured["statements"][number], args: unknown[]) => {
    let p = prepared.get(s.sql);
    if (!p) {
      const stmt = db.prepare(s.sql);
      prepared.set(s.sql, (p = { stmt: stmt.reader ? stmt.raw(true) : stmt, reader: stmt.reader }));
    }
    if (!p.reader) return (p.stmt.run(args), { rows: [] });
    if (!s.oneRow) return { rows: p.stmt.all(args) };
    const row = p.stmt.get(args);
    return { rows: row ? [row] : [] };
  };
  return async (op, params) => {
    const c = captured[op]!;
    // As Extent's store: one read statement runs on its own, without a transaction.
    if (c.mode === "read" && c.statements.length === 1)
      return [execute(c.statements[0]!, params ? params(0, c.statements[0]!.params) : c.statements[0]!.params)];
    db.exec(c.mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN");
    try {
      const out = c.statements.map((s, i) => execute(s, params ? params(i, s.params) : s.params));
      db.exec("COMMIT");
      return out;
    } catch (error) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };
}

const run: Run = await (process.env.EXTENT_FLOOR_DRIVER === "native" ? nativeDriver() : clientDriver());
const answer = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

// Extent's reads are JSON selects: each row is [json, version, class, key...], the object's JSON
// text written by SQLite (null for a row of a class outside the model). The floor answers the text.
const texts = (rows: Row[]) => rows.flatMap((r) => (r[0] === null ? [] : [r[0] as string]));
const array = (rows: Row[]) => `[${texts(rows).join(",")}]`;
const rowsOf = (results: Results, i = results.length - 1) => results[i]!.rows as unknown as Row[];

const app = new Hono().basePath("/api");

app.get("/bench.Book/:id", async (c) => {
  const keys = Number(c.req.param("id"));
  const op = c.req.query("fetchGroup") === "all" ? "get by key (+to-one)" : "get by key (default)";
  const [book] = texts(rowsOf(await run(op, () => [keys])));
  return book ? answer(book) : answer('{"status":404}', 404);
});

app.get("/bench.Publisher", async (c) => {
  const op = c.req.query("maxFetchDepth") === "2" ? "extent of 100, depth 2" : "extent of 100, depth 1";
  return answer(array(rowsOf(await run(op))));
});

app.post("/bench.Author", async (c) => {
  const body = (await c.req.json()) as { name: string; born: number; works: { title: string; price: number; pages: number }[] };
  // Statements: two sequence reservations, the author, the works' ITEM rows and their BOOK rows
  // (one INSERT of as many rows as the bench's body has works), the read-back.
  const results = await run("POST a graph (1+5)", (i, p) => {
    if (i === 2) return [...p.slice(0, 3), body.name, body.born];
    if (i !== 3 && i !== 4) return p;
    const width = p.length / body.works.length;
    return body.works.flatMap((work, w) => {
      const row = p.slice(w * width, (w + 1) * width);
      return i === 3 ? [...row.slice(0, 4), work.title, work.price, ...row.slice(6)] : [...row.slice(0, 3), work.pages];
    });
  });
  const row = rowsOf(results)[0]!;
  return answer(row[0] as string, 201, { location: `/api/bench.Author/${row[3]}` });
});

app.put("/bench.Book/:id", async (c) => {
  const id = Number(c.req.param("id"));
  const body = (await c.req.json()) as { price: number };
  // Statements: the UPDATE (price, id, class), then the read-back (id), which finds no Book when there is none.
  const [book] = texts(rowsOf(await run("PUT partial update", (i, p) => (i === 0 ? [body.price, id, p[2]] : [id]))));
  return book ? answer(book) : answer('{"status":404}', 404);
});

app.get("/bench.Book", async () => answer(array(rowsOf(await run("filter with navigation")))));
app.get("/jdoql", async () => answer(array(rowsOf(await run("JDOQL ORDER BY + RANGE")))));
// A projection of values: one row, its JSON written by SQLite (src/query/sql/projection-json.ts).
app.get("/jpql", async () => answer(`[${(rowsOf(await run("JPQL join + aggregate"))[0]![0] as string | null) ?? ""}]`));

const served = await serve(app.fetch, Number(process.env.PORT ?? 8090), "127.0.0.1");
console.log(`floor at ${served.url}/api (${served.runtime})`);
// A normal exit when the bench stops it, so that `--cpu-prof` (bench --profile) writes its profile.
process.once("SIGTERM", () => process.exit(0));
