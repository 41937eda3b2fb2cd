/**
 * The floor's routes (test/bench/floor-server.ts serves them): each benchmark operation answered
 * with the statements Extent runs for it, bound from the request by hand, and the answer made from
 * the rows by hand. Apart from its drivers so that test/bench/js-ab.ts can time this JavaScript
 * in-process, over answers replayed, as it times Extent's.
 */
import { Hono } from "hono";

export interface Captured {
  mode: "read" | "write";
  /** `oneRow`: Extent knows the statement answers one row at most (it then fetches that row alone). */
  statements: { sql: string; params: unknown[]; oneRow?: boolean }[];
}

export type Row = unknown[];
export type Results = { rows: Row[] }[];
export type Run = (op: string, params?: (i: number, captured: unknown[]) => unknown[]) => Promise<Results>;

/** The floor's app under /api, its statements run by `run`. */
export function floorApp(run: Run): Hono {
  const answer = (body: string, status = 200, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

  // Extent's reads are JSON selects: each row is [json, version, class, key...], the object's JSON
  // text written by SQLite (null for a row of a class outside the model), or one row whose text is
  // the whole array. The floor answers the text.
  const texts = (rows: Row[]) => rows.flatMap((r) => (r[0] === null ? [] : [r[0] as string]));
  // An array statement's one row is the whole array as SQL wrote it (an object's text starts with `{`).
  const array = (rows: Row[]) => {
    const all = texts(rows);
    return all.length === 1 && all[0]!.startsWith("[") ? all[0]! : `[${all.join(",")}]`;
  };
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
  // A projection of values: one row, the whole array written by SQLite (src/query/sql/projection-json.ts).
  app.get("/jpql", async () => answer(rowsOf(await run("JPQL join + aggregate"))[0]![0] as string));
  return app;
}
