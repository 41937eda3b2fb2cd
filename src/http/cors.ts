/**
 * CORS (contract §7), mounted only when configured, before everything else: a preflight is
 * answered here, before authentication (a browser sends it without credentials) and before the
 * store is ready; every other answer, errors and 404s included, carries the CORS headers, so a
 * page can read a problem document and its status. Hono's `cors` middleware does the work.
 *
 * Hono's middleware answers every OPTIONS as a preflight; an OPTIONS that is not one (no
 * `Access-Control-Request-Method`) goes to its route instead, which answers 204 with `Allow` (or
 * 404 for an unknown class), with the headers an actual request gets.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { ResolvedCors } from "../config/cors.ts";
import type { Env } from "./resource.ts";

/** The methods the resources serve (src/http/resource.ts). */
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"];
/**
 * The request headers the API reads beyond the CORS-safelisted ones: JSON bodies, Bearer tokens,
 * preconditions and preferences (`Prefer: count=exact`). Accept-Encoding is the browser's own.
 */
const REQUEST_HEADERS = ["Content-Type", "Authorization", "If-Match", "If-None-Match", "Prefer", "Accept"];
/** What a page may read of an answer beyond the CORS-safelisted headers. */
export const EXPOSED_HEADERS = ["ETag", "Location", "Content-Range", "Link", "X-Match-Count", "Preference-Applied", "WWW-Authenticate", "Allow", "Retry-After"];
/** How long a browser may reuse a preflight's answer, in seconds (Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE = 600;

export function corsMiddleware(config: ResolvedCors): MiddlewareHandler<Env> {
  const { origins } = config;
  const allowed = (origin: string) => origins === "*" || origins.includes(origin);
  const handle = cors({
    origin: origins === "*" ? "*" : (origin) => (allowed(origin) ? origin : null),
    allowMethods: METHODS,
    allowHeaders: REQUEST_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE,
  });
  return async (c, next) => {
    if (c.req.method !== "OPTIONS" || c.req.header("access-control-request-method") !== undefined) return handle(c, next);
    // A plain OPTIONS: the route's answer (Allow), with the headers of an actual request.
    await next();
    const origin = c.req.header("origin");
    if (origin !== undefined && allowed(origin)) {
      c.header("Access-Control-Allow-Origin", origins === "*" ? "*" : origin);
      c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS.join(","));
    }
    if (origins !== "*") c.header("Vary", "Origin", { append: true });
  };
}
