/**
 * Reading objects as JSON: the one entry of src/read/ for every answer made of persistent objects
 * (GET and HEAD of an object, extent pages, a query's candidates and the objects a projection
 * names, a write's read-back). It alone chooses how a read is written:
 *
 * - by SQL, where a JSON select can write it (src/read/json-select.ts): the store answers each
 *   object's JSON text, held to answerBytes in SQL (past it the statement stops: StoreTooBigError);
 * - otherwise by the object path: the loader reads objects (src/read/load.ts) and the serializer
 *   writes them (src/read/serialize.ts), spending from an AnswerBudget (AnswerTooLargeError).
 *
 * Both are the same JSON (test/json-select.test.ts). Every read of root objects starts at
 * `jsonSelectOf` or `objectPlanOf` below (HEAD at `readVersion`): a row filter or an ordering of
 * the roots is added there, once. Nothing outside src/read/ runs either path itself
 * (test/read-facade.test.ts). Callers say which objects (a key, an extent page, a query's
 * selector, its first page, its ordered keys and a page of them: src/read/query-pages.ts) and get
 * JSON text, or the pieces their answer needs (a page and where the next starts; statements to
 * append to a write's batch and the object from their results).
 */
import type { Limits } from "../config/limits.ts";
import { type ObjectJson, serialized } from "../json/answer.ts";
import { AnswerTooLargeError } from "../errors/capacity-errors.ts";
import { AnswerBudget } from "../json/answer-budget.ts";
import { stringify } from "../json/exact.ts";
import { keyString } from "../mapping/keys.ts";
import { type ClassMeta, type Model, isAncestor } from "../metadata/model.ts";
import { type Statement, type StatementResult, type Store, batchEventually } from "../store/store.ts";
import { findExisting } from "./existing.ts";
import { type Cursor, type PageJson, arrayPage, loadedPage, pageSelector, pageValues, rowsPage } from "./extent-pages.ts";
import { DEFAULT_PLAN, type FetchPlan } from "./fetch-plan.ts";
import { arrayElements } from "../json/array-stream.ts";
import { jsonRows, jsonStatements, jsonTexts, readJson, readJsonArray } from "./json-rows.ts";
import { type JsonSelect, jsonSelect, jsonSelectTooLarge, shortestObject } from "./json-select.ts";
import { assemble, expandFurther, firstPlan, loadPlan, planStatements, reachesFetchDepth } from "./load.ts";
import { IdentityMap } from "./objects.ts";
import { BY_ORDERED_KEYS, candidateKeys, candidateKeysStatement, firstCandidates, pageKeysValues, rootRows } from "./query-pages.ts";
import { type ReadPlan, type RootSelector, type SubquerySelector, oneKeyParam } from "./read-plan.ts";
import { Serializer } from "./serialize.ts";
import { type Eventually, thenNow } from "../util/eventually.ts";

/** What a read needs of the service's runtime (a `Runtime` is one). */
export interface Reading {
  readonly model: Model;
  readonly store: Store;
  readonly limits: Pick<Limits, "answerBytes">;
}

// ---- the one choice ---------------------------------------------------------------------------

/** The JSON select writing this read, or undefined: the object path reads it. */
function jsonSelectOf(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes: number): JsonSelect | undefined {
  return jsonSelect(model, meta, selector, fetch, answerBytes);
}

/** Whether no JSON select writes this read because its plan is too large for one statement (too deep or too wide). */
function tooLargeForOneStatement(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes: number): boolean {
  return jsonSelectTooLarge(model, meta, selector, fetch, answerBytes);
}

/** The object path's first batch (the loader goes on level by level beyond it). */
function objectPlanOf(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan): ReadPlan {
  return firstPlan(model, meta, selector, fetch);
}

// ---- one object by key (GET, HEAD) ------------------------------------------------------------

/** The object whose key is in the `keys` placeholder (shared selectors: nothing built per request). */
const BY_KEY: RootSelector = { kind: "key" };
/** The objects whose keys are in the `keys` placeholder. */
const BY_KEYS: RootSelector = { kind: "keys" };

