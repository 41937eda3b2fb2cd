/**
 * An extent in pages, for answers streamed as they are read: what a page is and where the next
 * starts (the read façade, src/read/read-objects.ts, reads it). A page is the extent's read with
 * its candidate keys cut to a key range: keyset pagination in the order the whole extent is read
 * in (table group by table group, each by key), `key > last` rather than OFFSET, so every page
 * costs the same however far into the extent it starts. Each page is one read batch with the same
 * statements as the whole extent's (plus the level-by-level rounds beyond the batch's depth, as for
 * any read), so round trips grow with extent size / page size only.
 */
import { type ClassMeta, type Model, subtree } from "../metadata/model.ts";
import type { StatementResult } from "../store/store.ts";
import { type SQL, ident, join, param, sql, tuple, unplanned } from "../store/sql.ts";
import { arrayElements } from "../json/array-stream.ts";
import { type JsonArray, type JsonRow, jsonTexts } from "./json-rows.ts";
import type { IdentityMap, LoadedObject } from "./objects.ts";
import type { ReadPlan, RootSelector } from "./read-plan.ts";
import { type GroupLayout, discriminatorFilter, groupsOf, keyRefs, primaryOf } from "./row-layout.ts";

/** Where the next page starts: after `key` (at it, when `inclusive`) in the extent's table group `group`. */
export interface Cursor {
  group: number;
  key: readonly unknown[];
  inclusive?: boolean;
}

/** A page as JSON texts (each one object, or several joined by commas) and where the next starts (absent on the last page). */
export interface PageJson {
  elements: string[];
  /** The page's elements as one JSON array text, when SQL wrote it so (answered as it is when the page is the only one). */
  array?: string;
  next?: Cursor;
}

/**
 * A page read by a JSON select's `array` row: the page's texts joined, and the row one past the
 * page (which the read peeks at).
 */
export function arrayPage(page: JsonArray, size: number): PageJson {
  const joined = arrayElements(page.array);
  if (page.rows <= size) return { elements: joined ? [joined] : [], array: page.array };
  // That row's text (when it is visible) ends the joined texts; the next page starts at its key.
  const text = page.lastText === null ? joined : joined.slice(0, Math.max(0, joined.length - page.lastText.length - 1));
  return { elements: text ? [text] : [], next: { group: 0, key: [page.lastKey], inclusive: true } };
}

/** A page read by a JSON select's rows: every root row, visible or not, in extent order (the cursor follows rows, not objects). */
export function rowsPage(rows: readonly JsonRow[], size: number): PageJson {
  if (rows.length <= size) return { elements: jsonTexts(rows) };
  const last = rows[size - 1]!;
  return { elements: jsonTexts(rows.slice(0, size)), next: { group: last.group, key: last.key } };
}

/**
 * A page read by the object path: its root objects (the one read past the page left out) and
 * where the next starts. The root rows, visible or not (a row of a class outside the model decodes
 * to nothing), in extent order: the cursor follows rows, not objects, so no row is skipped or read twice.
 */
export function loadedPage(
  model: Model,
  meta: ClassMeta,
  plan: ReadPlan,
  results: readonly StatementResult[],
  objects: IdentityMap,
  roots: LoadedObject[],
  size: number,
): { roots: LoadedObject[]; next?: Cursor } {
  const groups = groupsOf(model, meta);
  const rows: Cursor[] = [];
  plan.steps.forEach((step, i) => {
    if (step.kind !== "rows" || step.node !== plan.root) return;
    const group = groups.indexOf(step.group);
    for (const row of results[i]!.rows) rows.push({ group, key: row.slice(0, step.group.keyColumns.length) });
  });
  if (rows.length <= size) return { roots };
  const peeked = objects.get(meta.root, rows[size]!.key);
  if (peeked && roots[roots.length - 1] === peeked) roots = roots.slice(0, -1);
  return { roots, next: rows[size - 1]! };
}

/** The page's placeholders: one row more than it answers (so the last page is known without another read), after the cursor. */
export function pageValues(size: number, after: Cursor | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = { limit: size + 1 };
  after?.key.forEach((v, i) => (values[`after${i}`] = v));
  return values;
}

/** Aliases of the key subquery (`p0`), apart from the `t0` of the statements it is nested in. */
const PREFIX = "p";

/**
 * The selectors of a class's extent pages, each made once: a page's cursor is bound as parameters,
 * so its selector depends only on where the cursor is (which table group, after or from a key).
 * A selector made per request cost a closure each, and under tsx (Node) a defineProperty naming it.
 */
const selectors = new WeakMap<ClassMeta, Map<string, RootSelector>>();

/** The page's candidates: the next keys of the extent, in its order, at most `limit` (one more than the page: pageValues). */
export function pageSelector(model: Model, meta: ClassMeta, after: Cursor | undefined): RootSelector {
  const start = after?.group ?? 0;
  const cursor = after ? (after.inclusive ? ">=" : ">") : undefined;
  const cacheKey = `extent-page:${start}:${cursor === undefined ? "first" : cursor === ">=" ? "from" : "after"}`;
  let made = selectors.get(meta);
  if (!made) selectors.set(meta, (made = new Map()));
  let selector = made.get(cacheKey);
  if (!selector) {
    selector = { kind: "subquery", cacheKey, keys: () => pageKeys(model, meta, groupsOf(model, meta).slice(start), cursor) };
    made.set(cacheKey, selector);
  }
  return selector;
}

/**
 * The page's keys. One table group (the common case): its keys after the cursor (from it, for an
 * inclusive one), by key, which
 * the primary key's index answers without a scan. Several (complete-table): each group's first
 * keys after the cursor (the cursor's group only), tagged with the group's position, merged in
 * (group, key) order.
 */
function pageKeys(model: Model, meta: ClassMeta, groups: readonly GroupLayout[], cursor: ">" | ">=" | undefined): SQL {
  const classes = subtree(model, meta.name);
  const limit = unplanned(param("limit"));
  const select = (group: GroupLayout, after: boolean, columns: SQL) => {
    const keys = keyRefs(group, PREFIX);
    const filter = discriminatorFilter(group, classes, PREFIX);
    const conditions = [
      ...(filter ? [filter] : []),
      ...(after ? [sql`${tuple(keys)} ${sql.raw(cursor!)} ${tuple(keys.map((_, i) => param(`after${i}`)))}`] : []),
    ];
    const where = conditions.length ? sql` WHERE ${join(conditions, sql` AND `)}` : sql``;
    return sql`SELECT ${columns} FROM ${primaryOf(group, PREFIX)}${where} ORDER BY ${join(keys)} LIMIT ${limit}`;
  };
  if (groups.length === 1) return select(groups[0]!, !!cursor, join(keyRefs(groups[0]!, PREFIX)));
  const names = meta.keyColumns.map((_, i) => ident(`_k${i}`));
  const arms = groups.map((group, g) => {
    const columns = join([sql`${sql.raw(String(g))} AS ${ident("_g")}`, ...keyRefs(group, PREFIX).map((k, i) => sql`${k} AS ${names[i]!}`)]);
    // A compound SELECT's arms cannot have their own ORDER BY and LIMIT: each is a subquery.
    return sql`SELECT * FROM (${select(group, !!cursor && g === 0, columns)})`;
  });
  return sql`SELECT ${join(names)} FROM (${join(arms, sql` UNION ALL `)}) ORDER BY ${ident("_g")}, ${join(names)} LIMIT ${limit}`;
}
