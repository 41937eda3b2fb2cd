/**
 * Preparing a JDOQL query: parse (Peggy), bind (names and types), compile (SQL through Drizzle),
 * once per query text, cached per model in a bounded LRU cache (PREPARED_QUERY_LIMIT entries). A
 * request then only binds parameter values.
 */
import type { ClassMeta, Model } from "../metadata/model.ts";
import { PREPARED_QUERY_LIMIT, PREPARED_QUERY_WEIGHT, perModelCache } from "../cache/bounded-cache.ts";
import type { SubquerySelector } from "../read/read-plan.ts";
import { type Compiled, compile, sql } from "../store/sql.ts";
import { ModifyingQueryError, QueryError } from "../errors/query-error.ts";
import { bindQuery, fillQuery, newScope } from "./jdoql/bind.ts";
import { ParamCollector } from "./shared/param-collector.ts";
import { parseJdoql, parseJdoqlFilter, parseJdoqlOrdering } from "./jdoql/parse.ts";
import { paramName } from "./sql/context.ts";
import { parseJpql } from "./jpql/parse.ts";
import { QuerySyntaxError } from "./shared/syntax-errors.ts";
import { bindJpql } from "./jpql/bind.ts";
import type { SQuery } from "./jdoql/syntax.ts";
import type { ParamSpec, QQuery } from "./shared/model.ts";
import { projectionJson } from "./sql/projection-json.ts";
import { type ResultColumn, candidateKeys, projection } from "./sql/select.ts";

export interface PreparedQuery {
  query: QQuery;
  candidate: ClassMeta;
  params: ParamSpec[];
  /** Candidate results: the read plan's root selector, ordered and ranged by the query. */
  selector?: SubquerySelector;
  /** How many candidates match (HEAD with a filter). */
  count?: Compiled;
  /**
   * Projections: one statement and how to read its columns, and, where SQL can write every item,
   * the statement writing the answer (src/query/sql/projection-json.ts).
   */
  projection?: { compiled: Compiled; columns: ResultColumn[]; json?: { compiled: Compiled; rowBytes: number } };
}

/**
 * Prepared JDOQL, JPQL and filters per model, by text: an LRU of PREPARED_QUERY_LIMIT entries
 * weighing PREPARED_QUERY_WEIGHT in all, an entry weighing its text and its compiled SQL.
 */
const cacheOf = perModelCache<PreparedQuery>("preparedQueries", PREPARED_QUERY_LIMIT, {
  limit: PREPARED_QUERY_WEIGHT,
  weigh: (key, p) => key.length + (p.count?.sql.length ?? 0) + (p.projection?.compiled.sql.length ?? 0) + (p.projection?.json?.compiled.sql.length ?? 0),
});

/** A single-string JDOQL query (`/jdoql`, `/query`). */
export function prepareJdoql(model: Model, text: string): PreparedQuery {
  return prepared(model, `jdoql\u0000${text}`, () => {
    const statement = syntax(() => parseJdoql(text));
    if (statement.type !== "Query") {
      throw new ModifyingQueryError(`${statement.type.toUpperCase()} statements change data and are not allowed on GET`, statement.pos);
    }
    const params = new ParamCollector();
    const { query } = bindQuery(model, statement, params);
    return compileQuery(model, query, params, `jdoql:${text}`);
  });
}

/** A filter of `GET /{class}?filter=F`: the query `SELECT FROM class WHERE F`, parsed as a filter only. */
export function prepareFilter(model: Model, candidate: ClassMeta, text: string): PreparedQuery {
  return prepared(model, `filter\u0000${candidate.name}\u0000${text}`, () => {
    const { query, collector } = boundFilter(model, candidate, text);
    return compileQuery(model, query, collector, `filter:${candidate.name}:${text}`);
  });
}

/**
 * A JDOQL filter of `candidate` as the query `SELECT FROM candidate WHERE F`, parsed and bound
 * (not compiled, not cached): for `?filter=` above, and for the access rules' `where`
 * (src/access/policy.ts), which compile it into every statement a request runs.
 */
export function bindFilter(model: Model, candidate: ClassMeta, text: string): { query: QQuery; params: ParamSpec[] } {
  const { query, collector } = boundFilter(model, candidate, text);
  return { query, params: [...collector.specs.values()] };
}

function boundFilter(model: Model, candidate: ClassMeta, text: string | undefined, extra: Partial<SQuery> = {}): { query: QQuery; collector: ParamCollector } {
  const where = text === undefined ? undefined : syntax(() => parseJdoqlFilter(text), "filter");
  const collector = new ParamCollector();
  const source: SQuery = {
    type: "Query",
    unique: false,
    distinct: false,
    result: null,
    variables: [],
    parameters: [],
    imports: [],
    groupBy: [],
    orderBy: [],
    where,
    pos: where?.pos ?? START,
    ...extra,
  };
  const scope = newScope(model, candidate, source, collector);
  fillQuery(scope, source);
  return { query: scope.query, collector };
}

/**
 * A prepared query from the cache, or built. Parsing, binding and compiling recurse on the
 * query's nesting, so a text nested deeper than the stack allows (a thousand parentheses) is the
 * client's error, answered 400, not a crash of the request.
 */
function prepared(model: Model, key: string, build: () => PreparedQuery): PreparedQuery {
  return cacheOf(model).get(key, () => {
    try {
      return build();
    } catch (error) {
      if (error instanceof RangeError && /call stack/i.test(error.message)) throw new QueryError("the query is nested too deeply to be read");
      throw error;
    }
  });
}

