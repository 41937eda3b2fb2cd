/**
 * What every request passes through before its route, as Hono middleware: the request limits that
 * need no body (the URL's length), the store being ready, and the request's own clock; and, when
 * the handler is asked for it, the store's cost in `Server-Timing`. The first is one middleware,
 * so a GET by key pays one step of Hono's chain, as it did before they were split out of the app.
 */
import type { MiddlewareHandler } from "hono";
import type { Runtime } from "../service/runtime.ts";
import { DeadlineStore } from "../store/deadline-store.ts";
import { CountingStore } from "../store/store.ts";
import type { Env } from "./resource.ts";
import { checkUrlLength } from "./request-limits.ts";

/**
 * The URL within `urlBytes` (414), then, once the store is ready, `rt` for the route: the shared
 * runtime with a store that holds the request to `requestTimeMs` (released when it ends).
 */
export function requestScope(shared: Runtime, ready: () => Promise<void>): MiddlewareHandler<Env> {
  // Once the store is ready, requests stop waiting on the promise (a microtask each).
  let isReady = false;
  void ready().then(
    () => (isReady = true),
    () => {},
  );
  return async (c, next) => {
    checkUrlLength(c.req.url, shared.limits);
    if (!isReady) await ready();
    const store = new DeadlineStore(shared.store, shared.limits.requestTimeMs);
    c.set("rt", { ...shared, store });
    try {
      await next();
    } finally {
      store.release();
    }
  };
}

/** `Server-Timing: store;desc="2 round trips, 5 statements";dur=1.3`: what the request cost the store (mounted only when asked for). */
export const serverTiming: MiddlewareHandler<Env> = async (c, next) => {
  const store = new CountingStore(c.get("rt").store);
  c.set("rt", { ...c.get("rt"), store });
  const started = performance.now();
  await next();
  const desc = `${store.roundTrips} round trip${store.roundTrips === 1 ? "" : "s"}, ${store.statements} statement${store.statements === 1 ? "" : "s"}`;
  c.res.headers.append("server-timing", `store;desc="${desc}";dur=${(performance.now() - started).toFixed(1)}`);
};
