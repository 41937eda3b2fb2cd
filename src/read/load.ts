/**
 * Running a read plan: one batch, then rows become objects in an identity map and relations are
 * wired between them. When the fetch depth is deeper than one batch's plan covers (unlimited,
 * or a plan that would be too large), the loader goes on level by level from the objects not yet
 * expanded: one more round trip per step of the object graph, never per object; cycles are cut
 * by identity.
 */
import type { ClassMeta, FieldMeta, Model } from "../metadata/model.ts";
import { bind } from "../store/sql.ts";
import type { Statement, StatementResult, Store } from "../store/store.ts";
import type { FetchPlan } from "./fetch-plan.ts";
import { IdentityMap, type LoadedObject } from "./objects.ts";
import { type PlanEdge, type PlanNode, type ReadPlan, type RootSelector, type Step, batchDepth, readPlan } from "./read-plan.ts";
import { decodeRow } from "./row-layout.ts";
import { append } from "../util/lists.ts";

export interface Loaded {
  roots: LoadedObject[];
  objects: IdentityMap;
}

/** Bounds the level-by-level expansion: a request never runs more batches than this. */
const MAX_ROUNDS = 64;

/**
 * Whether the level-by-level expansion always reaches the fetch depth (it can stop at MAX_ROUNDS
 * only when the depth is unlimited or deeper than MAX_ROUNDS levels). Then every object the JSON
 * writes in full within the depth is loaded and expanded whichever other objects the request read,
 * so an object's JSON depends on the object and the fetch plan alone, and an extent read in pages
 * answers the same JSON as the extent read at once.
 */
export function reachesFetchDepth(fetch: FetchPlan): boolean {
  return fetch.maxDepth >= 1 && fetch.maxDepth <= MAX_ROUNDS;
}

/** Statements of a plan, bound to the request's values (`keys` and the caller's placeholders). */
export function planStatements(plan: ReadPlan, values: Record<string, unknown>): Statement[] {
  return plan.steps.map((s) => bind(s.compiled, values));
}

/** The plan a request's first batch runs. */
export function firstPlan(model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan): ReadPlan {
  return readPlan(model, meta, selector, fetch, batchDepth(model, meta, selector, fetch));
}

/** Reads objects: one round trip when the fetch depth fits one plan. */
export async function load(
  store: Store,
  model: Model,
  meta: ClassMeta,
  selector: RootSelector,
  fetch: FetchPlan,
  values: Record<string, unknown> = {},
): Promise<Loaded> {
  return loadPlan(store, model, firstPlan(model, meta, selector, fetch), fetch, values);
}

/** Runs a first plan and expands what it read to the fetch depth; `results` are the first batch's (the root rows, for cursors). */
export async function loadPlan(
  store: Store,
  model: Model,
  plan: ReadPlan,
  fetch: FetchPlan,
  values: Record<string, unknown>,
): Promise<Loaded & { results: StatementResult[] }> {
  const results = await store.batch(planStatements(plan, values), "read");
  const objects = new IdentityMap();
  const roots = assemble(plan, results, objects);
  await expandFurther(store, model, fetch, objects);
  return { roots, objects, results };
}

/** Turns the results of a plan's statements into objects; returns the root objects in order. */
export function assemble(plan: ReadPlan, results: readonly StatementResult[], objects: IdentityMap, baseLevel = 0): LoadedObject[] {
  const atNode = new Map<PlanNode, LoadedObject[]>();
  const linkSteps: { step: Extract<Step, { kind: "links" }>; rows: unknown[][] }[] = [];
  const position = new Map<LoadedObject, number>();
  plan.steps.forEach((step, i) => {
    const rows = results[i]!.rows;
    if (step.kind === "links") return void linkSteps.push({ step, rows });
    const list = atNode.get(step.node) ?? [];
    const expanded = step.node.level <= plan.depth;
    for (const row of rows) {
      const decoded = decodeRow(step.group, row, step.full);
      if (!decoded) continue;
      // An identity row ends with its reference to its owner, which wires it into the owner's collection.
      if (step.backRef) setBackRef(decoded, step.backRef, row);
      const obj = objects.put(decoded);
      obj.level = Math.min(obj.level, baseLevel + step.node.level);
      if (expanded && step.full) obj.expanded = true;
      if (step.ordered) position.set(obj, Number(row[row.length - 1]));
      list.push(obj);
    }
    atNode.set(step.node, list);
  });
  // Root rows of several table groups come back group by group: merge them in query order.
  if (position.size) atNode.get(plan.root)?.sort((a, b) => position.get(a)! - position.get(b)!);
  for (const { step, rows } of linkSteps) {
    const byOwner = new Map<string, LoadedObject[]>();
    for (const row of rows) {
      const element = objects.get(step.edge.node!.meta.root, row.slice(step.ownerWidth));
      const k = ownerKey(row.slice(0, step.ownerWidth));
      if (element) append(byOwner, k, element);
    }
    wire(step.edge, atNode.get(step.from) ?? [], byOwner);
  }
  wireInverse(plan.root, atNode);
  return atNode.get(plan.root) ?? [];
}

