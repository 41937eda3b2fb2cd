/**
 * GET and HEAD of objects: one read batch per request for a finite fetch depth. The JSON select
 * writes the answer where it can (src/plan/json-select.ts); the loader and serializer otherwise.
 */
import { type ObjectJson, serialized } from "../json/answer.ts";
import { Serializer } from "../json/serialize.ts";
import { keyString } from "../mapping/keys.ts";
import { type ClassMeta, isAncestor } from "../metadata/model.ts";
import type { FetchPlan } from "../plan/fetch-plan.ts";
import { readJson } from "../plan/json-rows.ts";
import { jsonSelect } from "../plan/json-select.ts";
import { load } from "../plan/load.ts";
import { findExisting } from "../plan/resolve.ts";
import { HttpError } from "../http/problem.ts";
import type { Runtime } from "./runtime.ts";

const keysParam = (key: readonly unknown[]) => JSON.stringify([key.length === 1 ? key[0] : key]);
const missing = (meta: ClassMeta, key: readonly unknown[]) => new HttpError(404, `no ${meta.name} with key ${JSON.stringify(key.length === 1 ? key[0] : key)}`);

export async function getObject(rt: Runtime, meta: ClassMeta, key: unknown[], fetch: FetchPlan): Promise<ObjectJson> {
  const values = { keys: keysParam(key) };
  const notFound = () => missing(meta, key);
  const select = jsonSelect(rt.model, meta, { kind: "keys" }, fetch);
  if (select) {
    const found = (await readJson(rt.store, rt.model, select, values, true)).find((r) => r.json !== null);
    if (!found) throw notFound();
    return { json: found.json!, version: found.version };
  }
  const { roots, objects } = await load(rt.store, rt.model, meta, { kind: "keys" }, fetch, values);
  if (!roots[0]) throw notFound();
  return serialized(new Serializer(rt.model, objects, fetch).object(roots[0]));
}

export async function getExtent(rt: Runtime, meta: ClassMeta, fetch: FetchPlan): Promise<Record<string, unknown>[]> {
  const { roots, objects } = await load(rt.store, rt.model, meta, { kind: "extent" }, fetch);
  const serializer = new Serializer(rt.model, objects, fetch);
  return roots.map((r) => serializer.object(r));
}

/**
 * What HEAD answers of an object: its version (the ETag a GET would answer), read with its
 * identity, not the object; 404 as GET when there is none. The answer has no JSON.
 */
export async function headObject(rt: Runtime, meta: ClassMeta, key: unknown[]): Promise<ObjectJson> {
  const found = (await findExisting(rt.store, rt.model, [{ root: meta.root, key }])).get(keyString(meta.root, key));
  if (!found || !isAncestor(rt.model, meta.name, found.meta.name)) throw missing(meta, key);
  return { json: "", version: found.version ?? null };
}