/**
 * The object of `meta` (or a subclass) with `key`, within answerBytes; undefined when there is
 * none. One read batch for a finite fetch depth. Answered at once, without a promise, when the
 * store runs the read on the calling thread (`Store.batchNow`: an embedded file's read by key).
 */
export function readObject(r: Reading, meta: ClassMeta, key: readonly unknown[], fetch: FetchPlan): Eventually<ObjectJson | undefined> {
  const values = { keys: oneKeyParam(key) };
  const budget = new AnswerBudget(r.limits.answerBytes);
  const select = jsonSelectOf(r.model, meta, BY_KEY, fetch, budget.limit);
  if (!select) return readObjectByPlan(r, meta, fetch, values, budget);
  // One row per table group at most; a row of a class outside the model is no object. The batch
  // is run here rather than by readJson: one promise fewer on the hottest read, none when the
  // store answers at once.
  return thenNow(batchEventually(r.store, jsonStatements(select, values, true), "read"), (results) => firstObject(r.model, select, results, budget));
}

function firstObject(model: Model, select: JsonSelect, results: StatementResult[], budget: AnswerBudget): ObjectJson | undefined {
  for (const row of jsonRows(model, select, results)) if (row.json !== null) return { json: budget.checked(row.json), version: row.version };
  return undefined;
}

/** The object path's read of one object (a fetch depth no JSON select writes). */
async function readObjectByPlan(
  r: Reading,
  meta: ClassMeta,
  fetch: FetchPlan,
  values: Record<string, unknown>,
  budget: AnswerBudget,
): Promise<ObjectJson | undefined> {
  const { roots, objects } = await loadPlan(r.store, r.model, objectPlanOf(r.model, meta, BY_KEY, fetch), fetch, values);
  const root = roots[0];
  return root && serialized(new Serializer(r.model, objects, fetch, budget).all([root])[0]!, budget);
}

/** Existence and version only (HEAD): reads the identity, not the object; undefined when absent. */
export async function readVersion(r: Reading, meta: ClassMeta, key: readonly unknown[]): Promise<{ version: number | null } | undefined> {
  const found = (await findExisting(r.store, r.model, [{ root: meta.root, key }])).get(keyString(meta.root, key));
  if (!found || !isAncestor(r.model, meta.name, found.meta.name)) return undefined;
  return { version: found.meta.version ? (found.version ?? 0) : null };
}

// ---- the extent (GET of a class) --------------------------------------------------------------

/** The whole extent, subclasses included. */
const EXTENT: RootSelector = { kind: "extent" };

/**
 * Whether the extent can be read in pages (readExtentPage) that answer what it answers read at
 * once. Beyond the depth the loader always reaches (maxFetchDepth=-1), what an object's JSON holds
 * can depend on the other objects read with it: such an extent is read at once (readExtent).
 */
export function readsInPages(fetch: FetchPlan): boolean {
  return reachesFetchDepth(fetch);
}

/** The extent of `meta` as one JSON array, read at once by the object path (as extents always were read before pages), within answerBytes. */
export async function readExtent(r: Reading, meta: ClassMeta, fetch: FetchPlan): Promise<string> {
  const { roots, objects } = await loadPlan(r.store, r.model, objectPlanOf(r.model, meta, EXTENT, fetch), fetch, {});
  return stringify(new Serializer(r.model, objects, fetch, new AnswerBudget(r.limits.answerBytes)).all(roots));
}

/**
 * The `size` objects of `meta`'s extent that follow `after` (the first `size` without it), and where
 * the next page starts. A page is what the server builds at once: it is held to answerBytes. It
 * reads one object more than it answers, so whether the extent goes on is known without a round
 * trip that finds nothing, and an extent of one page costs what it always did.
 */
