/**
 * Running a read plan: one batch, then rows become objects in an identity map and relations are
 * wired between them. With unlimited depth (-1) the loader repeats with the newly reached objects
 * as roots until no new object appears: one round trip per level of the graph, cycles cut by
 * identity.
 */
import type { ClassMeta, Model } from "../metadata/model.ts";
import { bind } from "../store/sql.ts";
import type { Statement, StatementResult, Store } from "../store/store.ts";
import type { FetchPlan } from "./fetch-plan.ts";
import { IdentityMap, type LoadedObject } from "./objects.ts";
import { type PlanNode, type ReadPlan, type RootSelector, type Step, readPlan } from "./read-plan.ts";
import { decodeRow } from "./row-layout.ts";

export interface Loaded {
  roots: LoadedObject[];
  objects: IdentityMap;
}

const MAX_LEVELS = 64;

/** Statements of a plan, bound to the request's values (`keys` and the caller's placeholders). */
export function planStatements(plan: ReadPlan, values: Record<string, unknown>): Statement[] {
  return plan.steps.map((s) => bind(s.compiled, values));
}

/** Reads objects: one round trip for a finite depth. */
export async function load(store: Store, model: Model, meta: ClassMeta, selector: RootSelector, fetch: FetchPlan, values: Record<string, unknown> = {}): Promise<Loaded> {
  const plan = readPlan(model, meta, selector, fetch);
  const results = await store.batch(planStatements(plan, values), "read");
  const objects = new IdentityMap();
  const roots = assemble(plan, results, objects);
  if (fetch.maxDepth < 0) await expandUnlimited(store, model, fetch, roots, objects);
  return { roots, objects };
}

/** Turns the results of a plan's statements into objects; returns the root objects in order. */
export function assemble(plan: ReadPlan, results: readonly StatementResult[], objects: IdentityMap): LoadedObject[] {
  const atNode = new Map<PlanNode, LoadedObject[]>();
  const linkSteps: { step: Extract<Step, { kind: "links" }>; rows: unknown[][] }[] = [];
  plan.steps.forEach((step, i) => {
    const rows = results[i]!.rows;
    if (step.kind === "links") return void linkSteps.push({ step, rows });
    const list = atNode.get(step.node) ?? [];
    for (const row of rows) {
      const decoded = decodeRow(step.group, row, true);
      if (decoded) list.push(objects.put(decoded));
    }
    atNode.set(step.node, list);
  });
  for (const { step, rows } of linkSteps) {
    const edge = step.edge;
    const owners = new Map<string, LoadedObject[]>();
    for (const row of rows) {
      const ownerKey = row.slice(0, step.ownerWidth);
      const elementKey = row.slice(step.ownerWidth);
      const element = objects.get(edge.node!.meta.root, elementKey);
      const k = JSON.stringify(ownerKey);
      if (element) owners.set(k, [...(owners.get(k) ?? []), element]);
    }
    wireMany(plan.root, edge.field.name, owners, atNode, objects);
  }
  wireInverse(plan.root, atNode, objects);
  return atNode.get(plan.root) ?? [];
}

/** Sets `field` on every owner object of nodes that have the edge, from owner key → elements. */
function wireMany(root: PlanNode, fieldName: string, byOwner: Map<string, LoadedObject[]>, atNode: Map<PlanNode, LoadedObject[]>, _objects: IdentityMap): void {
  forEachNode(root, (node) => {
    if (!node.edges.some((e) => e.field.name === fieldName && e.node)) return;
    for (const owner of atNode.get(node) ?? []) {
      if (owner.meta.fields.has(fieldName) && !owner.related.has(fieldName)) owner.related.set(fieldName, byOwner.get(JSON.stringify(owner.key)) ?? []);
    }
  });
}

/** Inverse foreign keys (1-N mapped-by, inverse 1-1): the related objects name their owner. */
function wireInverse(root: PlanNode, atNode: Map<PlanNode, LoadedObject[]>, _objects: IdentityMap): void {
  forEachNode(root, (node) => {
    for (const edge of node.edges) {
      const s = edge.field.relation!.storage;
      if (s.kind !== "fk-inverse" || !edge.node) continue;
      const byOwner = new Map<string, LoadedObject[]>();
      for (const element of atNode.get(edge.node) ?? []) {
        const fk = element.refs.get(s.targetField);
        if (!fk) continue;
        const k = JSON.stringify(fk);
        byOwner.set(k, [...(byOwner.get(k) ?? []), element]);
      }
      for (const owner of atNode.get(node) ?? []) {
        if (owner.meta.fields.has(edge.field.name) && !owner.related.has(edge.field.name)) owner.related.set(edge.field.name, byOwner.get(JSON.stringify(owner.key)) ?? []);
      }
    }
  });
}

function forEachNode(node: PlanNode, visit: (n: PlanNode) => void): void {
  visit(node);
  for (const e of node.edges) if (e.node) forEachNode(e.node, visit);
}

/** Unlimited depth: keep loading from the objects whose relations are not known yet. */
async function expandUnlimited(store: Store, model: Model, fetch: FetchPlan, roots: LoadedObject[], objects: IdentityMap): Promise<void> {
  const expanded = new Set(roots.map((r) => r.id));
  for (let level = 0; level < MAX_LEVELS; level++) {
    const frontier = objects.all().filter((o) => !expanded.has(o.id) && o.full);
    if (!frontier.length) return;
    const byClass = new Map<ClassMeta, LoadedObject[]>();
    for (const o of frontier) byClass.set(o.meta, [...(byClass.get(o.meta) ?? []), o]);
    const plans = [...byClass].map(([meta, objs]) => ({ plan: readPlan(model, meta, { kind: "keys" }, fetch), keys: JSON.stringify(objs.map((o) => (o.key.length === 1 ? o.key[0] : o.key))) }));
    const statements = plans.flatMap(({ plan, keys }) => planStatements(plan, { keys }));
    const results = await store.batch(statements, "read");
    let offset = 0;
    for (const { plan } of plans) {
      assemble(plan, results.slice(offset, offset + plan.steps.length), objects);
      offset += plan.steps.length;
    }
    frontier.forEach((o) => expanded.add(o.id));
  }
}
