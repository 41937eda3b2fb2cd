/**
 * The hand-written baseline: for each benchmark operation, the SQL a person who knows the schema
 * would write for the same request, on the `libsql` binding Extent runs embedded files on, with
 * the answer built the simplest way: SQLite's JSON functions for objects (hand-sql.ts),
 * JSON.stringify for the rows of the JPQL projection, the POST's answer from its body and the
 * keys it took. No model, no query language: each route knows its one request.
 * The floors (floor-server.ts) run Extent's own statements, so they cannot see a plan worse than
 * it could be; this one can. bench.ts checks that it answers what Extent answers.
 *
 *   EXTENT_BENCH_DB=file:... PORT=... node --import tsx test/bench/hand-server.ts
 */
import { Hono } from "hono";
import { serve } from "../../src/runtime/serve.ts";
import { HAND_SQL } from "./hand-sql.ts";

const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };
const db = new Database(process.env.EXTENT_BENCH_DB!.replace(/^file:/, ""));
db.exec("PRAGMA busy_timeout = 5000");

const prepare = (text: string) => db.prepare(text);
const statements = Object.fromEntries(Object.entries(HAND_SQL).map(([name, text]) => [name, prepare(text)])) as Record<keyof typeof HAND_SQL, any>;

const answer = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
const text = (stmt: any, ...args: unknown[]) => stmt.raw(true).get(args)?.[0] as string | undefined;

/** Runs `work` in one write transaction. */
function writing<T>(work: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const out = work();
    db.exec("COMMIT");
    return out;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

const app = new Hono().basePath("/api");

app.get("/bench.Book/:id", (c) => {
  const found = text(c.req.query("fetchGroup") === "all" ? statements.book : statements.bookDefault, Number(c.req.param("id")));
  return found ? answer(found) : answer('{"status":404}', 404);
});

app.get("/bench.Publisher", (c) => answer(text(c.req.query("maxFetchDepth") === "2" ? statements.publishersDepth2 : statements.publishersDepth1)!));

app.put("/bench.Book/:id", async (c) => {
  const id = Number(c.req.param("id"));
  const { price } = (await c.req.json()) as { price: number };
  const found = writing(() => (statements.updatePrice.run([price, id]).changes ? text(statements.book, id) : undefined));
  return found ? answer(found) : answer('{"status":404}', 404);
});

// This route answers the one filter the benchmark sends: `author.name == '<name>'`.
app.get("/bench.Book", (c) => {
  const name = /^author\.name == '(.*)'$/.exec(c.req.query("filter") ?? "")?.[1];
  return name === undefined ? answer('{"status":400}', 400) : answer(text(statements.booksByAuthorName, name)!);
});

// `SELECT FROM bench.Book WHERE price > 20 ORDER BY title RANGE 0, 20`
app.get("/jdoql", () => answer(text(statements.booksByPrice, 20, 20)!));

// `SELECT a.name, COUNT(w), AVG(w.price) FROM Author a JOIN a.works w WHERE a.born < 1910 GROUP BY a.name ORDER BY a.name`
app.get("/jpql", () => answer(JSON.stringify(statements.worksByAuthor.raw(true).all([1910]))));

app.post("/bench.Author", async (c) => {
  const body = (await c.req.json()) as { name: string; born: number; works: { title: string; price: number; pages: number }[] };
  const created = writing(() => {
    const reserve = (name: string, n: number) => (statements.reserve.raw(true).get([n, name])[0] as number) - n;
    const id = reserve("bench.Author", 1);
    const first = reserve("bench.Item", body.works.length);
    statements.insertAuthor.run([id, body.name, body.born]);
    body.works.forEach((w, i) => {
      statements.insertItem.run([first + i, w.title, w.price, id]);
      statements.insertBook.run([first + i, w.pages]);
    });
    return { id, first };
  });
  const author = { class: "bench.Author", id: created.id };
  const works = body.works.map((w, i) => ({ class: "bench.Book", id: created.first + i, title: w.title, price: w.price, author, pages: w.pages }));
  return answer(JSON.stringify({ ...author, name: body.name, born: body.born, works }), 201, { location: `/api/bench.Author/${created.id}` });
});

const served = await serve(app.fetch, Number(process.env.PORT ?? 8091), "127.0.0.1");
console.log(`hand-written SQL at ${served.url}/api (${served.runtime})`);
