/**
 * The answer to a write that a required reference refused (guard `required`, 409): which class's
 * field still points at an object the request would delete or release, and how many objects hold
 * it. The batch stops at the first guard that fails, saying only that one did; a read after it
 * (the refused write's only second round trip) counts the references, so the problem document
 * can name them.
 */
import { ConflictError } from "../errors/request-errors.ts";
import type { Statement } from "../store/store.ts";
import type { Runtime } from "./runtime.ts";

export interface RequiredDiagnosis {
  /** One row per check: its index and how many objects it finds. */
  diagnose: Statement;
  required: readonly { holder: string; field: string; released?: boolean; handover?: true }[];
}

export async function requiredRefusal(rt: Runtime, plan: RequiredDiagnosis, what: string): Promise<ConflictError> {
  const [counts] = await rt.store.batch([plan.diagnose], "read");
  const found = (counts?.rows ?? [])
    .map((r) => ({ check: plan.required[Number(r[0])], count: Number(r[1]) }))
    .filter((f): f is { check: RequiredDiagnosis["required"][number]; count: number } => f.check !== undefined && f.count > 0);
  const objects = (n: number, holder: string) => `${n} ${holder} object${n === 1 ? "" : "s"}`;
  const say = ({ check, count }: (typeof found)[number]) =>
    check.handover
      ? `it gives ${check.holder}.${check.field} an object that ${objects(count, check.holder)} already hold${count === 1 ? "s" : ""} through it (one-to-one), a required reference (not nullable) that would be left null there; give ${count === 1 ? "it" : "them"} another one first`
      : check.released
        ? `it releases ${objects(count, check.holder)} from a collection mapped by ${check.holder}.${check.field}, a required reference (not nullable) that would be left null; delete them, or give them another owner, or declare orphan removal / dependent-element`
        : `${objects(count, check.holder)} refer${count === 1 ? "s" : ""} to an object it deletes through ${check.holder}.${check.field}, a required reference (not nullable) that would be left pointing at nothing; delete or change them first, or declare the relation dependent / cascade remove`;
  const errors = found.map((f) => ({ path: `${f.check.holder}.${f.check.field}`, message: say(f) }));
  // The references changed meanwhile: say what the batch found, without a count.
  if (!found.length) return new ConflictError(`${what} would leave a required reference pointing at nothing; nothing was changed`);
  return new ConflictError(`${what} is refused: ${say(found[0]!)}; nothing was changed`, errors);
}