export function readExtentPage(r: Reading, meta: ClassMeta, fetch: FetchPlan, size: number, after?: Cursor): Eventually<PageJson> {
  const budget = new AnswerBudget(r.limits.answerBytes);
  const selector = pageSelector(r.model, meta, after);
  const values = pageValues(size, after);
  const select = jsonSelectOf(r.model, meta, selector, fetch, budget.limit);
  // One row: the page's texts joined by SQL.
  if (select?.array) return thenNow(readJsonArray(r.store, select, values), (array) => arrayPage(array, size));
  if (select) {
    return thenNow(readJson(r.store, r.model, select, values), (rows) => {
      for (const row of rows) budget.spend(row.json?.length ?? 0);
      return rowsPage(rows, size);
    });
  }
  return extentPageByPlan(r, meta, fetch, size, selector, values, budget);
}

/** The object path's page of an extent (a fetch plan no JSON select writes). */
async function extentPageByPlan(
  r: Reading,
  meta: ClassMeta,
  fetch: FetchPlan,
  size: number,
  selector: RootSelector,
  values: Record<string, unknown>,
  budget: AnswerBudget,
): Promise<PageJson> {
  const plan = objectPlanOf(r.model, meta, selector, fetch);
  const { roots, objects, results } = await loadPlan(r.store, r.model, plan, fetch, values);
  const page = loadedPage(r.model, meta, plan, results, objects, roots, size);
  const elements = new Serializer(r.model, objects, fetch, budget).all(page.roots).map((o) => stringify(o));
  return page.next ? { elements, next: page.next } : { elements };
}

// ---- a query's candidates, and the objects a projection names --------------------------------

/**
 * A query's candidates (`selector`: its keys, ordered and ranged by the query) as the answer's
 * JSON text: an array, or, with `unique` (UNIQUE), the one object or null; `unique` is told how
 * many matched once the answer is within answerBytes, and throws to refuse more than one.
 */
export function readCandidates(
  r: Reading,
  meta: ClassMeta,
  selector: RootSelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
  unique?: (matches: number) => void,
): Eventually<string> {
  // Never undefined: no number of rows is more than Infinity.
  return candidatesJson(r, meta, selector, values, fetch, Infinity, unique) as Eventually<string>;
}

/**
 * The answer readCandidates writes, when at most `size` candidates match; undefined when more do
 * (the caller then reads them in pages: readCandidateKeys, readCandidatePage). The same
 * statements as the whole answer's, in one batch: the query's keys are cut to `size` + 1.
 */
export function readFirstCandidates(
  r: Reading,
  meta: ClassMeta,
  selector: SubquerySelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
  size: number,
): Eventually<string | undefined> {
  return candidatesJson(r, meta, firstCandidates(selector, size), values, fetch, size);
}

/**
 * The candidates' JSON, or undefined when more than `most` rows are read (visible or not); at
 * once when the store read them at once (a JSON select's one batch).
 */
function candidatesJson(
  r: Reading,
  meta: ClassMeta,
  selector: RootSelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
  most: number,
  unique?: (matches: number) => void,
): Eventually<string | undefined> {
  const budget = new AnswerBudget(r.limits.answerBytes);
  const select = jsonSelectOf(r.model, meta, selector, fetch, budget.limit);
  if (select?.array) {
    // One row: the texts joined by SQL, from at most maxRows + 1 candidates.
    return thenNow(readJsonArray(r.store, select, values), ({ array, visible, rows }) => {
      if (rows > select.maxRows) throw new AnswerTooLargeError(budget.limit);
      if (rows > most) return undefined;
      if (!unique) return array;
      unique(visible);
      return arrayElements(array) || "null";
    });
  }
  if (select) {
    return thenNow(readJson(r.store, r.model, select, values), (rows) => {
      if (rows.length > most) return undefined;
      const texts = jsonTexts(rows);
      for (const t of texts) budget.spend(t.length + 1);
      if (!unique) return `[${texts.join(",")}]`;
      unique(texts.length);
      return texts[0] ?? "null";
    });
  }
  return candidatesByPlan(r, meta, selector, values, fetch, most, budget, unique);
}

