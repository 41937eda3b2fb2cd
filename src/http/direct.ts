/**
 * The routes the app runs without Hono's dispatch: a request whose path and method match one
 * handler alone, a plain route (src/http/resource.ts: the routes of objects and queries), runs
 * that route inside the same middleware (src/http/middleware.ts), with the parameters Hono would
 * give it. Hono's router still decides the match (the app's own `getPath` and router, so the
 * routes' order and precedence hold); what is left out is the rest of the dispatch: its Context,
 * its request wrapper and the chain around a handler. On Bun that was 17 of the 55 µs of CPU a GET
 * by key spent in Extent's JavaScript in a server (test/bench/README.md, thirteenth part).
 *
 * Anything else goes to Hono: a HEAD (Hono answers it as a GET without the body), an OPTIONS or a
 * method a path does not serve (405), a path with middleware on it (CORS), a route that is not
 * plain (the root, the document, the explorer's files), and a path no route matches (the 404).
 */
import type { Hono } from "hono";
import type { ParamIndexMap, Result } from "hono/router";
import type { Run } from "./middleware.ts";
import type { Runtime } from "../service/runtime.ts";
import { type Env, type Handler, type RouteRequest, decodedParam, plainRouteOf } from "./resource.ts";

/** What the app's router holds for a route: Hono's handler and its route record. */
type Routed = [Handler, unknown];

/** A request's answer when a plain route alone takes it, else undefined (the app's `fetch` then runs it). */
export function directRoutes(app: Hono<Env>, run: Run): (request: Request) => Promise<Response> | undefined {
  return (request) => {
    const method = request.method;
    if (method === "HEAD" || method === "OPTIONS") return undefined;
    const [matched, stash] = app.router.match(method, app.getPath(request)) as Result<Routed>;
    if (matched.length !== 1) return undefined;
    const [[handler], params] = matched[0]!;
    const route = plainRouteOf(handler);
    if (!route) return undefined;
    return run(request, (rt) => route(new MatchedRequest(rt, request, params, stash)));
  };
}

/**
 * A request as the router matched it. A class rather than an object with a closure made per
 * request: on Node, tsx names every closure a function names (`__name`, an `Object.defineProperty`),
 * which cost a GET about 3 µs (test/bench/README.md, fourteenth part).
 */
class MatchedRequest implements RouteRequest {
  constructor(
    readonly rt: Runtime,
    readonly raw: Request,
    private readonly params: ParamIndexMap | Record<string, string>,
    private readonly stash: unknown[] | undefined,
  ) {}

  /** As Hono's `c.req.param`: the segment the router's match names (its index, or its text when the path was matched as it is). */
  param(name: string): string | undefined {
    const at = this.params[name];
    return decodedParam(this.stash ? (this.stash[at as number] as string | undefined) : (at as string | undefined));
  }
}
