/**
 * The fuzz properties, shared by test/fuzz.test.ts (a seeded subset in `npm test`) and
 * test/fuzz/run.ts (any number of cases). Every generated request goes through the real handler
 * over a real libSQL file, and its answer is judged:
 *
 *  1. never a 5xx;
 *  2. a non-2xx answer is an `application/problem+json` document whose `status` is the HTTP
 *     status, with a string `detail`, and the status is one the contract allows for that kind of
 *     request (a query never answers 409, a write without If-Match never 412, ...);
 *  3. a request that is refused, or that only reads, leaves every table byte for byte as it was;
 *  4. it answers within its budget (test/fuzz/budget.ts): `requestTimeMs` plus a margin, and a
 *     bounded growth of the process's memory; 503 is allowed anywhere (the time limit, SQLite's
 *     heap cap) but must carry Retry-After, and no answer at all is a hang.
 */
import fc from "fast-check";
import { DEFAULT_LIMITS } from "../../src/config/limits.ts";
import { databaseDigest } from "../support/digest.ts";
import type { Reply } from "../support/harness.ts";
import {
  type FuzzRequest,
  type RequestKind,
  classSegment,
  createRequest,
  deleteRequest,
  describeRequest,
  fetchPlanPairs,
  methodRequest,
  query,
  readRequest,
  request,
  updateRequest,
} from "./arbitraries.ts";
import { cartesianRequest, denseReadRequest, denseWriteRequest } from "./bounds.ts";
import { Hang, type Measure, measured, overBudget } from "./budget.ts";
import { extremeNumberRequest, longKeyRequest } from "./edges.ts";
import { type Frag, type ParamUse, hostileQueryText, jdoqlFilter, jdoqlQuery, jpqlQuery, mutated, paramsFor } from "./queries.ts";
import type { World, WorldName } from "./world.ts";

// --- Query requests --------------------------------------------------------------------------------

/** Percent-encoding that also takes lone surrogates, as the invalid UTF-8 a hostile client may send. */
export function encode(text: string): string {
  let out = "";
  for (const ch of text) {
    const unit = ch.charCodeAt(0);
    out += ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff ? "%ED%A0%80" : encodeURIComponent(ch);
  }
  return out;
}

type QueryText = { text: string; params: ParamUse[]; mutations: number };
const textOf = (arb: fc.Arbitrary<Frag>): fc.Arbitrary<QueryText> =>
  fc.oneof({ weight: 15, arbitrary: mutated(arb) }, { weight: 1, arbitrary: hostileQueryText.map((text) => ({ text, params: [], mutations: 0 })) });

/** The named form `?{name}=Q&params=...&fetchGroup=...`, or the raw form `?Q` (no other parameters). */
function queryRequest(kind: RequestKind, method: string, base: string, name: string, q: QueryText): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ raw: fc.integer({ min: 0, max: 3 }).map((n) => n === 0), params: paramsFor(q.params), plan: fetchPlanPairs })
    .map(({ raw, params, plan }) => {
      if (raw) return request(kind, method, `${base}?${encode(q.text)}`);
      const pairs = [`${name}=${encode(q.text)}`, ...(params === undefined ? [] : [`params=${encode(params)}`]), ...plan];
      return request(kind, method, base + query(pairs));
    });
}

export const filterRequest: fc.Arbitrary<FuzzRequest> = classSegment.chain(({ simple, segment }) =>
  fc
    .tuple(textOf(jdoqlFilter(simple)), fc.constantFrom("GET", "GET", "GET", "HEAD"))
    .chain(([q, method]) => queryRequest("filter", method, `/${segment}`, "filter", q)),
);

export const jdoqlRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(textOf(jdoqlQuery), fc.constantFrom("/jdoql", "/jdoql", "/query"))
  .chain(([q, path]) => queryRequest("jdoql", "GET", path, "query", q));

export const jpqlRequest: fc.Arbitrary<FuzzRequest> = textOf(jpqlQuery).chain((q) => queryRequest("jpql", "GET", "/jpql", "query", q));