/** The object path's candidates (a fetch plan no JSON select writes). */
async function candidatesByPlan(
  r: Reading,
  meta: ClassMeta,
  selector: RootSelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
  most: number,
  budget: AnswerBudget,
  unique?: (matches: number) => void,
): Promise<string | undefined> {
  const plan = objectPlanOf(r.model, meta, selector, fetch);
  const { roots, objects, results } = await loadPlan(r.store, r.model, plan, fetch, values);
  if (rootRows(plan, results) > most) return undefined;
  const out = new Serializer(r.model, objects, fetch, budget).all(roots);
  if (!unique) return budget.checked(stringify(out));
  unique(out.length);
  return budget.checked(stringify(out[0] ?? null));
}

/** The most objects of `meta` an answer within answerBytes can hold: that many of its shortest objects. */
export function mostObjects(r: Reading, meta: ClassMeta): number {
  return Math.floor(r.limits.answerBytes / shortestObject(r.model, meta));
}

/**
 * The query's candidate keys in its order (scalars, arrays for composite keys), read in one
 * statement: at most what answerBytes holds of the shortest objects the class writes (as many as
 * the whole answer may have), else AnswerTooLargeError.
 */
export async function readCandidateKeys(r: Reading, meta: ClassMeta, selector: SubquerySelector, values: Record<string, unknown>): Promise<unknown[]> {
  const limit = r.limits.answerBytes;
  const most = mostObjects(r, meta);
  const [result] = await r.store.batch([candidateKeysStatement(meta, selector, values, most, limit)], "read");
  const { keys, count } = candidateKeys(result!.rows[0]!);
  if (count > most) throw new AnswerTooLargeError(limit);
  return keys;
}

/**
 * The objects of `keys` (a page of a query's candidates, from readCandidateKeys) as JSON texts, in
 * the keys' order; a key whose object is gone reads nothing. A page is what the server builds at
 * once: it is held to answerBytes.
 */
export async function readCandidatePage(r: Reading, meta: ClassMeta, keys: readonly unknown[], fetch: FetchPlan): Promise<string[]> {
  const budget = new AnswerBudget(r.limits.answerBytes);
  const values = pageKeysValues(keys);
  const select = jsonSelectOf(r.model, meta, BY_ORDERED_KEYS, fetch, budget.limit);
  if (select?.array) {
    const joined = arrayElements((await readJsonArray(r.store, select, values)).array);
    return joined ? [joined] : [];
  }
  if (select) {
    const texts = jsonTexts(await readJson(r.store, r.model, select, values));
    for (const t of texts) budget.spend(t.length + 1);
    return texts;
  }
  const { roots, objects } = await loadPlan(r.store, r.model, objectPlanOf(r.model, meta, BY_ORDERED_KEYS, fetch), fetch, values);
  return new Serializer(r.model, objects, fetch, budget).all(roots).map((o) => stringify(o));
}

/**
 * Objects named by their keys, class by class (those a projection selects), read with `fetch` in
 * one batch (and the loader's rounds beyond its depth), and the serializer that writes them within
 * `budget` (a projection writes an object or its identity, column by column). Always the object
 * path: the projection's rows decide where each object goes.
 */
export async function readObjectsByKey(
  r: Reading,
  wanted: ReadonlyMap<ClassMeta, readonly (readonly unknown[])[]>,
  fetch: FetchPlan,
  budget: AnswerBudget,
): Promise<{ objects: IdentityMap; serializer: Serializer }> {
  const objects = new IdentityMap();
  const plans = [...wanted].map(([meta, keys]) => {
    const plan = objectPlanOf(r.model, meta, BY_KEYS, fetch);
    return { plan, statements: planStatements(plan, { keys: JSON.stringify(keys.map((k) => (k.length === 1 ? k[0] : k))) }) };
  });
  const results = await r.store.batch(
    plans.flatMap((p) => p.statements),
    "read",
  );
  let at = 0;
  for (const p of plans) {
    assemble(p.plan, results.slice(at, at + p.statements.length), objects);
    at += p.statements.length;
  }
  await expandFurther(r.store, r.model, fetch, objects);
  return { objects, serializer: new Serializer(r.model, objects, fetch, budget) };
}

// ---- one object read inside another batch (a write's read-back) ------------------------------

/** The read of one object as statements for the caller's batch, and what turns their results into its JSON. */
export interface ObjectInBatch {
  /** To append to the batch, last. */
  readonly statements: Statement[];
  readonly select?: JsonSelect;
  readonly plan?: ReadPlan;
}

