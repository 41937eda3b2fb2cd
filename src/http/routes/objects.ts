/**
 * The objects of a class: `/{class}` (its extent, a filter's matches, one object by a key in the
 * body; POST creates, DELETE deletes one or all) and `/{class}/{key}` (GET, PUT, DELETE). Each
 * route reads the class, key, fetch plan, preconditions and body, and hands them to the service.
 */
import type { Operation } from "../../config/access-rules.ts";
import type { ObjectJson } from "../../json/answer.ts";
import { stringify } from "../../json/exact.ts";
import type { ClassMeta } from "../../metadata/model.ts";
import { bindParams } from "../../query/params.ts";
import { listingValues, prepareFilter, prepareListing } from "../../query/prepare.ts";
import { readListing } from "../../service/listing.ts";
import { listingAnswer, listingRequest } from "../listing.ts";
import { noSuchObject } from "../../service/absent.ts";
import { deleteExtent, deleteObject } from "../../service/delete.ts";
import { countMatches, runQuery } from "../../service/query.ts";
import { extentBody } from "../../service/read-extent.ts";
import { getObject, objectVersion } from "../../service/read.ts";
import { createObject, updateObject } from "../../service/write.ts";
import { jsonAnswer, jsonText, unlessNotModified } from "../answers.ts";
import { collectionNotModified, etagOf, notModified, writePreconditions } from "../conditional.ts";
import { type QueryOf, fetchPlanOf, queryOf, readBody } from "../inputs.ts";
import { authorize, authorizeQuery } from "../auth/access-scope.ts";
import { keyFromObject, keyFromPath } from "../keys.ts";
import { HttpError } from "../problem.ts";
import { type Resource, type RouteRequest, plain, routeRequest } from "../resource.ts";
import { OPENAPI_NAME } from "./openapi.ts";
import { QUERY_ALLOW, QUERY_NAMES } from "./queries.ts";
import { withFields } from "../../util/objects.ts";
import { type Eventually, thenNow } from "../../util/eventually.ts";
import type { FetchPlan } from "../../read/fetch-plan.ts";
import { mayHaveBody } from "../body.ts";

/** The class of the path: 404 when the model has none of that name (405 under a query path). */
function classOf(r: RouteRequest): ClassMeta {
  const name = r.param("class")!;
  const meta = r.rt.model.classes.get(name);
  if (!meta || meta.embeddedOnly) {
    if (QUERY_NAMES.has(name)) {
      // GET /jdoql/x: the query path has nothing below it; another method on it is the 405.
      if (r.raw.method === "GET" || r.raw.method === "HEAD")
        throw new HttpError(404, `no resource at ${new URL(r.raw.url).pathname}: give a query as /${name}?query=...`);
      throw new HttpError(405, `${r.raw.method} is not allowed on /${name}: queries are GET`, { headers: { allow: QUERY_ALLOW } });
    }
    // The document is GET only; another method on it (which `/{class}` would take) is its 405.
    if (name === OPENAPI_NAME && !r.param("key"))
      throw new HttpError(405, `${r.raw.method} is not allowed on /${name}; allowed: GET, HEAD`, { headers: { allow: "GET, HEAD" } });
    throw new HttpError(404, `unknown class "${name}": the model has no persistent class of that name`);
  }
  return meta;
}

/** The class of the path, once the principal may `operation` its objects at all (401/403, src/http/auth/access-scope.ts). */
function classFor(r: RouteRequest, operation: Operation): ClassMeta {
  const meta = classOf(r);
  authorize(r, meta, operation);
  return meta;
}

function pathKey(r: RouteRequest, meta: ClassMeta): unknown[] {
  const rt = r.rt;
  return keyFromPath(rt.model, meta, r.param("key")!, rt.limits.keyBytes);
}

/** A composite key may come in the body of GET, HEAD and DELETE on the class path. */
async function bodyKey(r: RouteRequest, meta: ClassMeta): Promise<unknown[] | undefined> {
  const body = await readBody(r, false);
  const rt = r.rt;
  return body === undefined ? undefined : keyFromObject(rt.model, meta, body, rt.limits.keyBytes, "body");
}

/** The `ETag` header of an object of a versioned class: its version. */
function tagged(object: Pick<ObjectJson, "version">): Record<string, string> {
  const etag = etagOf(object.version);
  return etag ? { etag } : {};
}

/** One object; 412 when `If-Match` fails, 304 when `If-None-Match` does (src/http/conditional.ts). */
function objectAnswer(r: RouteRequest, meta: ClassMeta, key: unknown[], object: Pick<ObjectJson, "version"> & { json?: string }): Response {
  const headers = tagged(object);
  if (notModified(r.raw, headers.etag, () => `${meta.name} ${JSON.stringify(key.length === 1 ? key[0] : key)}`))
    return new Response(null, { status: 304, headers });
  // HEAD (no JSON read): GET's status and headers.
  return jsonText(object.json ?? "", 200, headers);
}

