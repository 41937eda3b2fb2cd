/**
 * A served path and its methods, and the one place that mounts them on the app: the methods'
 * handlers, HEAD, and for any other method OPTIONS (204) or 405, both with the path's `Allow`
 * derived from the handlers it has.
 *
 * HEAD: Hono's `fetch` routes a HEAD request as GET and drops the answer's body, so HEAD answers
 * what GET would, headers and all. A resource gives its own HEAD only to spare GET's work (an
 * object's existence and ETag without reading the object) or where the contract says otherwise
 * (a filter's HEAD counts matches).
 */
import type { Context, Hono } from "hono";
import { tryDecodeURIComponent } from "hono/utils/url";
import type { Runtime } from "../service/runtime.ts";
import { HttpError } from "./problem.ts";

/**
 * What the middleware (src/http/middleware.ts) gives each route: the runtime with the request's
 * own store (and, when access control is configured, the request's principal and the rules).
 */
export type Env = { Variables: { rt: Runtime } };

export type Handler = (c: Context<Env>) => Response | Promise<Response>;

/**
 * A request as the routes of objects and queries read it (src/http/routes/objects.ts, queries.ts),
 * without Hono's Context: its runtime, the Request itself, and its path parameters, decoded as
 * Hono decodes them.
 */
export interface RouteRequest {
  readonly rt: Runtime;
  readonly raw: Request;
  param(name: string): string | undefined;
}

/** A route written over a RouteRequest: run by Hono (through `plain`), and without Hono's dispatch by src/http/direct.ts. */
export type PlainHandler = (r: RouteRequest) => Response | Promise<Response>;

/** A RouteRequest of a Hono Context. */
export function routeRequest(c: Context<Env>): RouteRequest {
  return { rt: c.get("rt"), raw: c.req.raw, param: (name) => c.req.param(name) };
}

/** A path parameter's value as Hono's `c.req.param` gives it: percent-decoded, left as it is when that fails. */
export function decodedParam(value: string | undefined): string | undefined {
  return value && tryDecodeURIComponent(value);
}

const plainHandlers = new WeakMap<Handler, PlainHandler>();

/** `route` as a Hono handler, known to `mount` as a plain one. */
export function plain(route: PlainHandler): Handler {
  const handler: Handler = (c) => route(routeRequest(c));
  plainHandlers.set(handler, route);
  return handler;
}

/** The handlers `mount` adds for a method's route written as a PlainHandler: the app may run those directly (src/http/direct.ts). */
const mountedPlain = new WeakMap<object, PlainHandler>();
export const plainRouteOf = (handler: object): PlainHandler | undefined => mountedPlain.get(handler);

/** A route's handler run inside what surrounds every route (src/http/middleware.ts). */
export type Around = (c: Context<Env>, route: Handler) => Promise<Response>;

export interface Resource {
  /** The path, in Hono's syntax, below the prefix. */
  path: string;
  /** How a 405's detail names the path: `the root`, `a class`. */
  what: string;
  GET?: Handler;
  /** Only where HEAD differs from GET without its body (see above). */
  HEAD?: Handler;
  POST?: Handler;
  PUT?: Handler;
  DELETE?: Handler;
  /** Throws when the path names nothing (an unknown class is a 404 whatever the method), before 405 and OPTIONS. */
  exists?: (c: Context<Env>) => unknown;
}

/** The methods a resource answers, as `Allow` writes them: `GET, HEAD, PUT, DELETE`. */
export function allowOf(resource: Resource): string {
  return (["GET", "HEAD", "POST", "PUT", "DELETE"] as const).filter((m) => resource[m === "HEAD" ? "GET" : m]).join(", ");
}

/** The handlers `mount` adds: each always answers, so a handler matched after one never runs (src/http/shape-router.ts drops it). */
const answering = new WeakSet<object>();
export const alwaysAnswers = (handler: object): boolean => answering.has(handler);

/**
 * Mounts the resources in their order, each handler inside `around` (src/http/middleware.ts):
 * every method's handler first, then every path's 405 and OPTIONS, so a method served on a more
 * general path (POST /{class}) answers before a narrower path's 405 (/jdoql), as the routes were written.
 */
export function mount(app: Hono<Env>, resources: readonly Resource[], around: Around): void {
  const add = (on: (path: string, handler: Handler) => unknown, path: string, route: Handler, direct = plainHandlers.get(route)) => {
    const handler: Handler = (c) => around(c, route);
    answering.add(handler);
    if (direct) mountedPlain.set(handler, direct);
    on(path, handler);
  };
  for (const r of resources) {
    const { GET, HEAD } = r;
    // The GET handler takes HEAD too (Hono routes HEAD as GET): only a GET runs it directly.
    if (GET) add((p, h) => app.get(p, h), r.path, HEAD ? (c) => (c.req.method === "HEAD" ? HEAD(c) : GET(c)) : GET, plainHandlers.get(GET));
    if (r.POST) add((p, h) => app.post(p, h), r.path, r.POST);
    if (r.PUT) add((p, h) => app.put(p, h), r.path, r.PUT);
    if (r.DELETE) add((p, h) => app.delete(p, h), r.path, r.DELETE);
  }
  for (const r of resources) {
    const allow = allowOf(r);
    const exists = r.exists;
    add(
      (p, h) => app.all(p, h),
      r.path,
      (c) => {
        exists?.(c);
        if (c.req.method === "OPTIONS") return c.body(null, 204, { allow });
        throw new HttpError(405, `${c.req.method} is not allowed on ${r.what}; allowed: ${allow}`, { headers: { allow } });
      },
    );
  }
}
