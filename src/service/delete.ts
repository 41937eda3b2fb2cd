/** DELETE of one object or of a whole extent: one atomic batch each. */
import type { ClassMeta } from "../metadata/model.ts";
import { deleteExtentStatements, deleteOneStatements } from "../write/delete-plan.ts";
import { StoreConstraintError } from "../store/store.ts";
import { type Precondition, noSuchObject, preconditionFailed } from "./absent.ts";
import { guardVersion, keySlots } from "../write/write-plan.ts";
import type { Runtime } from "./runtime.ts";

export async function deleteObject(rt: Runtime, meta: ClassMeta, key: unknown[], conditions: readonly Precondition[] = []): Promise<void> {
  const statements = deleteOneStatements(rt.model, meta, key);
  // After the existence guard: an absent object is a 404 whatever the precondition.
  statements.splice(1, 0, ...conditions.map((c) => guardVersion(meta, keySlots(key), c)));
  try {
    await rt.store.batch(statements, "write");
  } catch (error) {
    if (error instanceof StoreConstraintError && error.guard === "stale") throw preconditionFailed(rt.model, meta, key, conditions);
    if (error instanceof StoreConstraintError && error.kind === "guard") throw noSuchObject(rt.model, meta, key);
    throw error;
  }
}

export async function deleteExtent(rt: Runtime, meta: ClassMeta): Promise<void> {
  await rt.store.batch(deleteExtentStatements(rt.model, meta), "write");
}
