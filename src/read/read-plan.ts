/**
 * Read plans: a request for objects becomes a tree of nodes (the candidates, then the objects
 * reached through each relation field of the fetch plan, level by level) and every node becomes
 * SELECTs whose candidate keys are a subquery of its parent's. No statement depends on a previous
 * statement's results, so the whole tree runs as one batch: one round trip, and a number of
 * statements fixed by the model and the fetch plan, never by the number of objects.
 *
 * Plans are compiled once per (class, selector, fetch plan) and cached; a request only binds
 * its parameters.
 */
import { type ClassMeta, type FieldMeta, type Model, classOf, subtree } from "../metadata/model.ts";
import { ownerFkColumns, relationStorage, tablesHolding } from "../mapping/relation-storage.ts";
import { type Compiled, type SQL, compile, distinctNames, ident, join, qualified, sql, tuple } from "../store/sql.ts";
import { type FetchPlan, hides, planFields, planKey } from "./fetch-plan.ts";
import { READ_PLAN_LIMIT, READ_PLAN_WEIGHT, perModelCache } from "../cache/bounded-cache.ts";
import { type GroupLayout, alias, discriminatorFilter, extentKeys, fromClause, groupsOf, keyRefs, readKey, selectList, selectParts } from "./row-layout.ts";

/** Which objects a plan starts from. */
export type RootSelector =
  /** The whole extent of the class, subclasses included. */
  | { kind: "extent" }
  /** The objects whose keys are in the `keys` placeholder: a JSON array of keys (arrays for composite keys). */
  | { kind: "keys" }
  /** One key (a GET by key), read without a table of keys: `oneKey`'s placeholder. */
  | { kind: "key" }
  /**
   * A subquery yielding key tuples, compiled by the caller (queries, writes that read back).
   * `ordered`: its columns are `_k0`, `_k1`..., `_ord`, and the objects come back in `_ord` order.
   * `cut`, where given, is the same keys cut to `limit` rows by the subquery itself (a LIMIT of
   * its own costs SQLite less than a SELECT around it).
   */
  | { kind: "subquery"; cacheKey: string; keys: (meta: ClassMeta) => SQL; cut?: (meta: ClassMeta, limit: SQL) => SQL; ordered?: boolean };

/** A selector given by a subquery (a query's candidates). */
export type SubquerySelector = Extract<RootSelector, { kind: "subquery" }>;

export interface PlanNode {
  meta: ClassMeta;
  level: number;
  edges: PlanEdge[];
}

export interface PlanEdge {
  field: FieldMeta;
  /** A mapped-by field over a foreign key: the related objects' field naming their owner. */
  backRef?: FieldMeta;
  /** The node of the related objects; absent when the stubs can be written from the owner's row alone. */
  node?: PlanNode;
}

export type Step =
  /**
   * `ordered`: each row ends with its position in the query's order. `full`: every column;
   * otherwise key, class and version only (objects the JSON can only show as identities).
   */
  | { kind: "rows"; node: PlanNode; group: GroupLayout; compiled: Compiled; full: boolean; ordered?: boolean; backRef?: FieldMeta }
  /** Rows of (owner key..., element key...) of a join table, in collection order; `from` holds the owners. */
  | { kind: "links"; from: PlanNode; edge: PlanEdge; ownerWidth: number; compiled: Compiled };

export interface ReadPlan {
  root: PlanNode;
  fetch: FetchPlan;
  /** Levels whose relations this plan loads (objects one level deeper are read, not expanded). */
  depth: number;
  steps: Step[];
}

/**
 * Read plans per model: an LRU of READ_PLAN_LIMIT entries (a query's text is part of its key)
 * weighing READ_PLAN_WEIGHT in all, a plan weighing its key and its statements' SQL.
 */
const plans = perModelCache<ReadPlan>("readPlans", READ_PLAN_LIMIT, {
  limit: READ_PLAN_WEIGHT,
  weigh: (key, plan) => plan.steps.reduce((n, s) => n + s.compiled.sql.length, key.length),
});

