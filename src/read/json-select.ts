/**
 * JSON selects: reads whose SQL writes the answer, as PostgREST does. A request for objects
 * becomes one SELECT per table group of the class asked for; each row is one root object's JSON
 * text, its related objects nested in it by correlated subqueries down to the fetch depth. The
 * text goes into the response as it comes from the store: no row becomes a JavaScript object.
 * (On the libsql binding a row costs about 0.6 µs to cross into JavaScript and an object more to
 * build and stringify; SQLite writes the same text in C. One statement is also one round trip,
 * and less to carry, from a remote store.)
 *
 * It writes what the object path writes (the loader, src/read/load.ts, and the serializer,
 * src/read/serialize.ts) for every plan it can express; test/json-select.test.ts holds the two
 * equal over the test models. The rules it mirrors:
 * - an object is `{"class", key fields, "_version"?, version field?, fields...}`, the fields of its
 *   runtime class in declaration order: those of the fetch plan, and owned references outside it
 *   as identities;
 * - a related object is written in full while its owner is above the fetch depth and it is not
 *   already being written on the path from the root (a cycle); otherwise as its identity
 *   `{"class", key fields}`, of its runtime class;
 * - collections are in the loader's order: by key for mapped-by (table group by table group), by
 *   the order column or the element key for join tables; elements whose row is missing, or of a
 *   class outside the model, are left out; a reference whose row is missing is its identity, of
 *   the declared class.
 *
 * What it cannot express, `jsonSelect` answers `undefined` for (`jsonSelectRefusal` says why)
 * and the caller takes the object path: unlimited fetch depth (the loader's rounds decide there),
 * ancestor-key values (src/json/sql-values.ts), several classes in one table without a
 * discriminator, and plans too large for one statement (MAX_SQL_LENGTH; the writer's MAX_SUBQUERIES) or nested
 * deeper than SQLite's parser reads (src/store/parser-nesting.ts: about five levels of related
 * objects).
 */
import { keyFieldColumns } from "../mapping/keys.ts";
import { type ClassMeta, type Model, subtree } from "../metadata/model.ts";
import { NotInSql, exactIntegerSql } from "../json/sql-values.ts";
import { PARSER_BUDGET, parserNesting } from "../store/parser-nesting.ts";
import { type Compiled, compile, sql } from "../store/sql.ts";
import { type FetchPlan, planKey } from "./fetch-plan.ts";
import { READ_PLAN_LIMIT, READ_PLAN_WEIGHT, perModelCache } from "../cache/bounded-cache.ts";
import { type RootSelector, rootKeys } from "./read-plan.ts";
import { type GroupLayout, groupsOf } from "./row-layout.ts";
import { Writer, bounded } from "./json-select-writer.ts";

/**
 * A read whose rows are root objects: `[json, version, class, key..., (_ord)]`, one statement per
 * table group of the class, in the order the object path reads them. `json` is NULL for a row of a
 * class outside the model (invisible, as in the object path).
 */
export interface JsonSelect {
  steps: { group: GroupLayout; compiled: Compiled }[];
  /** Rows end with their place in the query's order (`_ord`): the groups' rows merge by it. */
  ordered: boolean;
  /**
   * The same read as one row (a class in one table group, with a one-column key), for answers
   * that are arrays: each row crossing into JavaScript costs about 0.6 µs, the texts joined in
   * SQL next to nothing. Its columns: `a` the visible objects' texts joined by commas (NULL for
   * none), `n` the rows read, `m` the visible ones, and, from the row with the greatest key (SQLite
   * takes bare columns from the max() row), `k` that key and `t` its text.
   */
  array?: Compiled;
  /**
   * A GET by key whose statements read the object's row and, from it, only rows found by their
   * primary keys (to-one references): no number of stored rows can make them long, so a store may
   * run them without arming a time limit on each (see `Statement.fixedCost`).
   */
  fixedCost: boolean;
  /**
   * The most root objects `array` reads (it reads one more when there are more): what answerBytes
   * holds of the shortest object the class writes. Aggregates are checked when they end, so the
   * row count bounds the work before it (a query over a million objects stops at this count).
   */
  maxRows: number;
}

/** Where the key columns start in a JSON select's row. */
export const KEY_COLUMN = 3;

/** D1 refuses statements over 100 KB. */
const MAX_SQL_LENGTH = 90_000;

/** A read no JSON select can write, and why (`tooLarge`: its plan is too large for one statement). */
interface Refused {
  refused: string;
  tooLarge?: boolean;
}

/** JSON selects per model, with the read plans' bounds (an entry weighs its key and its SQL). */
const selects = perModelCache<JsonSelect | Refused>("jsonSelects", READ_PLAN_LIMIT, {
  limit: READ_PLAN_WEIGHT,
  weigh: (key, s) => ("steps" in s ? s.steps.reduce((n, step) => n + step.compiled.sql.length, key.length + (s.array?.sql.length ?? 0)) : key.length),
});