function setBackRef(obj: LoadedObject, field: FieldMeta, row: readonly unknown[]): void {
  const fk = row.slice(row.length - field.fkColumns!.length);
  obj.refs.set(field.name, fk.every((v) => v === null || v === undefined) ? null : fk);
}

/** A key as a map key; the single number or text skips JSON (this runs for every related object). */
function ownerKey(key: readonly unknown[]): string {
  if (key.length === 1) {
    const k = key[0];
    if (typeof k === "number") return `n${k}`;
    if (typeof k === "string") return `s${k}`;
  }
  return JSON.stringify(key);
}

/** Sets the edge's field on each owner from owner key → related objects. */
function wire(edge: PlanEdge, owners: readonly LoadedObject[], byOwner: Map<string, LoadedObject[]>): void {
  const field = edge.field;
  for (const owner of owners) {
    // Each class has its own FieldMeta for an inherited field: compare by declaring class.
    if (owner.meta.fields.get(field.name)?.declaringClass === field.declaringClass && !owner.related.has(field.name))
      owner.related.set(field.name, byOwner.get(ownerKey(owner.key)) ?? []);
  }
}

/** Inverse foreign keys (1-N mapped-by, inverse 1-1): the related objects name their owner. */
function wireInverse(node: PlanNode, atNode: Map<PlanNode, LoadedObject[]>): void {
  for (const edge of node.edges) {
    if (edge.backRef && edge.node) {
      const byOwner = new Map<string, LoadedObject[]>();
      for (const element of atNode.get(edge.node) ?? []) {
        const fk = element.refs.get(edge.backRef.name);
        if (!fk) continue;
        const k = ownerKey(fk);
        append(byOwner, k, element);
      }
      wire(edge, atNode.get(node) ?? [], byOwner);
    }
    if (edge.node) wireInverse(edge.node, atNode);
  }
}

/** Expands, level by level, the objects within the fetch depth whose relations are not loaded yet. */
export async function expandFurther(store: Store, model: Model, fetch: FetchPlan, objects: IdentityMap): Promise<void> {
  const limit = fetch.maxDepth < 0 ? Infinity : fetch.maxDepth;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const frontier = objects.all().filter((o) => o.full && !o.expanded && o.level <= limit);
    if (!frontier.length) return;
    const byClassAndLevel = new Map<string, LoadedObject[]>();
    for (const o of frontier) {
      const k = `${o.meta.name}|${o.level}`;
      append(byClassAndLevel, k, o);
    }
    const batches = [...byClassAndLevel.values()].map((objs) => {
      const plan = firstPlan(model, objs[0]!.meta, { kind: "keys" }, fetch);
      return {
        plan,
        level: objs[0]!.level,
        statements: planStatements(plan, { keys: JSON.stringify(objs.map((o) => (o.key.length === 1 ? o.key[0] : o.key))) }),
      };
    });
    const results = await store.batch(
      batches.flatMap((b) => b.statements),
      "read",
    );
    let offset = 0;
    for (const b of batches) {
      assemble(b.plan, results.slice(offset, offset + b.statements.length), objects, b.level);
      offset += b.statements.length;
    }
    frontier.forEach((o) => (o.expanded = true));
  }
}
