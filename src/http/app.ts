/**
 * Routes: the seed's endpoints on a Hono app. Each route parses the request (class, key,
 * parameters, body) and hands it to a service operation; every failure becomes a problem
 * document with the contract's status.
 */
import { Hono, type Context } from "hono";
import type { ClassMeta } from "../metadata/model.ts";
import { type FetchPlan, parseFetchPlan } from "../read/fetch-plan.ts";
import { deleteExtent, deleteObject } from "../service/delete.ts";
import { getObject, objectVersion } from "../service/read.ts";
import { noSuchObject } from "../service/absent.ts";
import { extentBody } from "../service/read-extent.ts";
import type { Runtime } from "../service/runtime.ts";
import { DeadlineStore } from "../store/deadline-store.ts";
import { CountingStore } from "../store/store.ts";
import { createObject, updateObject } from "../service/write.ts";
import { readJsonBody } from "./body.ts";
import { stringify } from "../json/exact.ts";
import { keyFromObject, keyFromPath } from "./keys.ts";
import { collectionNotModified, etagOf, notModified, writePreconditions } from "./conditional.ts";
import type { ObjectJson } from "../json/answer.ts";
import { HttpError, problem } from "./problem.ts";
import { checkBodyShape, checkParameterCount, checkQueryLength, checkUrlLength } from "./request-limits.ts";
import { queryText } from "./query-params.ts";
import { errorAnswer } from "./error-status.ts";
import { bindParams, parseParams } from "../query/params.ts";
import { prepareFilter, prepareJdoql, prepareJpql } from "../query/prepare.ts";
import { countMatches, runQuery } from "../service/query.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const QUERY_PATHS = new Set(["jdoql", "query", "jpql"]);

/**
 * The methods of each served path (HEAD answers what GET would, without the body). Any other
 * method answers 405 with this `Allow`; OPTIONS answers 204 with it.
 */
const METHODS = { root: "GET, HEAD", query: "GET, HEAD", class: "GET, HEAD, POST, DELETE", object: "GET, HEAD, PUT, DELETE" };

type Env = { Variables: { rt: Runtime } };