function syntax<T>(parse: () => T, parameter?: string): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof QuerySyntaxError) {
      throw new QueryError(error.message.replace(/^line \d+, column \d+: /, ""), error.position, error.expected, parameter);
    }
    throw error;
  }
}

const START = { offset: 0, line: 1, column: 1 };

/** A page of `GET /{class}` (contract §7): its query, the statements around it, and the parameters its texts use. */
export interface PreparedListing extends PreparedQuery {
  selector: SubquerySelector;
  /** The page's candidate keys with their ordering values (`_k<i>`, `_o<i>`), ranged by `listingValues`. */
  keys: Compiled;
  /** How many objects the listing has, range and cursor aside (`Prefer: count=exact`). */
  total: Compiled;
  /** How many ordering values a cursor carries. */
  orderingWidth: number;
}

/** The placeholder values of a listing's page: `size` objects from `from` (after the cursor, with one). */
export function listingValues(from: number, to: number): Record<string, unknown> {
  return { [paramName(PAGE_FROM)]: from, [paramName(PAGE_TO)]: to };
}
const PAGE_FROM = "\u0000from";
const PAGE_TO = "\u0000to";

/**
 * `GET /{class}` with `filter`, `ordering`, `range` or `after`: the query `SELECT FROM class WHERE
 * filter ORDER BY ordering RANGE from, to`, with the keyset condition when `keyset` (contract §7).
 * The filter and the ordering are parsed and bound by the JDOQL front end, each error naming its
 * parameter; an ordering by a collection is refused there.
 */
export function prepareListing(model: Model, candidate: ClassMeta, filter: string | undefined, ordering: string | undefined, keyset: boolean): PreparedListing {
  const key = `listing\u0000${candidate.name}\u0000${filter ?? ""}\u0000${ordering ?? ""}\u0000${keyset}`;
  return prepared(model, key, () => {
    const orderBy = ordering === undefined ? [] : syntax(() => parseJdoqlOrdering(ordering), "ordering");
    const pos = START;
    const range = { from: { type: "Param" as const, name: PAGE_FROM, pos }, to: { type: "Param" as const, name: PAGE_TO, pos } };
    // Bound once with the filter alone, then with the ordering: each error names its parameter.
    if (filter !== undefined) inParameter("filter", () => boundFilter(model, candidate, filter));
    const bound = inParameter("ordering", () => boundFilter(model, candidate, filter, { orderBy, range }));
    const { query, collector } = bound;
    query.listing = { keyset, orderingValues: true };
    for (const internal of [PAGE_FROM, PAGE_TO]) collector.specs.delete(internal);
    const cacheKey = `listing:${candidate.name}:${filter ?? ""}:${ordering ?? ""}:${keyset}`;
    const unpaged: QQuery = { ...query, range: undefined, listing: undefined };
    return {
      query,
      candidate,
      params: [...collector.specs.values()],
      selector: {
        kind: "subquery",
        cacheKey,
        ordered: true,
        keys: () => candidateKeys(model, { ...query, listing: { keyset, orderingValues: false } }),
        cut: (_, limit) => candidateKeys(model, { ...query, listing: { keyset, orderingValues: false } }, limit),
      },
      keys: compile(candidateKeys(model, query)),
      total: compile(sql`SELECT COUNT(*) FROM (${candidateKeys(model, unpaged)})`),
      orderingWidth: query.orderBy.reduce((n, o) => n + (o.expr.type.kind === "entity" ? o.expr.type.meta.keyColumns.length : 1), 0),
    };
  }) as PreparedListing;
}

function inParameter<T>(parameter: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw error instanceof QueryError && !error.parameter ? error.in(parameter) : error;
  }
}

/** A JPQL statement (`/jpql`): SELECT runs; UPDATE and DELETE change data and are refused on GET. */
export function prepareJpql(model: Model, text: string): PreparedQuery {
  return prepared(model, `jpql\u0000${text}`, () => {
    const statement = syntax(() => parseJpql(text));
    if (statement.type === "Update" || statement.type === "Delete") {
      throw new ModifyingQueryError(`${statement.type.toUpperCase()} statements change data and are not allowed on GET`, statement.pos);
    }
    const params = new ParamCollector();
    return compileQuery(model, bindJpql(model, statement, params), params, `jpql:${text}`);
  });
}

function compileQuery(model: Model, query: QQuery, collector: ParamCollector, cacheKey: string): PreparedQuery {
  const candidate = (query.candidate.type as { meta: ClassMeta }).meta;
  const params = [...collector.specs.values()];
  if (query.shape === "candidates") {
    return {
      query,
      candidate,
      params,
      // Built again for each read plan rather than kept: the SQL tree weighs several times the query.
      selector: {
        kind: "subquery",
        cacheKey,
        ordered: true,
        keys: () => candidateKeys(model, query),
        cut: (_, limit) => candidateKeys(model, query, limit),
      },
      count: compile(sql`SELECT COUNT(*) FROM (${candidateKeys(model, query)})`),
    };
  }
  const p = projection(model, query);
  const json = projectionJson(p.sql, p.columns, query.shape);
  return {
    query,
    candidate,
    params,
    projection: { compiled: compile(p.sql), columns: p.columns, json: json && { compiled: compile(json.sql), rowBytes: json.rowBytes } },
  };
}
