/**
 * GET and HEAD of objects, read by the read façade (src/read/read-objects.ts): one read batch per
 * request for a finite fetch depth; a key that names no object is a 404.
 */
import type { ObjectJson } from "../json/answer.ts";
import type { ClassMeta } from "../metadata/model.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import { readObject, readVersion } from "../read/read-objects.ts";
import { noSuchObject } from "./absent.ts";
import type { Runtime } from "./runtime.ts";
import { type Eventually, thenNow } from "../util/eventually.ts";

/** The object, at once when the store read it at once (src/read/read-objects.ts `readObject`); 404 when there is none. */
export function getObject(rt: Runtime, meta: ClassMeta, key: unknown[], fetch: FetchPlan): Eventually<ObjectJson> {
  return thenNow(readObject(rt, meta, key, fetch), (found) => {
    if (!found) throw noSuchObject(rt.model, meta, key);
    return found;
  });
}

/** Existence and version only (HEAD): reads the identity, not the object; undefined when absent. */
export function objectVersion(rt: Runtime, meta: ClassMeta, key: unknown[]): Promise<{ version: number | null } | undefined> {
  return readVersion(rt, meta, key);
}
