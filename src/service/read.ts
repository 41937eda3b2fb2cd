/**
 * GET and HEAD of objects: one read batch per request for a finite fetch depth. The JSON select
 * writes the answer where it can (src/read/json-select.ts); the loader and serializer otherwise.
 */
import { type ObjectJson, serialized } from "../json/answer.ts";
import { AnswerBudget } from "../json/answer-budget.ts";
import { Serializer } from "../read/serialize.ts";
import { keyString } from "../mapping/keys.ts";
import { type ClassMeta, isAncestor } from "../metadata/model.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { readJson } from "../read/json-rows.ts";
import { jsonSelect } from "../read/json-select.ts";
import { load } from "../read/load.ts";
import { findExisting } from "../write/resolve.ts";
import { noSuchObject } from "./absent.ts";
import type { Runtime } from "./runtime.ts";

const keysParam = (key: readonly unknown[]) => JSON.stringify([key.length === 1 ? key[0] : key]);

export async function getObject(rt: Runtime, meta: ClassMeta, key: unknown[], fetch: FetchPlan): Promise<ObjectJson> {
  const values = { keys: keysParam(key) };
  const notFound = () => noSuchObject(rt.model, meta, key);
  const budget = new AnswerBudget(rt.limits.answerBytes);
  const select = jsonSelect(rt.model, meta, { kind: "keys" }, fetch, budget.limit);
  if (select) {
    const found = (await readJson(rt.store, rt.model, select, values, true)).find((r) => r.json !== null);
    if (!found) throw notFound();
    return { json: budget.checked(found.json!), version: found.version };
  }
  const { roots, objects } = await load(rt.store, rt.model, meta, { kind: "keys" }, fetch, values);
  if (!roots[0]) throw notFound();
  return serialized(new Serializer(rt.model, objects, fetch, budget).all([roots[0]])[0]!, budget);
}

export async function getExtent(rt: Runtime, meta: ClassMeta, fetch: FetchPlan): Promise<Record<string, unknown>[]> {
  const { roots, objects } = await load(rt.store, rt.model, meta, { kind: "extent" }, fetch);
  return new Serializer(rt.model, objects, fetch, new AnswerBudget(rt.limits.answerBytes)).all(roots);
}

/** Existence and version only (HEAD): reads the identity, not the object; undefined when absent. */
export async function objectVersion(rt: Runtime, meta: ClassMeta, key: unknown[]): Promise<{ version: number | null } | undefined> {
  const found = (await findExisting(rt.store, rt.model, [{ root: meta.root, key }])).get(keyString(meta.root, key));
  if (!found || !isAncestor(rt.model, meta.name, found.meta.name)) return undefined;
  return { version: found.meta.version ? (found.version ?? 0) : null };
}