// --- The properties ------------------------------------------------------------------------------

export interface FuzzProperty {
  name: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
  /** Successful writes before the world is seeded afresh (deletes use up the few seeded objects fast). */
  resetAfter?: number;
  /** The world it runs in (default: the sample). */
  world?: WorldName;
  /** Cases in `npm test` (default 200): fewer where a case may run to the time limit. */
  runs?: number;
}

export const PROPERTIES: FuzzProperty[] = [
  { name: "POST of generated bodies", arbitrary: createRequest },
  { name: "PUT of generated bodies on generated keys", arbitrary: updateRequest },
  { name: "DELETE of generated keys, in the path or the body", arbitrary: deleteRequest, resetAfter: 8 },
  { name: "GET and HEAD of generated keys and fetch plans", arbitrary: readRequest },
  { name: "GET and HEAD with generated filters", arbitrary: filterRequest },
  { name: "generated and mutated JDOQL", arbitrary: jdoqlRequest },
  { name: "generated and mutated JPQL", arbitrary: jpqlRequest },
  { name: "methods and paths that are not served", arbitrary: methodRequest },
  { name: "cartesian JDOQL and JPQL over a dense graph", arbitrary: cartesianRequest, world: "bounds", runs: 100 },
  { name: "GET of fetch plans at depth over a dense graph", arbitrary: denseReadRequest, world: "bounds" },
  {
    name: "POST and PUT answering fetch plans at depth over a dense graph",
    arbitrary: denseWriteRequest,
    world: "bounds",
    resetAfter: 30,
    runs: 30,
  },
  { name: "long keys in paths, bodies and parameters", arbitrary: longKeyRequest },
  { name: "extreme numbers in bodies, parameters and query literals", arbitrary: extremeNumberRequest },
];

// --- Judging an answer -----------------------------------------------------------------------------

const WRITES = new Set<RequestKind>(["create", "update", "delete"]);
const SUCCESS: Record<RequestKind, number[]> = {
  create: [201],
  update: [200],
  delete: [204],
  read: [200],
  filter: [200],
  jdoql: [200],
  jpql: [200],
  method: [],
};
const ERRORS: Record<RequestKind, number[]> = {
  create: [400, 404, 409, 422],
  update: [400, 404, 409, 422],
  delete: [400, 404, 409],
  read: [400, 404],
  filter: [400, 404],
  jdoql: [400, 405],
  jpql: [400, 405],
  method: [404, 405],
};
const QUERY_PATHS = new Set(["jdoql", "query", "jpql"]);

/** The statuses `r` may answer: its kind's, plus those its headers, body or path make possible. */
export function allowedStatuses(r: FuzzRequest): Set<number> {
  // 503: the time limit or SQLite's heap cap, which any request may meet (judge asks for Retry-After).
  const allowed = new Set([...(r.expect ?? [...SUCCESS[r.kind], ...ERRORS[r.kind]]), 503]);
  // The URL as the handler sees it: a key nested thousands deep or a long query percent-encoded
  // (' too) may pass urlBytes.
  const url = new URL(`http://x${r.path}`);
  if (url.href.length - url.origin.length > DEFAULT_LIMITS.urlBytes) allowed.add(414);
  if (r.expect) return allowed;
  if (r.headers["if-match"] !== undefined) allowed.add(412);
  if (r.headers["if-none-match"] !== undefined) allowed.add(304);
  // Any body: size and nesting limits (413), a media type that is not JSON (415), half a UTF-16
  // surrogate pair, which no text column keeps (422, even in a DELETE's key object).
  if (r.body !== undefined) allowed.add(413).add(415).add(422);
  if (r.method === "OPTIONS") allowed.add(204); // on a served path: its Allow
  if (url.pathname === "/") allowed.add(405); // `/%2E%2E` is the root, which takes GET and HEAD
  if (QUERY_PATHS.has(r.path.split(/[/?]/)[1]!)) allowed.add(405); // /jdoql/1 and POST /jdoql: queries are GET
  if (/^\/[^/?]*\/(\?|$)/.test(r.path)) allowed.add(405); // an empty key: `PUT /{class}/` is the class's path
  return allowed;
}

