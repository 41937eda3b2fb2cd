/**
 * The app: Hono's, with the middleware every request passes through (src/http/middleware.ts), the
 * resources by path (src/http/routes/: the root (JSON, or the explorer page for a browser), the OpenAPI document, the explorer's files, the queries, the objects of a class), mounted with
 * their HEAD, 405 and OPTIONS in one place (src/http/resource.ts), and every failure answered as
 * a problem document with its status (src/http/error-status.ts). Its `fetch` runs a request that
 * matches one plain route alone (the routes of objects and queries) without Hono's dispatch
 * (src/http/direct.ts), the same route inside the same middleware.
 */
import { Hono } from "hono";
import type { Runtime } from "../service/runtime.ts";
import type { AccessControl } from "../access/access-control.ts";
import type { Authenticator } from "./auth/authenticate.ts";
import type { ResolvedCors } from "../config/cors.ts";
import { corsMiddleware } from "./cors.ts";
import { errorAnswer } from "./error-status.ts";
import { directRoutes } from "./direct.ts";
import { exchange } from "./middleware.ts";
import { ShapeRouter } from "./shape-router.ts";
import { problem } from "./problem.ts";
import { type Around, type Env, alwaysAnswers, mount } from "./resource.ts";
import { objects } from "./routes/objects.ts";
import { queries } from "./routes/queries.ts";
import { openapi } from "./routes/openapi.ts";
import { root } from "./routes/root.ts";
import { type ExplorerOptions, explorerFiles, explorerPageText } from "./routes/explorer.ts";

/** What the app does for web clients, each off when absent. */
export interface WebOptions {
  cors?: ResolvedCors | undefined;
  /** Compress answers of at least this many bytes. */
  compressThreshold?: number | undefined;
  /** The OpenAPI document's text (src/describe/), asked once, at the first `GET /openapi.json`. */
  describe?: (() => string) | undefined;
  /** The explorer page at `GET /` for browsers, and its files (absent: no page, `/` is JSON only). */
  explorer?: ExplorerOptions | undefined;
}

/** The app's `fetch`, and its two ways (for tests): Hono's app, and the requests it runs without Hono's dispatch. */
export interface App {
  fetch(request: Request): Response | Promise<Response>;
  app: Hono<Env>;
  /** A request's answer when a plain route alone takes it, else undefined (and nothing done). */
  direct(request: Request): Promise<Response> | undefined;
}

export function buildApp(
  shared: Runtime,
  ready: () => Promise<void>,
  access?: { authenticator: Authenticator; control?: AccessControl | undefined },
  web: WebOptions = {},
): App {
  // Routes matched once per path shape (src/http/shape-router.ts), not per request; the handlers
  // after one that always answers are dropped, so a request usually matches one handler, which
  // Hono runs without its middleware chain.
  const base = new Hono<Env>({ strict: false, router: new ShapeRouter(([handler]) => alwaysAnswers(handler)) });
  // CORS is middleware before the routes, so it sees every answer, errors included, and answers a
  // preflight before the store is ready and before authentication (a preflight has no credentials).
  if (web.cors) base.use(corsMiddleware(web.cors));
  // What surrounds every route (src/http/middleware.ts), put around each by `mount`, and around the 404.
  const run = exchange({ shared, ready, authenticator: access?.authenticator, control: access?.control, compressThreshold: web.compressThreshold });
  const around: Around = (c, route) =>
    run(c.req.raw, (rt) => {
      c.set("rt", rt);
      return route(c);
    });
  // The query paths and the document before `/{class}`, which would otherwise take `/jdoql` for a class.
  const described = web.describe ? [openapi(web.describe)] : [];
  const page = web.explorer && explorerPageText(shared.model, shared.prefix, web.explorer);
  const explorer = web.explorer ? [explorerFiles(web.explorer.assets, web.compressThreshold !== undefined)] : [];
  mount(shared.prefix ? base.basePath(shared.prefix) : base, [root(page), ...described, ...explorer, ...queries, ...objects], around);
  base.notFound((c) => around(c, () => problem(404, `no resource at ${new URL(c.req.url).pathname}`)));
  base.onError((error) => errorAnswer(error, shared.limits));
  const direct = directRoutes(base, run);
  return { fetch: (request) => direct(request) ?? base.fetch(request), app: base, direct };
}
