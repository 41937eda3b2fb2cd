/**
 * Reading an extent in pages, for answers streamed as they are read. A page is the extent's read
 * plan with its candidate keys cut to a key range: keyset pagination in the order the whole
 * extent is read in (table group by table group, each by key), `key > last` rather than OFFSET,
 * so every page costs the same however far into the extent it starts. Each page is one read
 * batch with the same statements as the whole extent's (plus the level-by-level rounds beyond the
 * batch's depth, as for any read), so round trips grow with extent size / page size only.
 */
import type { AnswerBudget } from "../json/answer-budget.ts";
import { type ClassMeta, type Model, subtree } from "../metadata/model.ts";
import type { Store } from "../store/store.ts";
import { type SQL, ident, join, param, sql, tuple } from "../store/sql.ts";
import type { FetchPlan } from "./fetch-plan.ts";
import { jsonRows, jsonStatements, jsonTexts, readJsonArray } from "./json-rows.ts";
import { jsonSelect } from "./json-select.ts";
import { assemble, expandFurther, firstPlan, planStatements } from "./load.ts";
import { IdentityMap, type LoadedObject } from "./objects.ts";
import type { RootSelector } from "./read-plan.ts";
import { type GroupLayout, discriminatorFilter, groupsOf, keyRefs, primaryOf } from "./row-layout.ts";

/** Where the next page starts: after `key` (at it, when `inclusive`) in the extent's table group `group`. */
export interface Cursor {
  group: number;
  key: readonly unknown[];
  inclusive?: boolean;
}

export interface ExtentPage {
  roots: LoadedObject[];
  objects: IdentityMap;
  /** Absent on the extent's last page. */
  next?: Cursor;
}

/** A page as JSON texts, written by a JSON select. */
export interface JsonPage {
  elements: string[];
  next?: Cursor;
}

/**
 * The page as `loadExtentPage` reads it, written by SQL (src/read/json-select.ts); undefined when
 * no JSON select can write it.
 */
export async function readExtentPageJson(store: Store, model: Model, meta: ClassMeta, fetch: FetchPlan, size: number, after: Cursor | undefined, budget: AnswerBudget): Promise<JsonPage | undefined> {
  const select = jsonSelect(model, meta, pageSelector(model, meta, after), fetch, budget.limit);
  if (!select) return undefined;
  if (select.array) {
    // One row: the page's texts joined, and the row one past the page (which the read peeks at).
    const page = await readJsonArray(store, select, pageValues(size, after));
    if (page.rows <= size) return { elements: page.text ? [page.text] : [] };
    // That row's text (when it is visible) ends the joined texts; the next page starts at its key.
    const text = page.lastText === null ? page.text : page.text.slice(0, Math.max(0, page.text.length - page.lastText.length - 1));
    return { elements: text ? [text] : [], next: { group: 0, key: [page.lastKey], inclusive: true } };
  }
  const results = await store.batch(jsonStatements(select, pageValues(size, after)), "read");
  // Every root row, visible or not, in extent order: the cursor follows rows, not objects.
  const rows = jsonRows(model, select, results);
  for (const r of rows) budget.spend(r.json?.length ?? 0);
  if (rows.length <= size) return { elements: jsonTexts(rows) };
  const last = rows[size - 1]!;
  return { elements: jsonTexts(rows.slice(0, size)), next: { group: last.group, key: last.key } };
}

/** The page's placeholders: one row more than it answers (so the last page is known without another read), after the cursor. */
function pageValues(size: number, after: Cursor | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = { limit: size + 1 };
  after?.key.forEach((v, i) => (values[`after${i}`] = v));
  return values;
}

/** Aliases of the key subquery (`p0`), apart from the `t0` of the statements it is nested in. */
const PREFIX = "p";

/**
 * Reads the `size` objects of `meta`'s extent that follow `after` (the first `size` without it).
 * The plan reads one object more than it answers: whether the extent goes on is known without a
 * round trip that finds nothing, so an extent of one page costs what it always did.
 */
export async function loadExtentPage(store: Store, model: Model, meta: ClassMeta, fetch: FetchPlan, size: number, after?: Cursor): Promise<ExtentPage> {
  const plan = firstPlan(model, meta, pageSelector(model, meta, after), fetch);
  const results = await store.batch(planStatements(plan, pageValues(size, after)), "read");
  const objects = new IdentityMap();
  let roots = assemble(plan, results, objects);
  await expandFurther(store, model, fetch, objects);
  // The root rows, visible or not (a row of a class outside the model decodes to nothing), in
  // extent order: the cursor follows rows, not objects, so no row is skipped or read twice.
  const groups = groupsOf(model, meta);
  const rows: Cursor[] = [];
  plan.steps.forEach((step, i) => {
    if (step.kind !== "rows" || step.node !== plan.root) return;
    const group = groups.indexOf(step.group);
    for (const row of results[i]!.rows) rows.push({ group, key: row.slice(0, step.group.keyColumns.length) });
  });
  if (rows.length <= size) return { roots, objects };
  const peeked = objects.get(meta.root, rows[size]!.key);
  if (peeked && roots[roots.length - 1] === peeked) roots = roots.slice(0, -1);
  return { roots, objects, next: rows[size - 1]! };
}

/** The plan's candidates: the next keys of the extent, in its order, at most `limit`. */
function pageSelector(model: Model, meta: ClassMeta, after: Cursor | undefined): RootSelector {
  const start = after?.group ?? 0;
  return {
    kind: "subquery",
    cacheKey: `extent-page:${start}:${after ? (after.inclusive ? "from" : "after") : "first"}`,
    keys: () => pageKeys(model, meta, groupsOf(model, meta).slice(start), after ? (after.inclusive ? ">=" : ">") : undefined),
  };
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
  const limit = param("limit");
  const select = (group: GroupLayout, after: boolean, columns: SQL) => {
    const keys = keyRefs(group, PREFIX);
    const filter = discriminatorFilter(group, classes, PREFIX);
    const conditions = [...(filter ? [filter] : []), ...(after ? [sql`${tuple(keys)} ${sql.raw(cursor!)} ${tuple(keys.map((_, i) => param(`after${i}`)))}`] : [])];
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
