/**
 * What every request passes through around its route: one function, which app.ts puts around
 * each route's handler (through `mount`, src/http/resource.ts) and around the 404, and
 * src/http/direct.ts around the routes it runs without Hono's dispatch. Each concern
 * keeps its own module (request limits, the store's clock, authentication, access scope,
 * Server-Timing, compression, error answers); here they are plain calls in one function, because
 * each step of Hono's chain is an async call and a promise more per request, and a request that
 * matches one handler alone skips the chain altogether (test/bench/README.md).
 *
 * In order: the URL within `urlBytes` (414); the store ready; the request's own clock (a store
 * that holds it to `requestTimeMs`); when access control is configured, the principal (401) and
 * its statement scope; when asked for, the store's cost. Then the route, and any failure answered
 * as its problem document (src/http/error-status.ts). After it: the clock released,
 * `Server-Timing`, and the answer compressed. CORS, when configured, is Hono middleware before
 * this (it answers a preflight before the store is ready and without credentials).
 */
import type { AccessControl } from "../access/access-control.ts";
import { type Runtime, requestRuntime } from "../service/runtime.ts";
import { DeadlineStore } from "../store/deadline-store.ts";
import { CountingStore, type Store } from "../store/store.ts";
import type { Authenticator } from "./auth/authenticate.ts";
import { accessFor } from "./auth/access-scope.ts";
import { compressed } from "./compress.ts";
import { errorAnswer } from "./error-status.ts";
import { checkUrlLength } from "./request-limits.ts";

export interface Exchange {
  shared: Runtime;
  /** Resolves once the store is open and its schema checked. */
  ready: () => Promise<void>;
  /** Present only with access control: without it no request pays for authentication. */
  authenticator?: Authenticator | undefined;
  control?: AccessControl | undefined;
  /** Compress answers of at least this many bytes (absent: never). */
  compressThreshold?: number | undefined;
}

/** Runs a route for `request` inside what surrounds every route, with the request's runtime. */
export type Run = (request: Request, route: (rt: Runtime) => Response | Promise<Response>) => Promise<Response>;

export function exchange({ shared, ready, authenticator, control, compressThreshold }: Exchange): Run {
  // Once the store is ready, requests stop waiting on the promise (a microtask each).
  let isReady = false;
  void ready().then(
    () => (isReady = true),
    () => {},
  );
  return async (request, route) => {
    let clock: DeadlineStore | undefined;
    let counted: CountingStore | undefined;
    let started = 0;
    let res: Response;
    try {
      checkUrlLength(request.url, shared.limits);
      if (!isReady) await ready();
      clock = new DeadlineStore(shared.store, shared.limits.requestTimeMs);
      let store: Store = clock;
      let access: Runtime["access"];
      if (authenticator) {
        const principal = await authenticator.principal(request);
        if (control) ({ store, access } = accessFor(control, principal, store));
      }
      if (shared.serverTiming) {
        store = counted = new CountingStore(store);
        started = performance.now();
      }
      // A route that answers at once (its store did) is not awaited: no suspension for it.
      const answered = route(requestRuntime(shared, store, access));
      res = answered instanceof Promise ? await answered : answered;
    } catch (error) {
      res = errorAnswer(error, shared.limits);
    } finally {
      clock?.release();
    }
    if (counted) res.headers.append("server-timing", serverTiming(counted, performance.now() - started));
    return compressThreshold === undefined ? res : compressed(request, res, compressThreshold);
  };
}

/** `store;desc="2 round trips, 5 statements";dur=1.3`: what the request cost the store. */
function serverTiming(store: CountingStore, ms: number): string {
  const desc = `${store.roundTrips} round trip${store.roundTrips === 1 ? "" : "s"}, ${store.statements} statement${store.statements === 1 ? "" : "s"}`;
  return `store;desc="${desc}";dur=${ms.toFixed(1)}`;
}
