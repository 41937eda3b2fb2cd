/**
 * The conformance script: one sequence of HTTP requests on the seeded sample model, covering
 * reads and writes of every identity kind (datastore, single-field, composite, generated UUID),
 * JDOQL, JPQL, filters and the errors a client can cause. Each step says the status it must get
 * and what it may cost the store; the recorded answers must also be equal on every runtime.
 */
import { parseJson } from "../../src/json/exact.ts";

const q = (text: string) => encodeURIComponent(text);
const categoryKey = (id: number, parent?: number) => q(JSON.stringify({ id, kind: "genre", ...(parent ? { parent: { id: parent, kind: "genre" } } : {}) }));

export interface Step {
  method: string;
  path: string;
  body?: unknown;
  /** A body sent as is (malformed JSON). */
  raw?: string;
  status: number;
  /** Store round trips the request takes: reads one, writes one batch after at most one lookup. */
  roundTrips: number;
}

const read = (path: string, status = 200, roundTrips = 1): Step => ({ method: "GET", path, status, roundTrips });
const LONG_MAX = "9223372036854775807";

export const SCRIPT: Step[] = [
  // Reads: extents with relations, each identity kind by key, fetch plans.
  { method: "GET", path: "/", status: 200, roundTrips: 0 },
  read("/org.extent.sample.Item"),
  read("/org.extent.sample.Book?fetchGroup=all&maxFetchDepth=2"),
  read("/org.extent.sample.Author/1?fetchGroup=all"),
  read("/org.extent.sample.Item/1?fetchGroup=withAuthor"),
  read(`/org.extent.sample.Category/${categoryKey(2, 1)}`),
  read("/org.extent.sample.Member/ada@example.org?fetchGroup=all"),
  // Queries: a filter with navigation, JDOQL, JPQL (a join, an aggregate, two columns of one name).
  read("/org.extent.sample.Book?filter=" + q("author.name == 'Carl Sagan' || pages > 300")),
  read("/jdoql?query=" + q("SELECT FROM org.extent.sample.Book WHERE price < 10 ORDER BY title RANGE 0, 5")),
  read(
    "/jdoql?query=" +
      q("SELECT title, price FROM org.extent.sample.Item WHERE author.name.startsWith(:p) ORDER BY title") +
      "&params=" +
      q(JSON.stringify({ p: "Ursula" })),
  ),
  read("/jpql?query=" + q("SELECT a.name, COUNT(w) FROM Author a JOIN a.works w GROUP BY a.name ORDER BY a.name")),
  read("/jpql?query=" + q("SELECT b.title, m.title FROM Book b, Magazine m ORDER BY b.title")),
  read("/jpql?query=" + q("SELECT i FROM Item i WHERE TYPE(i) = Magazine")),
  // Writes: a graph with a datastore identity root, single-field, composite and generated keys.
  {
    method: "POST",
    path: "/org.extent.sample.Author",
    body: {
      name: "Stanisław Lem",
      born: "1921-09-12",
      address: { city: "Kraków" },
      works: [{ class: "org.extent.sample.Book", title: "Solaris", genre: "FICTION", pages: 204 }],
    },
    status: 201,
    roundTrips: 1,
  },
  { method: "POST", path: "/org.extent.sample.Magazine", body: { title: "New Scientist", issue: 7, tags: ["weekly"] }, status: 201, roundTrips: 1 },
  { method: "PUT", path: "/org.extent.sample.Book/1", body: { pages: 400 }, status: 200, roundTrips: 1 },
  { method: "PUT", path: "/org.extent.sample.Item/2", body: { pages: 184 }, status: 200, roundTrips: 2 },
  {
    method: "POST",
    path: "/org.extent.sample.Category",
    body: { id: 3, kind: "genre", parent: { id: 1, kind: "genre" }, name: "Fantasy" },
    status: 201,
    roundTrips: 1,
  },
  { method: "PUT", path: `/org.extent.sample.Category/${categoryKey(3, 1)}`, body: { name: "High fantasy" }, status: 200, roundTrips: 1 },
  { method: "PUT", path: `/org.extent.sample.Category/${categoryKey(9, 1)}`, body: { name: "Nowhere" }, status: 404, roundTrips: 1 },
  // A long past 2^53 (the largest one): every store reads its digits (D1 and the embedded binding
  // would round it to a double, @libsql/client would refuse it), by the object path (ancestor
  // keys) and in a query.
  {
    method: "POST",
    path: "/org.extent.sample.Category",
    raw: `{"id": ${LONG_MAX}, "kind": "genre", "parent": {"id": 1, "kind": "genre"}, "name": "Last"}`,
    status: 201,
    roundTrips: 1,
  },
  read(`/org.extent.sample.Category/${q(`{"id":${LONG_MAX},"kind":"genre","parent":{"id":1,"kind":"genre"}}`)}`),
  read("/jdoql?query=" + q("SELECT id, name FROM org.extent.sample.Category WHERE id > :n") + "&params=" + q(`{"n": 9007199254740992}`)),
  {
    method: "DELETE",
    path: `/org.extent.sample.Category/${q(`{"id":${LONG_MAX},"kind":"genre","parent":{"id":1,"kind":"genre"}}`)}`,
    status: 204,
    roundTrips: 1,
  },
  // A BigDecimal no double holds: stored, answered and compared exactly (its sort key, decimal.ts).
  {
    method: "POST",
    path: "/org.extent.sample.Magazine",
    raw: '{"title": "Exact", "issue": 1, "price": 123456789012345678901234567890.123456789}',
    status: 201,
    roundTrips: 1,
  },
  read("/jdoql?query=" + q("SELECT title, price FROM org.extent.sample.Item WHERE price > 100.10 || price == 9.99 ORDER BY price DESC, title")),
  {
    method: "POST",
    path: "/org.extent.sample.Shelf",
    body: {
      label: "new",
      items: [
        { class: "org.extent.sample.Book", id: 2 },
        { class: "org.extent.sample.Magazine", id: 6 },
      ],
    },
    status: 201,
    roundTrips: 2,
  },
  {
    method: "POST",
    path: "/org.extent.sample.Member",
    body: { email: "ann@example.org", name: "Ann", phones: { home: "123" }, borrowed: [{ class: "org.extent.sample.Book", id: 1 }] },
    status: 201,
    roundTrips: 2,
  },
  read("/org.extent.sample.Member/ann@example.org?fetchGroup=all"),
  read("/org.extent.sample.Book/1?fetchGroup=all"),
  { method: "DELETE", path: `/org.extent.sample.Category/${categoryKey(3, 1)}`, status: 204, roundTrips: 1 },
  { method: "DELETE", path: "/org.extent.sample.Member/ann@example.org", status: 204, roundTrips: 1 },
  read(`/org.extent.sample.Category/${categoryKey(3, 1)}`, 404),
  // Errors a client can cause: each a problem document, none changing anything.
  read("/org.extent.sample.Nope", 404, 0),
  read("/org.extent.sample.Book/999", 404),
  read("/org.extent.sample.Book/not-a-number", 400, 0),
  read("/jdoql?query=" + q("SELECT FROM org.extent.sample.Book WHERE title =="), 400, 0),
  read("/jpql?query=" + q("SELECT b FROM Book b WHERE b.nope = 1"), 400, 0),
  read("/org.extent.sample.Book?maxFetchDepth=x", 400, 0),
  { method: "POST", path: "/org.extent.sample.Item", body: { title: "no class" }, status: 400, roundTrips: 0 },
  { method: "POST", path: "/org.extent.sample.Author", body: { born: "1921-09-12" }, status: 422, roundTrips: 0 },
  { method: "POST", path: "/org.extent.sample.Book", body: { title: 42, pages: "many" }, status: 422, roundTrips: 0 },
  { method: "POST", path: "/org.extent.sample.Book", raw: "{ not json", status: 400, roundTrips: 0 },
  { method: "POST", path: "/org.extent.sample.Member", body: { email: "ada@example.org", name: "Ada again" }, status: 409, roundTrips: 1 },
  { method: "POST", path: "/org.extent.sample.Category", body: { id: 1, kind: "genre", name: "Fiction again" }, status: 409, roundTrips: 1 },
  { method: "PUT", path: "/org.extent.sample.Book/999", body: { pages: 1 }, status: 404, roundTrips: 1 },
  { method: "PATCH", path: "/org.extent.sample.Book/1", body: { pages: 1 }, status: 405, roundTrips: 0 },
  { method: "DELETE", path: "/org.extent.sample.Book/999", status: 404, roundTrips: 1 },
  // Nothing above changed what the refusals touched.
  read("/org.extent.sample.Item?fetchGroup=all"),
  read("/org.extent.sample.Member"),
  read("/org.extent.sample.Category"),
];

