/**
 * A query's candidates in pages, for answers streamed as they are read (the read façade,
 * src/read/read-objects.ts, reads them). A query's order can be anything its ORDER BY says, so no
 * key range follows it (as extent pages follow the key order): its ordered keys are read once, in
 * one statement bounded to what answerBytes could hold, and each page then reads its objects by
 * key, in the keys' order. A page costs what reading its objects by key costs, however far into
 * the answer it is, and the query runs twice in all (the first page's read, the keys), not once a
 * page.
 */
import type { ClassMeta } from "../metadata/model.ts";
import { type SQL, bind, boundedText, compile, join, param, sql, unplanned } from "../store/sql.ts";
import type { Statement, StatementResult } from "../store/store.ts";
import type { ReadPlan, RootSelector, SubquerySelector } from "./read-plan.ts";
import { readKey } from "./row-layout.ts";
import { withFields } from "../util/objects.ts";

/** The placeholders these statements add (a `$`, which no query parameter's name has). */
const MOST_KEYS = "$mostKeys";
const KEYS_BYTES = "$keysBytes";

/**
 * The query's first `size` candidates and one more, so whether more follow is known from the read
 * itself: the same statements as the whole answer's, its ordered keys cut to a count. Which ones
 * the cut keeps does not matter: the answer is used only when nothing was cut. The count is
 * written in the SQL (one text per page size), not bound as a bare `?`, which made SQLite prepare
 * the statement again at every run (70 µs to 220 µs for 20 matches; src/store/sql.ts, `unplanned`).
 */
export function firstCandidates(selector: SubquerySelector, size: number): SubquerySelector {
  let bySize = firsts.get(selector);
  if (!bySize) firsts.set(selector, (bySize = new Map()));
  let first = bySize.get(size);
  if (!first) bySize.set(size, (first = firstCandidatesOf(selector, size)));
  return first;
}

/**
 * The selectors firstCandidates made, per query selector and page size (one size per handler, in
 * practice): the same object for every request of a query, so what is cached by selector (its JSON
 * select's key) is found again. Held weakly by the query's selector, which the prepared queries'
 * cache bounds.
 */
const firsts = new WeakMap<SubquerySelector, Map<number, SubquerySelector>>();

function firstCandidatesOf(selector: SubquerySelector, size: number): SubquerySelector {
  const limit = sql.raw(String(Math.floor(size) + 1));
  return {
    kind: "subquery",
    cacheKey: `first:${size}:${selector.cacheKey}`,
    ordered: true,
    keys: (meta) => (selector.cut ? selector.cut(meta, limit) : sql`SELECT * FROM (${selector.keys(meta)}) LIMIT ${limit}`),
  };
}

/**
 * The statement reading the query's ordered keys as one row: `a` their JSON texts joined by commas
 * (a key's own JSON, an array for a composite key; longs and BigIntegers past 2^53 as their digits'
 * string, which the database reads back as the integer), `n` how many, at most `most` + 1 (one more
 * tells there are too many, without reading the rest). Past `bytes` characters the statement stops
 * (SQLITE_TOOBIG): string keys can be long. One row, so the keys cross into JavaScript as one string.
 */
export function candidateKeysStatement(meta: ClassMeta, selector: SubquerySelector, values: Record<string, unknown>, most: number, bytes: number): Statement {
  const refs = readKey(
    meta,
    meta.keyColumns.map((_, i) => sql.raw(`_k${i}`)),
  );
  const key = refs.length === 1 ? sql`json_quote(${refs[0]!})` : sql`json_array(${join(refs)})`;
  const keys = sql`SELECT ${key} AS j FROM (${selector.keys(meta)}) ORDER BY _ord LIMIT ${unplanned(param(MOST_KEYS))}`;
  const joined = sql`group_concat(j, ',')`;
  const statement = sql`SELECT ${boundedText(joined, param(KEYS_BYTES))} AS a, count(*) AS n FROM (${keys})`;
  const bound = bind(compile(statement), withFields(values, { [MOST_KEYS]: most + 1, [KEYS_BYTES]: bytes }));
  bound.oneRow = true;
  return bound;
}

/** The keys `candidateKeysStatement` read (its row), in the query's order: scalars, arrays for composite keys. */
export function candidateKeys(row: readonly unknown[]): { keys: unknown[]; count: number } {
  const [a, n] = row;
  return { keys: a === null || a === undefined ? [] : (JSON.parse(`[${a as string}]`) as unknown[]), count: Number(n) };
}

/**
 * A page's objects: those whose keys are in the `keys` placeholder (a JSON array, arrays for
 * composite keys), in the array's order. One shared selector: every query's pages use the same
 * plans. A key whose object is gone (deleted since the keys were read) reads nothing.
 */
export const BY_ORDERED_KEYS: RootSelector = { kind: "subquery", cacheKey: "ordered-keys", ordered: true, keys: orderedKeysFromJson };

function orderedKeysFromJson(meta: ClassMeta): SQL {
  const width = meta.keyColumns.length;
  if (width === 1) return sql`SELECT value AS _k0, key AS _ord FROM json_each(${param("keys")})`;
  const parts = Array.from({ length: width }, (_, i) => sql`${sql.raw(`json_extract(value, '$[${i}]')`)} AS ${sql.raw(`_k${i}`)}`);
  return sql`SELECT ${join(parts)}, key AS _ord FROM json_each(${param("keys")})`;
}

/** The `keys` placeholder of a page: its keys as one JSON array. */
export const pageKeysValues = (keys: readonly unknown[]): Record<string, unknown> => ({ keys: JSON.stringify(keys) });

/** How many root rows the object path's first batch read, visible or not (a row of a class outside the model decodes to nothing). */
export function rootRows(plan: ReadPlan, results: readonly StatementResult[]): number {
  let n = 0;
  plan.steps.forEach((step, i) => {
    if (step.kind === "rows" && step.node === plan.root) n += results[i]!.rows.length;
  });
  return n;
}