/** HEAD of one object: its existence and ETag, read without the object. */
async function headAnswer(r: RouteRequest, meta: ClassMeta, key: unknown[]): Promise<Response> {
  const rt = r.rt;
  const found = await objectVersion(rt, meta, key);
  // Absent: GET's 404, headers and all (the body is dropped for HEAD).
  if (!found) throw noSuchObject(rt.model, meta, key);
  return objectAnswer(r, meta, key, found);
}

/** The path of an object, from its identity (its key fields as JSON, or `_id`). */
function location(prefix: string, meta: ClassMeta, object: Record<string, unknown>): string {
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
  return `${prefix}/${meta.name}/${encodeURIComponent(segment)}`;
}

/**
 * `GET /{class}` with `ordering`, `range` or `after` (src/http/listing.ts): an ordered listing, or a
 * page of it with its Content-Range and links; undefined when the request has none of them.
 */
async function listingOf(r: RouteRequest, meta: ClassMeta, query: QueryOf): Promise<Response | undefined> {
  const rt = r.rt;
  const { text: filter, params, given } = query;
  if (filter !== undefined && !filter.trim()) throw new HttpError(400, "the filter is empty");
  const request = listingRequest(r, params, meta, filter);
  if (!request) return undefined;
  const prepared = prepareListing(rt.model, meta, filter, request.ordering, request.after !== undefined);
  authorizeQuery(r, prepared.query);
  if (request.after && (request.after.key.length !== meta.keyColumns.length || request.after.ordering.length !== prepared.orderingWidth)) {
    throw new HttpError(400, "after: is not a cursor of this listing: follow the next link of a page", {
      errors: [{ path: "after", message: "does not fit the listing" }],
    });
  }
  const values = bindParams(rt.model, prepared.params, given, rt.limits.keyBytes);
  const fetch = fetchPlanOf(r, undefined, params);
  if (!request.page) {
    // Ordered, not paged: the whole listing, as a filter's matches are answered.
    return unlessNotModified(r, "a listing", () =>
      thenNow(runQuery(rt, prepared, withFields(values, listingValues(0, Number.MAX_SAFE_INTEGER)), fetch), jsonAnswer),
    );
  }
  const page = await readListing(rt, prepared, values, fetch, withFields(request.page, { after: request.after, total: request.total }));
  return listingAnswer(r, request, page, meta, filter);
}

/** A listing's answer, or, when the parameters make none, what `unlisted` answers. */
async function listedOr(r: RouteRequest, meta: ClassMeta, query: QueryOf): Promise<Response> {
  return (await listingOf(r, meta, query)) ?? unlisted(r, meta, query);
}

/** GET of a class without a listing: a filter's matches, the object of a key in the body, or the extent. */
function unlisted(r: RouteRequest, meta: ClassMeta, query: QueryOf): Eventually<Response> {
  const rt = r.rt;
  const { params, prepared, values } = filterOf(r, meta, query);
  const fetch = fetchPlanOf(r, undefined, params);
  if (prepared) return unlessNotModified(r, "a filter's answer", () => thenNow(runQuery(rt, prepared, values, fetch), jsonAnswer));
  if (mayHaveBody(r.raw)) return keyedOrExtent(r, meta, fetch);
  return extentAnswer(r, meta, fetch);
}

/** The object of the key in the body, or the extent when the body holds none. */
async function keyedOrExtent(r: RouteRequest, meta: ClassMeta, fetch: FetchPlan): Promise<Response> {
  const key = await bodyKey(r, meta);
  if (key) return objectAnswer(r, meta, key, await getObject(r.rt, meta, key, fetch));
  return extentAnswer(r, meta, fetch);
}

/** The extent: text when it fits one page, else a stream of pages (see src/service/read-extent.ts). */
function extentAnswer(r: RouteRequest, meta: ClassMeta, fetch: FetchPlan): Eventually<Response> {
  // Through jsonText: a text answer is marked as one, so compression judges it by its length, without asking for its body.
  return unlessNotModified(r, `the extent of ${meta.name}`, () => thenNow(extentBody(r.rt, meta, fetch), jsonAnswer));
}

/** The filter of `GET /{class}?filter=F`, prepared and bound; undefined when there is none. */
function filterOf(r: RouteRequest, meta: ClassMeta, query: QueryOf) {
  const rt = r.rt;
  const { text: filter, params, given } = query;
  if (filter === undefined) return { params };
  if (!filter.trim()) throw new HttpError(400, "the filter is empty");
  const prepared = prepareFilter(rt.model, meta, filter);
  authorizeQuery(r, prepared.query);
  return { params, prepared, values: bindParams(rt.model, prepared.params, given, rt.limits.keyBytes) };
}

