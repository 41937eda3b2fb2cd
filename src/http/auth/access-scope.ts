/**
 * Access control per request, after authentication (by src/http/middleware.ts, only when rules
 * are configured): the request's store starts every statement with what its principal may read
 * (src/access/visibility.ts), and the routes find the principal and the rules on the runtime.
 * `authorize` is the one place a route asks whether the principal may touch a class at all.
 */
import type { AccessControl } from "../../access/access-control.ts";
import type { Operation } from "../../config/access-rules.ts";
import { refused } from "../../access/refusal.ts";
import type { ClassMeta } from "../../metadata/model.ts";
import type { QQuery } from "../../query/shared/model.ts";
import { scopedStore } from "../../store/scoped-store.ts";
import type { RouteRequest } from "../resource.ts";
import type { Principal } from "../../config/access.ts";
import type { Runtime } from "../../service/runtime.ts";
import type { Store } from "../../store/store.ts";

/** The request's store, starting every statement with what `principal` may read, and the access its routes check (src/http/middleware.ts). */
export function accessFor(control: AccessControl, principal: Principal, store: Store): { store: Store; access: NonNullable<Runtime["access"]> } {
  const scope = control.statementScope(principal);
  return { store: scope ? scopedStore(store, scope) : store, access: { control, principal } };
}

/**
 * Refuses the request unless its principal has a grant of `operation` on `meta` (contract §8: the
 * class and operation a request targets decide 401 and 403; which objects, the grants' filters).
 */
export function authorize(r: RouteRequest, meta: ClassMeta, operation: Operation): void {
  const access = r.rt.access;
  if (!access || access.control.grants(access.principal, meta, operation)) return;
  throw refused(access.principal, meta, operation);
}

/**
 * A query's checks: its principal may read its candidate class at all (401/403), and it names no
 * field the principal may not read (400, as an unknown field).
 */
export function authorizeQuery(r: RouteRequest, query: QQuery): void {
  const candidate = (query.candidate.type as { meta: ClassMeta }).meta;
  authorize(r, candidate, "read");
  const access = r.rt.access;
  access?.control.checkQuery(access.principal, query);
}
