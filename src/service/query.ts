/**
 * Running a prepared query and shaping its JSON, per the contract: candidates are objects (read
 * by the read façade, src/read/read-objects.ts: one batch), a single-expression projection an
 * array of values, several an array of rows, INTO and constructors objects keyed by alias, UNIQUE
 * and ungrouped aggregates one value (null when nothing matches). Objects inside projections are
 * read by the façade in a second batch.
 */
import { AnswerBudget } from "../json/answer-budget.ts";
import { AnswerTooLargeError } from "../errors/capacity-errors.ts";
import { arrayElements } from "../json/array-stream.ts";
import { base64Marks } from "../json/sql-values.ts";
import { ANSWER_BYTES, MOST_ROWS } from "../query/sql/projection-json.ts";
import type { Serializer } from "../read/serialize.ts";
import { decimalJson } from "../json/decimal.ts";
import { integerJson, stringify } from "../json/exact.ts";
import { encodeValue } from "../json/values.ts";
import type { ClassMeta } from "../metadata/model.ts";
import { classOf } from "../metadata/model.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import type { LoadedObject } from "../read/objects.ts";
import { readCandidates, readObjectsByKey } from "../read/read-objects.ts";
import { candidatesBody } from "./query-pages.ts";
import { bind } from "../store/sql.ts";
import { type Statement, StoreRefusalError, unboundedReads } from "../store/store.ts";
import { type Runtime, requestRuntime } from "./runtime.ts";
import type { Eventually } from "../util/eventually.ts";
import { QueryError } from "../errors/query-error.ts";
import type { QQuery, QType } from "../query/shared/model.ts";
import type { PreparedQuery } from "../query/prepare.ts";
import type { ResultColumn } from "../query/sql/select.ts";
import { withFields } from "../util/objects.ts";

/**
 * What the database refuses in a query that compiled (src/store/store-errors.ts reads which): a
 * filter of sixty `!`s, `EXP(1000)`, a SUM past 2^63, a long LIKE pattern. That is the query's
 * fault, not the server's: a QueryError, said in the query's terms (never SQLite's own words).
 */
const REFUSED: Readonly<Record<StoreRefusalError["reason"], string>> = {
  "too-deep": "the query is nested too deeply for the database to run it",
  "integer-overflow": "a whole number the query computes is out of range: a sum (or an absolute value) beyond 64 bits",
  "out-of-range": "a number the query computes is out of range: a math function's result (EXP, POWER...) beyond what a double holds",
  "pattern-too-long": "a LIKE or matches() pattern is longer than the database takes (50,000 bytes)",
};

/** What `read` answers, the database's refusal of the query said as the query's error (at once, or as the promise's rejection). */
function refusalIs400<T>(read: () => Eventually<T>): Eventually<T> {
  try {
    const answer = read();
    return answer instanceof Promise ? answer.catch(asQueryError) : answer;
  } catch (error) {
    return asQueryError(error);
  }
}

function asQueryError(error: unknown): never {
  throw error instanceof StoreRefusalError ? new QueryError(REFUSED[error.reason]) : error;
}

/**
 * The query's answer: JSON text, or, for candidates more than a first page holds, a stream of
 * pages (src/service/query-pages.ts); at once when the store read it at once.
 */
export function runQuery(
  rt: Runtime,
  prepared: PreparedQuery,
  values: Record<string, unknown>,
  requested: FetchPlan,
): Eventually<string | ReadableStream<Uint8Array>> {
  return refusalIs400(() => run(rt, prepared, values, requested));
}

/** `bounded`: the request's runtime, whose store the pages read by key use; the query's own reads are `unbounded`. */
function run(
  bounded: Runtime,
  prepared: PreparedQuery,
  values: Record<string, unknown>,
  requested: FetchPlan,
): Eventually<string | ReadableStream<Uint8Array>> {
  const rt = requestRuntime(bounded, unboundedReads(bounded.store), bounded.access);
  const q = prepared.query;
  const fetch = q.fetchFields?.length ? joinFetched(q, requested) : requested;
  // Candidates: objects, as the read façade reads them (src/read/read-objects.ts); UNIQUE answers one.
  if (prepared.selector && q.unique) return readCandidates(rt, prepared.candidate, prepared.selector, values, fetch, checkUnique);
  if (prepared.selector) return candidatesBody(rt, bounded, prepared.candidate, prepared.selector, values, fetch);
  return projection(rt, prepared, values, fetch);
}