export const objects: readonly Resource[] = [
  {
    path: "/:class",
    what: "a class",
    exists: (c) => classOf(routeRequest(c)),
    /**
     * A page of an ordered or ranged listing, a filter's matches, the object of a key in the body,
     * or the extent. Not async: most requests ask for no listing and send no body, and their
     * answer then comes at once when the store read it at once (nothing awaited in the route).
     */
    GET: plain((r) => {
      const meta = classFor(r, "read");
      // The query read once, for the listing and the filter both.
      const query = queryOf(r, "filter", "filter");
      return query.listing ? listedOr(r, meta, query) : unlisted(r, meta, query);
    }),
    /** A filter's HEAD says how many objects match (200 for exactly one, else 404); the others read no object. */
    HEAD: plain(async (r) => {
      const rt = r.rt;
      const meta = classFor(r, "read");
      const { params, prepared, values } = filterOf(r, meta, queryOf(r, "filter", "filter"));
      if (prepared) {
        return unlessNotModified(r, "a filter's answer", async () => {
          const count = await countMatches(rt, prepared, values);
          return new Response(null, { status: count === 1 ? 200 : 404, headers: { "x-match-count": String(count) } });
        });
      }
      fetchPlanOf(r, undefined, params); // a fetch plan GET refuses is HEAD's 400 as well
      const key = await bodyKey(r, meta);
      if (key) return headAnswer(r, meta, key);
      // The extent is always there (an empty one is `[]`): HEAD answers GET's 200 without reading it.
      return unlessNotModified(r, `the extent of ${meta.name}`, async () => jsonText(""));
    }),
    POST: plain(async (r) => {
      const rt = r.rt;
      const meta = classFor(r, "create");
      const fetch = fetchPlanOf(r, rt.writeFetchPlan);
      const body = await readBody(r, true);
      collectionNotModified(r.raw, `the extent of ${meta.name}`);
      // Awaited only when the write answers later (an embedded file's batch comes at once).
      const created = createObject(rt, meta, body, fetch);
      const result = created instanceof Promise ? await created : created;
      const at = { location: location(rt.prefix, result.meta, result.identity) };
      // Written, but hidden from its writer by the access rules: its Location, no body.
      if (!result.object) return new Response(null, { status: 201, headers: at });
      return jsonText(result.object.json, 201, withFields(at, tagged(result.object)));
    }),
    DELETE: plain(async (r) => {
      const rt = r.rt;
      const meta = classFor(r, "delete");
      const url = new URL(r.raw.url);
      if (url.search.length > 1) throw new HttpError(400, "DELETE of a class takes no query: deleting by filter is not supported");
      // `/{class}/` is an empty key, not the class: it must never delete the whole extent.
      if (url.pathname.endsWith("/"))
        throw new HttpError(400, `the key is empty: DELETE ${url.pathname}{key} deletes one object, DELETE ${url.pathname.slice(0, -1)} the whole extent`);
      const key = await bodyKey(r, meta);
      if (key) await deleteObject(rt, meta, key, writePreconditions(r.raw, meta));
      else {
        collectionNotModified(r.raw, `the extent of ${meta.name}`);
        await deleteExtent(rt, meta);
      }
      return new Response(null, { status: 204 });
    }),
  },
  {
    path: "/:class/:key",
    what: "an object",
    exists: (c) => classOf(routeRequest(c)),
    GET: plain((r) => {
      const meta = classFor(r, "read");
      const key = pathKey(r, meta);
      const fetch = fetchPlanOf(r);
      // Not async: an embedded file's read by key comes at once, and so does the answer then.
      return thenNow(getObject(r.rt, meta, key, fetch), (found) => objectAnswer(r, meta, key, found));
    }),
    HEAD: plain((r) => {
      const meta = classFor(r, "read");
      const key = pathKey(r, meta);
      fetchPlanOf(r); // a fetch plan GET refuses is HEAD's 400 as well
      return headAnswer(r, meta, key);
    }),
    PUT: plain(async (r) => {
      const rt = r.rt;
      const meta = classFor(r, "update");
      const key = pathKey(r, meta);
      const fetch = fetchPlanOf(r, rt.writeFetchPlan);
      const body = await readBody(r, true);
      const updated = updateObject(rt, meta, key, body, fetch, writePreconditions(r.raw, meta));
      const { object } = updated instanceof Promise ? await updated : updated;
      // Changed, but hidden from its writer by the access rules now: no body.
      if (!object) return new Response(null, { status: 204 });
      return jsonText(object.json, 200, tagged(object));
    }),
    DELETE: plain(async (r) => {
      const meta = classFor(r, "delete");
      await deleteObject(r.rt, meta, pathKey(r, meta), writePreconditions(r.raw, meta));
      return new Response(null, { status: 204 });
    }),
  },
];
