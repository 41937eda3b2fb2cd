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
import { type Captured, type Results, type Run, floorApp } from "./floor-app.ts";
import { serve } from "../../src/runtime/serve.ts";

const captured: Record<string, Captured> = JSON.parse(readFileSync(process.env.EXTENT_BENCH_SQL!, "utf8"));

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
const app = floorApp(run);
const served = await serve(app.fetch, Number(process.env.PORT ?? 8090), "127.0.0.1");
console.log(`floor at ${served.url}/api (${served.runtime})`);
// A normal exit when the bench stops it, so that `--cpu-prof` (bench --profile) writes its profile.
process.once("SIGTERM", () => process.exit(0));