/** What is wrong with `reply` as the answer to `r`, or undefined. */
export function judge(r: FuzzRequest, reply: Reply): string | undefined {
  const { status } = reply;
  if (status >= 500 && status !== 503) return `answered ${status}: ${reply.text.slice(0, 300)}`;
  if (status === 503 && reply.headers.get("retry-after") === null) return `answered 503 without Retry-After: ${reply.text.slice(0, 300)}`;
  if (!allowedStatuses(r).has(status))
    return `answered ${status}, which this request may not answer (allowed: ${[...allowedStatuses(r)].join(", ")}): ${reply.text.slice(0, 300)}`;
  if (status === 405 && !reply.headers.get("allow")) return "answered 405 without an Allow header";
  if (r.method === "HEAD") return reply.text === "" ? undefined : "answered HEAD with a body";
  if (status === 304) return reply.text === "" ? undefined : "answered 304 with a body";
  const type = reply.headers.get("content-type") ?? "";
  if (status < 300) {
    if (status === 204) return reply.text === "" ? undefined : "answered 204 with a body";
    if (!type.startsWith("application/json")) return `answered ${status} as ${type}`;
    if (status === 201 && !reply.headers.get("location")) return "answered 201 without a Location";
    if (reply.body === undefined) return `answered ${status} with a body that is not JSON: ${reply.text.slice(0, 200)}`;
    return undefined;
  }
  if (!type.startsWith("application/problem+json"))
    return `answered ${status} as ${JSON.stringify(type)}, not application/problem+json: ${reply.text.slice(0, 200)}`;
  const body = reply.body as Record<string, unknown> | undefined;
  if (!body || typeof body !== "object") return `answered ${status} with a problem document that is not a JSON object: ${reply.text.slice(0, 200)}`;
  if (body.status !== status) return `answered ${status} with a problem document whose status is ${JSON.stringify(body.status)}`;
  if (typeof body.detail !== "string" || typeof body.title !== "string" || typeof body.type !== "string")
    return `answered ${status} without string type, title and detail: ${reply.text.slice(0, 200)}`;
  if (/\n\s+at |SQLITE_|LibsqlError/.test(reply.text)) return `answered ${status} with a stack trace or a store error: ${reply.text.slice(0, 300)}`;
  return undefined;
}

/** What the runner reports of a property: answers per status, the slowest case, the largest memory growth. */
export class Stats {
  readonly statuses = new Map<number, number>();
  slowest: { ms: number; request: string } | undefined;
  largest: { bytes: number; request: string } | undefined;

  add(r: FuzzRequest, status: number, m: Measure): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (!this.slowest || m.ms > this.slowest.ms) this.slowest = { ms: m.ms, request: `${describeRequest(r)} → ${status}` };
    if (!this.largest || m.memoryBytes > this.largest.bytes) this.largest = { bytes: m.memoryBytes, request: `${describeRequest(r)} → ${status}` };
  }
}

/**
 * Sends one request, measured, and judges it, digests taken around it. A 2xx write may change the
 * database (the world counts it towards a rebuild); anything else must leave it as it was.
 */
export async function runCase(world: World, r: FuzzRequest, stats?: Stats): Promise<string | undefined> {
  const h = await world.harness();
  const before = await databaseDigest(h.sql);
  let reply: Reply;
  let measure: Measure;
  try {
    ({ value: reply, ...measure } = await measured(() => h.call(r.method, r.path, r.body, r.headers)));
  } catch (error) {
    if (error instanceof Hang) return error.message;
    throw error;
  }
  stats?.add(r, reply.status, measure);
  const wrong = judge(r, reply) ?? overBudget(measure);
  if (wrong) return wrong;
  if (WRITES.has(r.kind) && reply.status < 300) {
    world.wrote();
    return undefined;
  }
  const after = await databaseDigest(h.sql);
  return after === before ? undefined : `answered ${reply.status} but changed the database`;
}

export { describeRequest };
