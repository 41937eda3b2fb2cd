/** What every request handler shares: the model, the store and the limits. Built once at start-up. */
import type { AccessControl } from "../access/access-control.ts";
import type { Principal } from "../config/access.ts";
import type { Limits } from "../config/limits.ts";
import type { Model } from "../metadata/model.ts";
import type { FetchPlan } from "../read/fetch-plan.ts";
import type { Store } from "../store/store.ts";

export interface Runtime {
  model: Model;
  store: Store;
  /** The path prefix (`{servlet_path}`), for `Location` headers. */
  prefix: string;
  /** What one request may ask of the server (see src/config/limits.ts). */
  limits: Limits;
  /** The fetch plan of the object returned by POST and PUT when the request names none. */
  writeFetchPlan: FetchPlan;
  /** Answer each request's store cost (round trips, statements, time) in `Server-Timing`. */
  serverTiming: boolean;
  /** The most objects a page of a streamed extent (GET of a class) or query answer holds: one read batch each. */
  pageSize: number;
  /** The most objects its first page holds (the answer starts when it is read). */
  firstPageSize: number;
  /** The JSON a later page aims at, in characters. */
  pageBytes: number;
  /**
   * Access control, per request (src/http/auth/): the rules and who asks. Reads need nothing of
   * it (the request's store already starts every statement with the principal's view of the
   * tables); writes check their grants inside their batch with it.
   */
  access?: { control: AccessControl; principal: Principal };
}

/**
 * A request's runtime: the shared one with the request's own store (and principal). Written out
 * field by field rather than spread: the same shape every time, and no copying loop per request.
 */
export function requestRuntime(shared: Runtime, store: Store, access?: Runtime["access"]): Runtime {
  return {
    model: shared.model,
    store,
    prefix: shared.prefix,
    limits: shared.limits,
    writeFetchPlan: shared.writeFetchPlan,
    serverTiming: shared.serverTiming,
    pageSize: shared.pageSize,
    firstPageSize: shared.firstPageSize,
    pageBytes: shared.pageBytes,
    access,
  };
}