/** A projection's answer: written by SQL when it can be (one row), else its rows shaped here. */
async function projection(rt: Runtime, prepared: PreparedQuery, values: Record<string, unknown>, fetch: FetchPlan): Promise<string> {
  const q = prepared.query;
  const budget = new AnswerBudget(rt.limits.answerBytes);
  const { compiled, columns, json } = prepared.projection!;
  if (json) {
    // Written by SQL, held to answerBytes there.
    const most = Math.floor(budget.limit / json.rowBytes);
    const statement = bind(json.compiled, withFields(values, { [ANSWER_BYTES]: budget.limit, [MOST_ROWS]: most + 1 }));
    statement.oneRow = true;
    const [result] = await rt.store.batch([statement], "read");
    const [text, n] = result!.rows[0]!;
    if (Number(n) > most) throw new AnswerTooLargeError(budget.limit);
    const array = base64Marks(text as string);
    if (!q.unique) return array;
    checkUnique(Number(n));
    return arrayElements(array) || "null";
  }
  // Rows cross into JavaScript as arrays: at most as many as answerBytes holds (ROW_BYTES each).
  const width = columns.reduce((n, c) => n + c.width, 0);
  const most = Math.floor(budget.limit / (ROW_BYTES + COLUMN_BYTES * width));
  const [result] = await rt.store.batch([capped(bind(compiled, values), most)], "read");
  const rows = result!.rows;
  if (rows.length > most) throw new AnswerTooLargeError(budget.limit);
  const objects = await loadObjects(rt, rows, columns, fetch, budget);
  const shaped = rows.map((row) => shapeRow(row, columns, q.shape, objects));
  return budget.checked(stringify(q.unique ? unique(shaped) : shaped));
}

/**
 * The fetch plan with a query's JOIN FETCH relations added, made once per query and requested
 * plan (both are cached objects: prepared queries by text, fetch plans by query string), so the
 * caches keyed by a plan (JSON selects, field lists) find it again rather than a new plan each
 * request. Held weakly by both, so it lives no longer than they do.
 */
const joinFetchedPlans = new WeakMap<QQuery, WeakMap<FetchPlan, FetchPlan>>();
function joinFetched(q: QQuery, requested: FetchPlan): FetchPlan {
  let byPlan = joinFetchedPlans.get(q);
  if (!byPlan) joinFetchedPlans.set(q, (byPlan = new WeakMap()));
  let plan = byPlan.get(requested);
  if (!plan) byPlan.set(requested, (plan = withFields(requested, { fields: [...(requested.fields ?? []), ...q.fetchFields!] })));
  return plan;
}

/** What a projected row takes in memory at least: an array, and a slot a column (and the objects it names). */
const ROW_BYTES = 64;
const COLUMN_BYTES = 16;

/** The read's first `most + 1` rows: one more than allowed tells the answer is too large, without reading the rest. */
function capped(read: Statement, most: number): Statement {
  if (!Number.isFinite(most)) return read;
  // `+?`, not `?`: SQLite would prepare the statement again at every run (src/store/sql.ts, unplanned).
  return { sql: `SELECT * FROM (${read.sql}) LIMIT +?`, params: [...read.params, most + 1] };
}

/** How many candidates match (HEAD with a filter). */
export async function countMatches(rt: Runtime, prepared: PreparedQuery, values: Record<string, unknown>): Promise<number> {
  const statement = bind(prepared.count!, values);
  statement.unbounded = true;
  const [result] = await refusalIs400(() => rt.store.batch([statement], "read"));
  return Number(result!.rows[0]![0]);
}

function checkUnique(matches: number): void {
  if (matches > 1) throw new QueryError(`the query is UNIQUE but ${matches} results match`);
}