/** The plan reading `meta`'s objects to `depth` levels (the loader goes on level by level beyond). */
export function readPlan(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, depth: number): ReadPlan {
  const key = `${meta.name}|${selector.kind === "subquery" ? "q:" + selector.cacheKey : selector.kind}|${planKey(fetch)}|${depth}${reachesLastLevel(fetch, depth) ? "|last" : ""}`;
  return plans(model).get(key, () => buildPlan(model, meta, selector, fetch, depth));
}

/**
 * How many levels one batch covers: the fetch depth, unless its plan would exceed
 * MAX_STATEMENTS (plans grow with branching^depth), then as many levels as fit, at least one.
 */
export function batchDepth(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan): number {
  const wanted = fetch.maxDepth < 0 ? MAX_BATCH_DEPTH : Math.min(fetch.maxDepth, MAX_BATCH_DEPTH);
  let depth = 1;
  while (depth < wanted && readPlan(model, meta, selector, fetch, depth + 1).steps.length <= MAX_STATEMENTS) depth++;
  return depth;
}

/**
 * The plan's depth is the fetch depth itself: the objects one level beyond it can only be written
 * as identities, so they are read as key and class alone (a request for one book with its
 * author reads the author's other works as identities, not their every column).
 */
function reachesLastLevel(fetch: FetchPlan, depth: number): boolean {
  return fetch.maxDepth >= 0 && depth >= fetch.maxDepth;
}

const MAX_STATEMENTS = 64;
const MAX_BATCH_DEPTH = 4;

function buildPlan(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, depth: number): ReadPlan {
  const steps: Step[] = [];
  const root: PlanNode = { meta, level: 0, edges: [] };
  // A query's keys are built once per plan (its prepared query keeps no SQL tree, only the query).
  const subquery = selector.kind === "subquery" ? selector.keys(meta) : undefined;
  const keys = rootKeys(model, meta, selector, subquery);
  if (selector.kind === "subquery" && selector.ordered) addOrderedRows(model, root, subquery!, steps);
  else addRows(model, root, keys, steps, selector.kind === "extent", true);
  expand(model, root, keys, fetch, depth, steps);
  return { root, fetch, depth, steps };
}

/** The root's candidate keys as a subquery. */
export function rootKeys(model: Model, meta: ClassMeta, selector: RootSelector, subquery: SQL | undefined): SQL {
  if (selector.kind === "subquery" && selector.ordered) {
    return sql`SELECT ${join(meta.keyColumns.map((_, i) => sql.raw(`_k${i}`)))} FROM (${subquery!})`;
  }
  if (selector.kind === "subquery") return subquery!;
  if (selector.kind === "keys") return keysFromJson(meta.keyColumns.length);
  if (selector.kind === "key") return oneKey(meta.keyColumns.length);
  return extentKeys(model, meta);
}

/** Keys given as a JSON array in the `keys` placeholder: one parameter, however many keys. */
export function keysFromJson(width: number): SQL {
  if (width === 1) return sql`SELECT value FROM json_each(${sql.placeholder("keys")})`;
  const parts = Array.from({ length: width }, (_, i) => sql.raw(`json_extract(value, '$[${i}]')`));
  return sql`SELECT ${join(parts)} FROM json_each(${sql.placeholder("keys")})`;
}

/**
 * The one key in the `keys` placeholder, for `IN (…)`: a single column's is the value itself,
 * which SQLite reads as `= ?` (a key read through json_each cost a GET by key's statement 18.2
 * µs, through json_extract 16.0 µs, and json_extract alone was 1,700 of its 16,500 instructions in
 * SQLite); a composite key's is a JSON array, read as keysFromJson reads it. A whole number binds
 * as a REAL in every driver, which the key column's affinity (or the rowid's search) reads as the
 * integer it is; keys past 2^53 come as text, which the affinity reads exactly.
 */
