/**
 * What routes read from a request besides its path, each within its limits: the fetch plan, the
 * JSON body, and a query's text with its parameter values.
 */
import { FETCH_PLAN_QUERY_LIMIT, FETCH_PLAN_QUERY_WEIGHT, perModelCache } from "../cache/bounded-cache.ts";
import { parseParams } from "../query/params.ts";
import { type FetchPlan, fetchPlanOfParams, fetchPlanOfQuery, narrowedPlan } from "../read/fetch-plan.ts";
import { readJsonBody } from "./body.ts";
import { HttpError } from "./problem.ts";
import { type QueryText, queryText, searchOf } from "./query-params.ts";
import { checkParameterCount, checkQueryLength } from "./request-limits.ts";
import type { RouteRequest } from "./resource.ts";

/**
 * The fetch plan of `fetchGroup`/`maxFetchDepth` (400 naming the parameter), else `fallback`:
 * from `params` when the route has read them, else from the URL's query (cached by its text).
 */
export function fetchPlanOf(r: RouteRequest, fallback?: FetchPlan, params?: URLSearchParams): FetchPlan {
  const rt = r.rt;
  const cap = rt.limits.maxFetchDepth;
  const parsed = params ? fetchPlanOfParams(rt.model, params, fallback, cap) : fetchPlanOfQuery(rt.model, searchOf(r.raw.url), fallback, cap);
  if (!parsed.ok) throw new HttpError(400, parsed.message, { errors: [{ path: parsed.parameter, message: parsed.message }] });
  // The fields the access rules hide from the principal are, for its answers, fields its classes do not have.
  const hidden = rt.access?.control.hiddenFields(rt.access.principal);
  return hidden ? narrowedPlan(parsed.plan, hidden) : parsed.plan;
}

/** The JSON body within the size and shape limits (undefined when there is none and none is `required`). */
export function readBody(r: RouteRequest, required: boolean): Promise<unknown> {
  const limits = r.rt.limits;
  return readJsonBody(r.raw, limits.bodyBytes, required, limits);
}

/** A request's query text, its named parameters and its parameter values (queryOf). */
export interface QueryOf {
  text?: string | undefined;
  params: URLSearchParams;
  given: ReturnType<typeof parseParams>;
  /** Whether the parameters ask for a listing (src/http/listing.ts). */
  listing: boolean;
}

/**
 * A query string read as a query's text and named parameters, per model and by the string's text:
 * a client repeats its queries, and reading one builds a URLSearchParams. Shared: not to be changed.
 */
const queryTexts = perModelCache<QueryText>("queryTexts", FETCH_PLAN_QUERY_LIMIT, { limit: FETCH_PLAN_QUERY_WEIGHT, weigh: (key) => key.length });

/** The query text and its parameter values, within the limits; `what` names the text in messages. */
export function queryOf(r: RouteRequest, name: "query" | "filter", what: string): QueryOf {
  const rt = r.rt;
  const limits = rt.limits;
  const search = searchOf(r.raw.url);
  const { text, params, listing } = queryTexts(rt.model).get(`${name} ${search}`, () => queryText(search, name));
  if (text !== undefined) checkQueryLength(text, limits, what);
  const given = parseParams(params.get("params"));
  checkParameterCount(given, limits);
  return { text, params, given, listing };
}