/** The object read inside a batch: its JSON, its runtime class and its key. */
export interface ObjectFromBatch {
  object: ObjectJson;
  meta: ClassMeta;
  key: readonly unknown[];
}

/**
 * The read of the one object `selector` chooses (a written object), to run at the end of the
 * caller's batch. Written by SQL where a JSON select can, within answerBytes: a larger answer
 * stops the batch, so nothing it writes stays. Undefined when the plan is too large for one
 * statement (too deep or too wide): the object path would build that answer after the batch, when
 * what it wrote can no longer be undone, so the caller refuses before running anything.
 */
export function objectInBatch(
  r: Reading,
  meta: ClassMeta,
  selector: RootSelector,
  values: Record<string, unknown>,
  fetch: FetchPlan,
): ObjectInBatch | undefined {
  const select = jsonSelectOf(r.model, meta, selector, fetch, r.limits.answerBytes);
  if (select) return { select, statements: jsonStatements(select, values, true) };
  if (tooLargeForOneStatement(r.model, meta, selector, fetch, r.limits.answerBytes)) return undefined;
  const plan = objectPlanOf(r.model, meta, selector, fetch);
  return { plan, statements: planStatements(plan, values) };
}

/**
 * The object `read` read, from the batch's `results` (which end with its statements); undefined
 * when it found none. The object path goes on level by level beyond the batch's depth, and writes
 * without a budget: the batch has run, and a refusal now could not undo it. At once when the
 * batch's JSON select read it (no promise); the object path's further levels are read later.
 */
export function objectFromBatch(
  r: Reading,
  read: ObjectInBatch,
  results: readonly StatementResult[],
  fetch: FetchPlan,
): Eventually<ObjectFromBatch | undefined> {
  const own = results.slice(results.length - read.statements.length);
  if (read.select) {
    for (const row of jsonRows(r.model, read.select, own))
      if (row.json !== null) return { object: { json: row.json, version: row.version }, meta: row.meta!, key: row.key };
    return undefined;
  }
  return objectByPlanFromBatch(r, read, own, fetch);
}

async function objectByPlanFromBatch(r: Reading, read: ObjectInBatch, own: readonly StatementResult[], fetch: FetchPlan): Promise<ObjectFromBatch | undefined> {
  const objects = new IdentityMap();
  const root = assemble(read.plan!, own, objects)[0];
  if (!root) return undefined;
  await expandFurther(r.store, r.model, fetch, objects);
  return { object: serialized(new Serializer(r.model, objects, fetch).object(root)), meta: root.meta, key: root.key };
}

// ---- prepared before the first request -------------------------------------------------------

/**
 * The classes whose default reads `prepareReads` builds, in the model's order: a bound on what a
 * large model adds to start-up, which a worker's isolate pays within its start-up limit (a class
 * costs about 1 ms once the code is compiled; the first ones 2–5 ms, compiling it).
 */
export const PREPARED_CLASSES = 64;

/**
 * Builds, for each class (up to PREPARED_CLASSES), the JSON selects of its two commonest reads
 * with the default fetch plan: GET by key and the extent's first page. They are the entries those
 * requests look up (same selectors, plan and answer bound: test/prepared-reads.test.ts), so no
 * request pays for building them; and the first build compiles the code that writes JSON selects,
 * which a cold worker isolate otherwise ran for the first time on its first request (about 8 ms of
 * its CPU in local workerd). Reads the access rules narrow (hidden fields) have entries of their
 * own, built on first use.
 */
export function prepareReads(r: Pick<Reading, "model" | "limits">): void {
  let prepared = 0;
  for (const meta of r.model.classes.values()) {
    if (meta.embeddedOnly) continue;
    if (prepared++ === PREPARED_CLASSES) break;
    jsonSelectOf(r.model, meta, BY_KEY, DEFAULT_PLAN, r.limits.answerBytes);
    jsonSelectOf(r.model, meta, pageSelector(r.model, meta, undefined), DEFAULT_PLAN, r.limits.answerBytes);
  }
}