export function oneKey(width: number): SQL {
  return width === 1 ? sql`${sql.placeholder("keys")}` : keysFromJson(width);
}

/** The `keys` placeholder's value for oneKey: the key's one value, or its parts as a JSON array. */
export const oneKeyParam = (key: readonly unknown[]): unknown => (key.length === 1 ? key[0] : JSON.stringify([key]));

/**
 * Rows of the node's objects: every column, or (`wantFull` false) key, class and version only,
 * plus the foreign key `backRef` when the owners find their related objects by it (1-N mapped-by).
 */
function addRows(model: Model, node: PlanNode, keys: SQL, steps: Step[], wholeExtent: boolean, wantFull: boolean, backRef?: FieldMeta): void {
  for (const group of groupsOf(model, node.meta)) {
    // Without a discriminator, only the subclass tables' rows tell several classes apart; a
    // back reference outside the primary table needs them too.
    const stub = !wantFull && (group.discriminatorColumn !== undefined || group.classes.length === 1) && (!backRef || holdsInPrimary(group, backRef));
    const filter = discriminatorFilter(group, subtree(model, node.meta.name));
    const where = wholeExtent ? filter : sql`${tuple(keyRefs(group))} IN (${keys})`;
    const columns =
      stub && backRef
        ? distinctNames([
            ...selectParts(group, false),
            ...readKey(
              classOf(model, backRef.relation!.target),
              ownerFkColumns(model, backRef).map((c) => qualified(alias(0), c)),
            ),
          ])
        : selectList(group, !stub);
    const query = sql`SELECT ${columns} FROM ${fromClause(group, !stub)}${where ? sql` WHERE ${where}` : sql``} ORDER BY ${join(keyRefs(group))}`;
    steps.push({ kind: "rows", node, group, compiled: compile(query), full: !stub, backRef: stub ? backRef : undefined });
  }
}

/** The field's foreign key is in the group's primary table, for every class of the group that has the field. */
function holdsInPrimary(group: GroupLayout, field: FieldMeta): boolean {
  return group.classes.every((c) => !c.fields.has(field.name) || c.fieldTables.get(field.name) === group.primaryTable);
}

/** Root rows in the order a query chose: joined to its ordered keys. */
function addOrderedRows(model: Model, node: PlanNode, keys: SQL, steps: Step[]): void {
  for (const group of groupsOf(model, node.meta)) {
    const on = keyRefs(group).map((k, i) => sql`${k} = ${sql.raw(`"q"._k${i}`)}`);
    // `_ord` comes last: the rows of several groups are merged in the query's order.
    const query = sql`SELECT ${selectList(group, true)}, "q"._ord FROM ${fromClause(group, true)} JOIN (${keys}) "q" ON ${join(on, sql` AND `)} ORDER BY "q"._ord`;
    steps.push({ kind: "rows", node, group, compiled: compile(query), full: true, ordered: true });
  }
}

/**
 * Relation fields over the node's class and its subclasses, each once: those of the fetch plan,
 * and owned to-one references outside it (their key is in the row, so they are written as identities).
 */
function relationFields(model: Model, meta: ClassMeta, fetch: FetchPlan): { field: FieldMeta; inPlan: boolean }[] {
  const seen = new Map<string, { field: FieldMeta; inPlan: boolean }>();
  for (const c of subtree(model, meta.name)) {
    const inPlan = new Set(planFields(c, fetch));
    for (const f of c.fields.values()) {
      if (!f.relation) continue;
      const id = `${f.declaringClass}.${f.name}`;
      const entry = seen.get(id);
      if (inPlan.has(f)) seen.set(id, { field: f, inPlan: true });
      else if (!entry && !hides(fetch, c, f) && relationStorage(model, f).kind === "owner-fk") seen.set(id, { field: f, inPlan: false });
    }
  }
  return [...seen.values()];
}

