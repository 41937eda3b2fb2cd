/** DELETE of one object or of a whole extent: one atomic batch each. */
import type { ClassMeta } from "../metadata/model.ts";
import { type DeletePlan, deleteExtentStatements, deleteOneStatements } from "../write/delete-plan.ts";
import { StoreConstraintError } from "../store/store.ts";
import { type Precondition, noSuchObject, preconditionFailed } from "./absent.ts";
import { keySlots } from "../write/write-plan.ts";
import { guardVersion } from "../write/write-guards.ts";
import type { Runtime } from "./runtime.ts";
import { refused } from "../access/refusal.ts";
import { requiredRefusal } from "./required.ts";

export async function deleteObject(rt: Runtime, meta: ClassMeta, key: unknown[], conditions: readonly Precondition[] = []): Promise<void> {
  // Without a precondition or access rules, nothing needs judging after the object's existence:
  // the deletion itself can tell that it found none (src/write/delete-plan.ts).
  const plan = deleteOneStatements(rt.model, meta, key, conditions.length === 0 && !rt.access);
  const statements = withCascadeGuards(rt, plan);
  // After the existence guard: an absent object is a 404 whatever the precondition.
  statements.splice(1, 0, ...conditions.map((c) => guardVersion(meta, keySlots(key), c)));
  // The rules judge the object as found (contract §8): after its existence, so what read hides is a 404.
  const allowed = rt.access?.control.writeGuard(rt.access.principal, meta, keySlots(key), "delete");
  if (allowed) statements.splice(1, 0, allowed);
  let results;
  try {
    results = await rt.store.batch(statements, "write");
  } catch (error) {
    if (error instanceof StoreConstraintError && error.guard === "stale") throw preconditionFailed(rt.model, meta, key, conditions);
    if (error instanceof StoreConstraintError && error.guard === "forbidden")
      throw refused(
        rt.access!.principal,
        meta,
        "delete",
        plan.roots.length ? "this object (or an object its dependent relations delete with it)" : "this object",
      );
    if (error instanceof StoreConstraintError && error.guard === "required") throw await requiredRefusal(rt, plan, `deleting this ${meta.name}`);
    if (error instanceof StoreConstraintError && error.kind === "guard") throw noSuchObject(rt.model, meta, key);
    throw error;
  }
  // No guard: no row deleted is no such object, and nothing changed.
  if (plan.rootDelete !== undefined && results[plan.rootDelete]!.rowsAffected === 0) throw noSuchObject(rt.model, meta, key);
}

export async function deleteExtent(rt: Runtime, meta: ClassMeta): Promise<void> {
  // Only the objects the principal may read and delete (contract §8).
  const only = rt.access?.control.extentDeletion(rt.access.principal, meta);
  const plan = deleteExtentStatements(rt.model, meta, only);
  try {
    await rt.store.batch(withCascadeGuards(rt, plan), "write");
  } catch (error) {
    if (error instanceof StoreConstraintError && error.guard === "forbidden")
      throw refused(rt.access!.principal, meta, "delete", "an object the deletion takes along");
    if (error instanceof StoreConstraintError && error.guard === "required") throw await requiredRefusal(rt, plan, `deleting the extent of ${meta.name}`);
    throw error;
  }
}

/** The plan's statements with, under access rules, the guards over the objects its cascade deletes. */
function withCascadeGuards(rt: Runtime, plan: DeletePlan) {
  const statements = [...plan.statements];
  if (rt.access && plan.roots.length) statements.splice(plan.cascadeAt, 0, ...rt.access.control.cascadeGuards(rt.access.principal, plan.roots));
  return statements;
}