function unique(items: unknown[]): unknown {
  checkUnique(items.length);
  return items[0] ?? null;
}

interface Objects {
  serializer?: Serializer;
  byColumn: Map<ResultColumn, Map<string, LoadedObject>>;
}

/** Objects selected by a projection, read with the fetch plan in one more batch. */
async function loadObjects(rt: Runtime, rows: unknown[][], columns: ResultColumn[], fetch: FetchPlan, budget: AnswerBudget): Promise<Objects> {
  const byColumn = new Map<ResultColumn, Map<string, LoadedObject>>();
  const wanted = new Map<ClassMeta, unknown[][]>();
  let offset = 0;
  const offsets = new Map<ResultColumn, number>();
  for (const c of columns) {
    offsets.set(c, offset);
    offset += c.width;
  }
  for (const c of columns) {
    if (c.expr.type.kind !== "entity") continue;
    const meta = c.expr.type.meta;
    const keys = rows.map((r) => r.slice(offsets.get(c)!, offsets.get(c)! + c.width)).filter((k) => k.every((v) => v !== null && v !== undefined));
    wanted.set(meta, [...(wanted.get(meta) ?? []), ...keys]);
  }
  if (!wanted.size) return { byColumn };
  const { objects, serializer } = await readObjectsByKey(rt, wanted, fetch, budget);
  for (const c of columns) {
    if (c.expr.type.kind !== "entity") continue;
    const meta = classOf(rt.model, c.expr.type.meta.name);
    const map = new Map<string, LoadedObject>();
    for (const row of rows) {
      const key = row.slice(offsets.get(c)!, offsets.get(c)! + c.width);
      const obj = objects.get(meta.root, key);
      if (obj) map.set(JSON.stringify(key), obj);
    }
    byColumn.set(c, map);
  }
  return { serializer, byColumn };
}

function shapeRow(row: unknown[], columns: ResultColumn[], shape: PreparedQuery["query"]["shape"], objects: Objects): unknown {
  let at = 0;
  const values = columns.map((c) => {
    const cells = row.slice(at, at + c.width);
    at += c.width;
    if (c.parts) {
      // An embedded object or a map entry: null when every part is (as an embedded field is).
      if (cells.every((v) => v === null || v === undefined)) return null;
      return Object.fromEntries(c.parts.map((p, i) => [p.name, decodeCell(cells[i], p.expr.type)]));
    }
    if (c.expr.type.kind === "entity") {
      if (cells.every((v) => v === null || v === undefined)) return null;
      const obj = objects.byColumn.get(c)?.get(JSON.stringify(cells));
      if (!obj) return null;
      // JDOHelper.getObjectId(x) is the identity, not the object.
      return c.expr.kind === "objectId" ? objects.serializer!.identity(obj) : objects.serializer!.object(obj);
    }
    return decodeCell(cells[0], c.expr.type);
  });
  if (shape === "value") return values[0];
  if (shape === "object") return Object.fromEntries(columns.map((c, i) => [c.alias, values[i]]));
  return values;
}

/** A projected value to JSON, by its query type. */
export function decodeCell(v: unknown, type: QType): unknown {
  if (v === null || v === undefined) return null;
  switch (type.kind) {
    case "boolean":
      return Boolean(Number(v));
    case "number":
      // Whole numbers past 2^53 come as their digits (select.ts reads them so): written exactly.
      if (type.numeric === "long" || type.numeric === "biginteger") return integerJson(v);
      // A BigDecimal's stored text (select.ts), or a number its arithmetic computed.
      if (type.numeric === "decimal") return decimalJson(v);
      return typeof v === "bigint" ? Number(v) : typeof v === "string" ? Number(v) : v;
    case "string":
      return type.char ? encodeValue(v, { kind: "basic", basic: "char", primitive: false }, false) : String(v);
    case "enum":
      return encodeValue(v, type.type, type.ordinal);
    case "bytes":
      return encodeValue(v, { kind: "basic", basic: "bytes", primitive: false }, false);
    default:
      return typeof v === "bigint" ? Number(v) : v;
  }
}