function expand(model: Model, node: PlanNode, keys: SQL, fetch: FetchPlan, depth: number, steps: Step[]): void {
  for (const { field, inPlan } of relationFields(model, node.meta, fetch)) {
    const target = classOf(model, field.relation!.target);
    const edge: PlanEdge = { field, backRef: backReference(model, field) };
    node.edges.push(edge);
    const storage = relationStorage(model, field);
    const frontier = node.level >= depth || !inPlan;
    // Beyond the fetch depth (or outside the plan) the related objects are identities only...
    const identitiesOnly = !inPlan || (frontier && reachesLastLevel(fetch, depth));
    // ...and those of a to-one reference come from the owner's foreign key, unless the class needs
    // reading. (At a batch's last level short of the fetch depth they are read in full: the next
    // round expands them.)
    if (identitiesOnly && storage.kind === "owner-fk" && subtree(model, target.name).length === 1) continue;
    const childKeys = relatedKeys(model, node.meta, field, keys);
    if (!childKeys) continue;
    const links = linkStatement(model, field, keys);
    if (links) steps.push({ kind: "links", from: node, edge, ownerWidth: node.meta.keyColumns.length, compiled: compile(links) });
    const child: PlanNode = { meta: target, level: node.level + 1, edges: [] };
    edge.node = child;
    // Beyond the fetch depth, or outside the fetch plan, the related objects are only identities.
    addRows(model, child, childKeys, steps, false, !identitiesOnly, edge.backRef);
    if (!frontier) expand(model, child, childKeys, fetch, depth, steps);
  }
}

/** For a 1-N mapped-by field: the related class's reference to the owner (its foreign key says whose it is). */
function backReference(model: Model, field: FieldMeta): FieldMeta | undefined {
  const s = relationStorage(model, field);
  return s.kind === "target-fk" ? s.owning : undefined;
}

const cols = (names: readonly string[]) => names.map((n) => ident(n));

/** The keys of the objects related to the parent's candidates (`keys`) through `field`. */
function relatedKeys(model: Model, owner: ClassMeta, field: FieldMeta, keys: SQL): SQL | undefined {
  const target = classOf(model, field.relation!.target);
  const s = relationStorage(model, field);
  const union = (parts: SQL[]) => (parts.length ? join(parts, sql` UNION `) : undefined);
  switch (s.kind) {
    case "owner-fk":
      return union(
        tablesHolding(model, owner, field.name).map(
          (t) => sql`SELECT ${join(cols(s.columns))} FROM ${ident(t)} WHERE ${tuple(cols(owner.keyColumns))} IN (${keys})`,
        ),
      );
    case "target-fk":
      return union(s.tables.map((t) => sql`SELECT ${join(cols(target.keyColumns))} FROM ${ident(t)} WHERE ${tuple(cols(s.columns))} IN (${keys})`));
    case "join-table":
      return sql`SELECT ${join(cols(s.elementColumns))} FROM ${ident(s.table)} WHERE ${tuple(cols(s.ownerColumns))} IN (${keys})`;
  }
}

/** For join tables: the (owner, element) pairs, which say which object holds which, in order. */
function linkStatement(model: Model, field: FieldMeta, keys: SQL): SQL | undefined {
  const s = relationStorage(model, field);
  if (s.kind !== "join-table") return undefined;
  const owner = classOf(model, field.declaringClass);
  const target = classOf(model, field.relation!.target);
  // The pairs are read into the loader: keys that are longs or BigIntegers read exactly.
  const pairs = join([...readKey(owner, cols(s.ownerColumns)), ...readKey(target, cols(s.elementColumns))]);
  return sql`SELECT ${pairs} FROM ${ident(s.table)} WHERE ${tuple(cols(s.ownerColumns))} IN (${keys}) ORDER BY ${join(cols([...s.ownerColumns, ...s.order]))}`;
}
