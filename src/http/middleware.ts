/**
 * What every request passes through around its route, as one Hono middleware. Each concern keeps
 * its own module (request limits, the store's clock, authentication, access scope, Server-Timing,
 * compression); here they are plain calls in one step, because each step of Hono's chain is an
 * async call and a promise more per request: under load on Bun, folding compression into this
 * step took 3 to 4 µs of CPU off each GET by key (README, Where the time goes).
 *
 * In order: the URL within `urlBytes` (414); the store ready; the request's own clock (a store
 * that holds it to `requestTimeMs`); when access control is configured, the principal (401) and
 * its statement scope; when asked for, the store's cost. After the route: the clock released,
 * `Server-Timing`, and the answer compressed. An answer made before the route (a 414, 401 or
 * 503: small problem documents) is not compressed; CORS, when configured, is its own step
 * before this one (it answers a preflight before the store is ready and without credentials).
 */
import type { MiddlewareHandler } from "hono";
import type { AccessControl } from "../access/access-control.ts";
import { type Runtime, requestRuntime } from "../service/runtime.ts";
import { DeadlineStore } from "../store/deadline-store.ts";
import { CountingStore, type Store } from "../store/store.ts";
import type { Authenticator } from "./auth/authenticate.ts";
import { accessFor } from "./auth/access-scope.ts";
import { compressInto } from "./compress.ts";
import type { Env } from "./resource.ts";
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

export function exchange({ shared, ready, authenticator, control, compressThreshold }: Exchange): MiddlewareHandler<Env> {
  // Once the store is ready, requests stop waiting on the promise (a microtask each).
  let isReady = false;
  void ready().then(
    () => (isReady = true),
    () => {},
  );
  return async (c, next) => {
    checkUrlLength(c.req.url, shared.limits);
    if (!isReady) await ready();
    const clock = new DeadlineStore(shared.store, shared.limits.requestTimeMs);
    let store: Store = clock;
    let access: Runtime["access"];
    if (authenticator) {
      const principal = await authenticator.principal(c.req.raw);
      c.set("principal", principal);
      if (control) ({ store, access } = accessFor(control, principal, store));
    }
    const counted = shared.serverTiming ? new CountingStore(store) : undefined;
    c.set("rt", requestRuntime(shared, counted ?? store, access));
    const started = counted && performance.now();
    try {
      await next();
    } finally {
      clock.release();
    }
    if (counted) c.res.headers.append("server-timing", serverTiming(counted, performance.now() - started!));
    // Most answers go out as they are, decided without a promise to wait for.
    const compressing = compressThreshold === undefined ? undefined : compressInto(c, compressThreshold);
    if (compressing) await compressing;
  };
}

/** `store;desc="2 round trips, 5 statements";dur=1.3`: what the request cost the store. */
function serverTiming(store: CountingStore, ms: number): string {
  const desc = `${store.roundTrips} round trip${store.roundTrips === 1 ? "" : "s"}, ${store.statements} statement${store.statements === 1 ? "" : "s"}`;
  return `store;desc="${desc}";dur=${ms.toFixed(1)}`;
}