/** One step's answer, with what may differ between runs (generated UUIDs, timings) masked. */
export interface Answer {
  request: string;
  status: number;
  contentType: string | null;
  location: string | null;
  body: unknown;
  roundTrips: number | undefined;
  statements: number | undefined;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Sends a request to the server under test; `path` is relative to its `/api`. */
export type Send = (path: string, init: RequestInit) => Promise<Response>;

export const overHttp =
  (base: string): Send =>
  (path, init) =>
    fetch(base + path, init);

/** Runs the script; `onStep` sees each answer as it comes, `beforeStep` runs before each request. */
export async function runScript(send: Send, onStep?: (step: Step, answer: Answer) => void, beforeStep?: () => void): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const step of SCRIPT) {
    beforeStep?.();
    const init: RequestInit = { method: step.method };
    if (step.body !== undefined || step.raw !== undefined) {
      init.body = step.raw ?? JSON.stringify(step.body);
      init.headers = { "content-type": "application/json" };
    }
    const response = await send(step.path, init);
    const text = await response.text();
    const timing = /store;desc="(\d+) round trips?, (\d+) statements?"/.exec(response.headers.get("server-timing") ?? "");
    const answer: Answer = {
      request: `${step.method} ${step.path}`,
      status: response.status,
      contentType: response.headers.get("content-type"),
      location: response.headers.get("location")?.replace(UUID, "<uuid>") ?? null,
      // Read digit for digit: a store that rounded a long would answer differently.
      body: text ? parseJson(text.replace(UUID, "<uuid>")) : null,
      roundTrips: timing ? Number(timing[1]) : undefined,
      statements: timing ? Number(timing[2]) : undefined,
    };
    answers.push(answer);
    onStep?.(step, answer);
  }
  return answers;
}
