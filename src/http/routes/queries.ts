/**
 * Queries: `/jdoql?query=Q` (and `/query`, and the raw `/jdoql?Q`), `/jpql?query=Q` (and the raw
 * `/jpql?Q`). One route for both languages: the text and its parameters read within the limits,
 * prepared by the language's front end, bound, run with the request's fetch plan.
 */
import { prepareJdoql, prepareJpql } from "../../query/prepare.ts";
import { authorizeQuery } from "../auth/access-scope.ts";
import { bindParams } from "../../query/params.ts";
import { runQuery } from "../../service/query.ts";
import { jsonAnswer, unlessNotModified } from "../answers.ts";
import { thenNow } from "../../util/eventually.ts";
import { fetchPlanOf, queryOf } from "../inputs.ts";
import { HttpError } from "../problem.ts";
import { type Handler, type Resource, allowOf, plain } from "../resource.ts";

const PREPARE = { JDOQL: prepareJdoql, JPQL: prepareJpql };

function queryRoute(language: keyof typeof PREPARE): Handler {
  const prepare = PREPARE[language];
  const what = `${language} query`;
  const missing = `give the ${language} query as ?query=... (URL-encoded)`;
  // Not async: a query the store read at once is answered at once (nothing awaited in the route).
  return plain((r) => {
    const rt = r.rt;
    const { text, params, given } = queryOf(r, "query", what);
    if (!text?.trim()) throw new HttpError(400, missing);
    const prepared = prepare(rt.model, text);
    // A query targets its candidate class: the other classes it reaches are filtered, never refused.
    authorizeQuery(r, prepared.query);
    const values = bindParams(rt.model, prepared.params, given, rt.limits.keyBytes);
    const fetch = fetchPlanOf(r, undefined, params);
    return unlessNotModified(r, "a query's answer", () => thenNow(runQuery(rt, prepared, values, fetch), jsonAnswer));
  });
}

const jdoql = queryRoute("JDOQL");

export const queries: readonly Resource[] = [
  { path: "/jdoql", what: "/jdoql: queries are GET", GET: jdoql },
  { path: "/query", what: "/query: queries are GET", GET: jdoql },
  { path: "/jpql", what: "/jpql: queries are GET", GET: queryRoute("JPQL") },
];

/** The query paths' names (`jdoql`), which name no class: `/jdoql/x` is no resource. */
export const QUERY_NAMES: ReadonlySet<string> = new Set(queries.map((r) => r.path.slice(1)));
export const QUERY_ALLOW = allowOf(queries[0]!);