/**
 * The JSON select reading `meta`'s objects chosen by `selector` with `fetch`, or undefined where
 * the object path must read them. Its statements fail (SQLITE_TOOBIG) as soon as a collection's
 * text, or the answer as one row, grows past `answerBytes` bytes of UTF-8.
 */
export function jsonSelect(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes = Infinity): JsonSelect | undefined {
  const built = cached(model, meta, selector, fetch, answerBytes);
  return "steps" in built ? built : undefined;
}

/** Whether the read's plan is too large for one statement (too deep or too wide): the object path would write it. */
export function jsonSelectTooLarge(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes = Infinity): boolean {
  const built = cached(model, meta, selector, fetch, answerBytes);
  return "refused" in built && !!built.tooLarge;
}

/** Why no JSON select writes this read (undefined when one does): for tests and whoever tunes a model. */
export function jsonSelectRefusal(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan): string | undefined {
  const built = cached(model, meta, selector, fetch, Infinity);
  return "refused" in built ? built.refused : undefined;
}

function cached(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes: number): JsonSelect | Refused {
  if (fetch.maxDepth < 1) return { refused: "unlimited fetch depth" };
  return selects(model).get(selectKey(meta, selector, fetch, answerBytes), () => build(model, meta, selector, fetch, answerBytes));
}

/**
 * Each selector's last key per class, with the fetch plan and bound it was made for: a request
 * usually repeats the one before it (the same plan object, from the fetch plans' caches), and then
 * takes the same text, whose hash the runtime kept, instead of joining a new one and hashing it (a
 * GET by key's and a filter's lookup). One entry per selector and class: held weakly by both.
 */
const lastKeys = new WeakMap<RootSelector, WeakMap<ClassMeta, { fetch: FetchPlan; answerBytes: number; key: string }>>();

function selectKey(meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes: number): string {
  let byClass = lastKeys.get(selector);
  if (!byClass) lastKeys.set(selector, (byClass = new WeakMap()));
  const last = byClass.get(meta);
  if (last !== undefined && last.fetch === fetch && last.answerBytes === answerBytes) return last.key;
  const key = `${meta.name}|${selector.kind === "subquery" ? "q:" + selector.cacheKey : selector.kind}|${planKey(fetch)}|${fetch.maxDepth}|${answerBytes}`;
  byClass.set(meta, { fetch, answerBytes, key });
  return key;
}

function build(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, answerBytes: number): JsonSelect | Refused {
  try {
    const writer = new Writer(model, fetch, answerBytes);
    // A query's keys are built once (its prepared query keeps no SQL tree, only the query).
    const subquery = selector.kind === "subquery" ? selector.keys(meta) : undefined;
    const ordered = selector.kind === "subquery" && !!selector.ordered;
    const keys = ordered ? subquery! : rootKeys(model, meta, selector, subquery);
    const groups = groupsOf(model, meta);
    const queries = groups.map((group) => writer.root(meta, group, selector.kind === "extent" ? "extent" : ordered ? "ordered" : "keys", keys));
    const steps = groups.map((group, i) => ({ group, compiled: checked(compile(queries[i]!)) }));
    // The rows in their order feed the aggregate in that order (as a collection's do).
    const maxRows = Math.floor(answerBytes / shortestObject(model, meta));
    const rows = Number.isFinite(maxRows) ? sql`SELECT * FROM (${queries[0]!}) LIMIT ${sql.raw(String(maxRows + 1))}` : queries[0]!;
    // The greatest key of a long or BigInteger, read as its digits past 2^53, is the greatest integer.
    const last = groups[0]!.wideKeys[0] ? exactIntegerSql(sql`max(k0 + 0)`) : sql`max(k0)`;
    // The whole array, brackets too: an answer of one page is then sent as SQLite wrote it (JsonArray).
    const array =
      groups.length === 1 && meta.keyColumns.length === 1
        ? checked(
            compile(
              sql`SELECT '[' || coalesce(${bounded(sql`group_concat(j, ',')`, answerBytes)}, '') || ']' AS a, count(*) AS n, count(j) AS m, ${last} AS k, j AS t FROM (${rows})`,
            ),
          )
        : undefined;
    return { steps, ordered, array, maxRows, fixedCost: selector.kind === "key" && !writer.readsByForeignKey };
  } catch (error) {
    if (error instanceof NotInSql) return { refused: error.message, tooLarge: error.tooLarge };
    throw error;
  }
}

/** The fewest characters an object of `meta`'s subtree takes in an array: `{"class":"…","k":0},`. */
export function shortestObject(model: Model, meta: ClassMeta): number {
  const name = Math.min(...subtree(model, meta.name).map((c) => c.name.length));
  return '{"class":"",}'.length + name + keyFieldColumns(meta).reduce((n, k) => n + k.field.length + 4, 0);
}

/** A statement within D1's size limit and SQLite's parser nesting, or NotInSql. */
function checked(compiled: Compiled): Compiled {
  if (compiled.sql.length > MAX_SQL_LENGTH) throw new NotInSql("a statement over the size limit", true);
  if (parserNesting(compiled.sql) > PARSER_BUDGET) throw new NotInSql("a statement nested deeper than SQLite's parser reads", true);
  return compiled;
}