export function buildApp(shared: Runtime, ready: () => Promise<void>): Hono<Env> {
  const base = new Hono<Env>({ strict: false });
  const app = shared.prefix ? base.basePath(shared.prefix) : base;

  // Once the store is ready, requests stop waiting on the promise (a microtask each).
  let isReady = false;
  void ready().then(() => (isReady = true), () => {});
  base.use(async (c, next) => {
    checkUrlLength(c.req.url, shared.limits);
    if (!isReady) await ready();
    // The request's own clock (limits.requestTimeMs) and, for Server-Timing, its own count of
    // what it cost the store.
    const timed = new DeadlineStore(shared.store, shared.limits.requestTimeMs);
    const store = shared.serverTiming ? new CountingStore(timed) : timed;
    c.set("rt", { ...shared, store });
    const started = performance.now();
    try {
      await next();
    } finally {
      timed.release();
    }
    if (!(store instanceof CountingStore)) return;
    const desc = `${store.roundTrips} round trip${store.roundTrips === 1 ? "" : "s"}, ${store.statements} statement${store.statements === 1 ? "" : "s"}`;
    c.res.headers.append("server-timing", `store;desc="${desc}";dur=${(performance.now() - started).toFixed(1)}`);
  });

  /** A JSON answer from its text (JSON selects write it) or, for the rest, from a value. */
  const jsonText = (c: Context<Env>, body: string, status = 200, headers: Record<string, string> = {}) =>
    new Response(c.req.method === "HEAD" ? null : body, { status, headers: { "content-type": JSON_TYPE, ...headers } });
  const json = (c: Context<Env>, body: unknown, status = 200, headers: Record<string, string> = {}) => jsonText(c, stringify(body), status, headers);

  const classOf = (c: Context<Env>): ClassMeta => {
    const name = c.req.param("class")!;
    const meta = shared.model.classes.get(name);
    if (!meta || meta.embeddedOnly) {
      if (QUERY_PATHS.has(name)) {
        // GET /jdoql/x: the query path has nothing below it; another method on it is the 405.
        if (c.req.method === "GET" || c.req.method === "HEAD") throw new HttpError(404, `no resource at ${new URL(c.req.url).pathname}: give a query as /${name}?query=...`);
        throw new HttpError(405, `${c.req.method} is not allowed on /${name}: queries are GET`, { headers: { allow: METHODS.query } });
      }
      throw new HttpError(404, `unknown class "${name}": the model has no persistent class of that name`);
    }
    return meta;
  };

  const fetchPlanOf = (c: Context<Env>, fallback?: FetchPlan, params = new URL(c.req.url).searchParams): FetchPlan => {
    const parsed = parseFetchPlan(shared.model, params, fallback, shared.limits.maxFetchDepth);
    if (!parsed.ok) throw new HttpError(400, parsed.message, { errors: [{ path: parsed.parameter, message: parsed.message }] });
    return parsed.plan;
  };

  /** The JSON body within the size and shape limits. */
  const readBody = async (c: Context<Env>, required: boolean): Promise<unknown> => {
    const body = await readJsonBody(c.req.raw, shared.limits.bodyBytes, required);
    checkBodyShape(body, shared.limits);
    return body;
  };

  /** The query text and its parameter values, within the limits; `what` names the text in messages. */
  const queryOf = (c: Context<Env>, name: "query" | "filter", what: string) => {
    const { text, params } = queryText(new URL(c.req.url), name);
    if (text !== undefined) checkQueryLength(text, shared.limits, what);
    const given = parseParams(params.get("params"));
    checkParameterCount(given, shared.limits);
    return { text, params, given };
  };

  /** A composite key may come in the body of GET, HEAD and DELETE on the class path. */
  const bodyKey = async (c: Context<Env>, meta: ClassMeta): Promise<unknown[] | undefined> => {
    const body = await readBody(c, false);
    return body === undefined ? undefined : keyFromObject(shared.model, meta, body, shared.limits.keyBytes, "body");
  };

  /** The `ETag` header of an object of a versioned class: its version. */
  const tagged = (object: Pick<ObjectJson, "version">): Record<string, string> => {
    const etag = etagOf(object.version);
    return etag ? { etag } : {};
  };

  /** One object; 412 when `If-Match` fails, 304 when `If-None-Match` does (src/http/conditional.ts). */
  const objectAnswer = (c: Context<Env>, meta: ClassMeta, key: unknown[], object: Pick<ObjectJson, "version"> & { json?: string }): Response => {
    const headers = tagged(object);
    if (notModified(c.req.raw, headers.etag, `${meta.name} ${JSON.stringify(key.length === 1 ? key[0] : key)}`)) return new Response(null, { status: 304, headers });
    // HEAD (no JSON read): GET's status and headers, without the body.
    return jsonText(c, object.json ?? "", 200, headers);
  };

  /** HEAD of one object: its existence and ETag, read without the object. */
  const headAnswer = async (c: Context<Env>, meta: ClassMeta, key: unknown[]): Promise<Response> => {
    const found = await objectVersion(c.var.rt, meta, key);
    // Absent: GET's 404, headers and all (the body is dropped for HEAD).
    if (!found) throw noSuchObject(c.var.rt.model, meta, key);
    return objectAnswer(c, meta, key, found);
  };

  /** A collection's answer (extent, filter, query), unless a precondition says 412 or 304. */
  const unlessNotModified = async (c: Context<Env>, what: string, answer: () => Promise<Response>): Promise<Response> =>
    collectionNotModified(c.req.raw, what) ? new Response(null, { status: 304 }) : answer();

  /** The path of an object, from its identity (its key fields as JSON, or `_id`). */
  const location = (meta: ClassMeta, object: Record<string, unknown>): string => {
    const identity = meta.identity;
    let segment: string;
    if (identity.kind === "datastore") segment = String(object._id);
    else {
      const single = identity.fields.length === 1 && meta.fields.get(identity.fields[0]!)!.type.kind !== "key";
      const plain = single ? String(object[identity.fields[0]!]) : undefined;
      // A plain key that a path would read otherwise (as a key object, or as "." and ".." segments
      // that URLs remove) is written as its key object, which reads back as exactly this key.
      const readsBack = plain !== undefined && !/^\s*\{/.test(plain) && !/^\.{0,2}$/.test(plain);
      segment = readsBack ? plain : stringify(Object.fromEntries(identity.fields.map((f) => [f, object[f]])));
    }
    return `${shared.prefix}/${meta.name}/${encodeURIComponent(segment)}`;
  };

  app.get("/", (c) => json(c, { classes: [...shared.model.classes.values()].filter((m) => !m.embeddedOnly).map((m) => m.name) }));

  // JDOQL: /jdoql?query=Q, /query?query=Q, and the raw /jdoql?Q.
  for (const path of ["/jdoql", "/query"]) {
    app.get(path, async (c) => {
    const rt = c.var.rt;
      const { text, params, given } = queryOf(c, "query", "JDOQL query");
      if (!text?.trim()) throw new HttpError(400, "give the JDOQL query as ?query=... (URL-encoded)");
      const prepared = prepareJdoql(rt.model, text);
      const values = bindParams(rt.model, prepared.params, given, rt.limits.keyBytes);
      const fetch = fetchPlanOf(c, undefined, params);
      return unlessNotModified(c, "a query's answer", async () => jsonText(c, await runQuery(rt, prepared, values, fetch)));
    });
  }
  // JPQL: /jpql?query=Q and the raw /jpql?Q.
  app.get("/jpql", async (c) => {
    const rt = c.var.rt;
    const { text, params, given } = queryOf(c, "query", "JPQL query");
    if (!text?.trim()) throw new HttpError(400, "give the JPQL query as ?query=... (URL-encoded)");
    const prepared = prepareJpql(rt.model, text);
    const values = bindParams(rt.model, prepared.params, given, rt.limits.keyBytes);
    const fetch = fetchPlanOf(c, undefined, params);
    return unlessNotModified(c, "a query's answer", async () => jsonText(c, await runQuery(rt, prepared, values, fetch)));
  });

  app.get("/:class", async (c) => {
    const rt = c.var.rt;
    const meta = classOf(c);
    const { text: filter, params, given } = queryOf(c, "filter", "filter");
    if (filter !== undefined) {
      if (!filter.trim()) throw new HttpError(400, "the filter is empty");
      const prepared = prepareFilter(rt.model, meta, filter);
      const values = bindParams(rt.model, prepared.params, given, rt.limits.keyBytes);
      if (c.req.method === "HEAD") {
        return unlessNotModified(c, "a filter's answer", async () => {
          const count = await countMatches(rt, prepared, values);
          return new Response(null, { status: count === 1 ? 200 : 404, headers: { "x-match-count": String(count) } });
        });
      }
      const fetch = fetchPlanOf(c, undefined, params);
      return unlessNotModified(c, "a filter's answer", async () => jsonText(c, await runQuery(rt, prepared, values, fetch)));
    }
    const fetch = fetchPlanOf(c, undefined, params);
    const key = await bodyKey(c, meta);
    const head = c.req.method === "HEAD";
    if (key) return head ? headAnswer(c, meta, key) : objectAnswer(c, meta, key, await getObject(rt, meta, key, fetch));
    // The extent is always there (an empty one is `[]`): HEAD answers GET's 200 without reading it.
    if (head) return unlessNotModified(c, `the extent of ${meta.name}`, async () => jsonText(c, ""));
    // Text when the extent fits one page, else a stream of pages (see src/service/read-extent.ts).
    return unlessNotModified(c, `the extent of ${meta.name}`, async () => new Response(await extentBody(rt, meta, fetch), { headers: { "content-type": JSON_TYPE } }));
  });

  app.post("/:class", async (c) => {
    const rt = c.var.rt;
    const meta = classOf(c);
    const fetch = fetchPlanOf(c, rt.writeFetchPlan);
    const body = await readBody(c, true);
    collectionNotModified(c.req.raw, `the extent of ${meta.name}`);
    const result = await createObject(rt, meta, body, fetch);
    return jsonText(c, result.object.json, 201, { location: location(result.meta, result.identity), ...tagged(result.object) });
  });

  app.delete("/:class", async (c) => {
    const rt = c.var.rt;
    const meta = classOf(c);
    const url = new URL(c.req.url);
    if (url.search.length > 1) throw new HttpError(400, "DELETE of a class takes no query: deleting by filter is not supported");
    // `/{class}/` is an empty key, not the class: it must never delete the whole extent.
    if (url.pathname.endsWith("/")) throw new HttpError(400, `the key is empty: DELETE ${url.pathname}{key} deletes one object, DELETE ${url.pathname.slice(0, -1)} the whole extent`);
    const key = await bodyKey(c, meta);
    if (key) await deleteObject(rt, meta, key, writePreconditions(c.req.raw, meta));
    else {
      collectionNotModified(c.req.raw, `the extent of ${meta.name}`);
      await deleteExtent(rt, meta);
    }
    return c.body(null, 204);
  });

  app.get("/:class/:key", async (c) => {
    const rt = c.var.rt;
    const meta = classOf(c);
    const key = keyFromPath(rt.model, meta, c.req.param("key"), rt.limits.keyBytes);
    const fetch = fetchPlanOf(c); // HEAD too: a fetch plan GET refuses is HEAD's 400 as well
    if (c.req.method === "HEAD") return headAnswer(c, meta, key);
    return objectAnswer(c, meta, key, await getObject(rt, meta, key, fetch));
  });

  app.put("/:class/:key", async (c) => {
    const rt = c.var.rt;
    const meta = classOf(c);
    const key = keyFromPath(rt.model, meta, c.req.param("key"), rt.limits.keyBytes);
    const fetch = fetchPlanOf(c, rt.writeFetchPlan);
    const body = await readBody(c, true);
    const { object } = await updateObject(rt, meta, key, body, fetch, writePreconditions(c.req.raw, meta));
    return jsonText(c, object.json, 200, tagged(object));
  });

  app.delete("/:class/:key", async (c) => {
    const rt = c.var.rt;
    const meta = classOf(c);
    await deleteObject(rt, meta, keyFromPath(rt.model, meta, c.req.param("key"), rt.limits.keyBytes), writePreconditions(c.req.raw, meta));
    return c.body(null, 204);
  });

  // Any other method on a served path: OPTIONS is 204, the rest 405, each with the path's methods.
  const others = (methods: string, what: string, served: (c: Context<Env>) => unknown = () => {}) => (c: Context<Env>) => {
    served(c); // an unknown class is a 404 whatever the method
    if (c.req.method === "OPTIONS") return c.body(null, 204, { allow: methods });
    throw new HttpError(405, `${c.req.method} is not allowed on ${what}; allowed: ${methods}`, { headers: { allow: methods } });
  };
  app.all("/", others(METHODS.root, "the root"));
  for (const path of ["/jdoql", "/query", "/jpql"]) app.all(path, others(METHODS.query, `${path}: queries are GET`));
  app.all("/:class", others(METHODS.class, "a class", classOf));
  app.all("/:class/:key", others(METHODS.object, "an object", classOf));

  base.notFound((c) => problem(404, `no resource at ${new URL(c.req.url).pathname}`));
  base.onError((error) => errorAnswer(error, shared.limits));
  return base;
}
