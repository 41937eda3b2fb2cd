/**
 * The hand-written baseline: for each benchmark operation, the SQL a person who knows the schema
 * would write for the same request, on the `libsql` binding Extent runs embedded files on, with
 * the answer built the simplest way: SQLite's JSON functions for objects (json_object,
 * json_group_array), JSON.stringify for the rows of the JPQL projection, the POST's answer from
 * its body and the keys it took. No model, no query language: each route knows its one request.
 * The floors (floor-server.ts) run Extent's own statements, so they cannot see a plan worse than
 * it could be; this one can. bench.ts checks that it answers what Extent answers.
 *
 *   EXTENT_BENCH_DB=file:... PORT=... node --import tsx test/bench/hand-server.ts
 */
import { Hono } from "hono";
import { serve } from "../../src/runtime/serve.ts";

const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };
const db = new Database(process.env.EXTENT_BENCH_DB!.replace(/^file:/, ""));
db.exec("PRAGMA busy_timeout = 5000");

const CLASS_OF_KIND = `CASE w.KIND WHEN 'BOOK' THEN 'bench.Book' WHEN 'MAGAZINE' THEN 'bench.Magazine' ELSE 'bench.Item' END`;
const identity = (cls: string, column: string) => `CASE WHEN ${column} IS NULL THEN NULL ELSE json_object('class', '${cls}', 'id', ${column}) END`;
/** An author in full, its works as identities in key order. */
const authorInFull = (key: string) =>
  `(SELECT json_object('class', 'bench.Author', 'id', a.id, 'name', a.name, 'born', a.born, 'works',
     (SELECT json_group_array(json_object('class', ${CLASS_OF_KIND}, 'id', w.id)) FROM (SELECT id, KIND FROM ITEM WHERE author = a.id ORDER BY id) w))
   FROM AUTHOR a WHERE a.id = ${key})`;
/** A book with the fetch plan `all` (its author in full), or the default (its author's identity). */
const book = (author: string) => `json_object('class', 'bench.Book', 'id', i.id, 'title', i.title, 'price', i.price, 'author', ${author}, 'pages', b.pages)`;
const array = (select: string) => `SELECT '[' || coalesce(group_concat(j, ','), '') || ']' FROM (${select})`;

const statements = {
  book: db.prepare(`SELECT ${book(authorInFull("i.author"))} FROM ITEM i JOIN BOOK b ON b.id = i.id WHERE i.id = ? AND i.KIND = 'BOOK'`),
  publishers: (depth: 1 | 2) =>
    db.prepare(
      array(`SELECT json_object('class', 'bench.Publisher', 'id', p.id, 'name', p.name, 'city', p.city, 'editors',
        (SELECT json_group_array(json_object('class', 'bench.Editor', 'id', e.id, 'name', e.name, 'publisher', ${identity("bench.Publisher", "e.publisher")},
           'favourite', ${depth === 2 ? authorInFull("e.favourite") : identity("bench.Author", "e.favourite")}))
         FROM (SELECT * FROM EDITOR WHERE publisher = p.id ORDER BY id) e)) AS j
      FROM PUBLISHER p ORDER BY p.id`),
    ),
  updatePrice: db.prepare(`UPDATE ITEM SET price = ? WHERE id = ? AND KIND = 'BOOK'`),
  booksByAuthorName: db.prepare(
    array(`SELECT ${book(identity("bench.Author", "i.author"))} AS j FROM ITEM i JOIN BOOK b ON b.id = i.id
      WHERE i.KIND = 'BOOK' AND i.author IN (SELECT id FROM AUTHOR WHERE name = ?) ORDER BY i.id`),
  ),
  booksByPrice: db.prepare(
    array(`SELECT ${book(identity("bench.Author", "i.author"))} AS j FROM ITEM i JOIN BOOK b ON b.id = i.id
      WHERE i.KIND = 'BOOK' AND i.price > ? ORDER BY i.title, i.id LIMIT ?`),
  ),
  worksByAuthor: db.prepare(
    `SELECT a.name, COUNT(w.id), AVG(w.price) FROM AUTHOR a JOIN ITEM w ON w.author = a.id WHERE a.born < ? GROUP BY a.name ORDER BY a.name`,
  ),
  reserve: db.prepare(`UPDATE extent_sequence SET next_value = next_value + ? WHERE name = ? RETURNING next_value`),
  insertAuthor: db.prepare(`INSERT INTO AUTHOR (id, name, born) VALUES (?, ?, ?)`),
  insertItem: db.prepare(`INSERT INTO ITEM (id, KIND, title, price, author) VALUES (?, 'BOOK', ?, ?, ?)`),
  insertBook: db.prepare(`INSERT INTO BOOK (id, pages) VALUES (?, ?)`),
};
const depth1 = statements.publishers(1);
const depth2 = statements.publishers(2);

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
  const found = text(statements.book, Number(c.req.param("id")));
  return found ? answer(found) : answer('{"status":404}', 404);
});

app.get("/bench.Publisher", (c) => answer(text(c.req.query("maxFetchDepth") === "2" ? depth2 : depth1)!));

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
