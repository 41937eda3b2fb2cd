/** How a refusal of the rules reads (contract §8): asked for credentials (401) without them, forbidden (403) with them. */
import type { Operation } from "../config/access-rules.ts";
import type { Principal } from "../config/access.ts";
import { ForbiddenError } from "../errors/auth-errors.ts";
import type { ClassMeta } from "../metadata/model.ts";

const VERB: Record<Operation, string> = { read: "read", create: "create", update: "change", delete: "delete" };

/** The principal may not `operation` objects of `meta` (none at all, or not this one). */
export function refused(principal: Principal, meta: ClassMeta, operation: Operation, which = "objects"): ForbiddenError {
  const anonymous = principal.anonymous === true;
  return new ForbiddenError(
    anonymous
      ? `${VERB[operation]} ${meta.name} needs credentials: give a Bearer token`
      : `the principal (roles: ${principal.roles.join(", ") || "none"}) may not ${VERB[operation]} ${which} of ${meta.name}`,
    anonymous,
  );
}
