/** DELETE of one object or of a whole extent: one atomic batch each. */
import type { ClassMeta } from "../metadata/model.ts";
import { deleteExtentStatements, deleteOneStatements } from "../plan/delete-plan.ts";
import { StoreConstraintError } from "../store/store.ts";
import { HttpError } from "../http/problem.ts";
import type { Runtime } from "./runtime.ts";

export async function deleteObject(rt: Runtime, meta: ClassMeta, key: unknown[]): Promise<void> {
  try {
    await rt.store.batch(deleteOneStatements(rt.model, meta, key), "write");
  } catch (error) {
    if (error instanceof StoreConstraintError && error.kind === "guard") throw new HttpError(404, `no ${meta.name} with key ${JSON.stringify(key.length === 1 ? key[0] : key)}`);
    throw error;
  }
}

export async function deleteExtent(rt: Runtime, meta: ClassMeta): Promise<void> {
  await rt.store.batch(deleteExtentStatements(rt.model, meta), "write");
}
