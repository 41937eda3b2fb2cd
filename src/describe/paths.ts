/**
 * The paths and operations of the document (contract §5–§7): the root, each class's extent and
 * objects, the query endpoints and the document itself, each with its parameters, bodies, answers
 * with their headers, and a problem document for every error status the route can answer.
 */
import type { ClassMeta, Model } from "../metadata/model.ts";
import { OWN_FILES, PACKAGE_FILES } from "./explorer-assets.ts";
import { type Schema, ref } from "./schemas.ts";

export interface SecurityShape {
  /** Whether a request may come without credentials (an anonymous role, or the app authenticates itself). */
  anonymous: boolean;
  /** Whether `Authorization: Bearer <jwt>` is read. */
  bearer: boolean;
  /** The role an unauthenticated request has, if any. */
  anonymousRole?: string | undefined;
  /** With access rules: the roles granted `operation` on the objects of `meta` (`*`: every principal). */
  roles?: ((meta: ClassMeta, operation: Operation) => readonly string[]) | undefined;
}

export type Operation = "read" | "create" | "update" | "delete";

/** Errors any request can meet: a URL too long, headers too large, a bug, the time limit. */
const ALWAYS = [414, 431, 500, 503];

const json = (schema: Schema) => ({ "application/json": { schema } });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });

export class PathWriter {
  constructor(
    private readonly model: Model,
    private readonly security: SecurityShape | undefined,
  ) {}

  /** The answers of an operation: its successes, then a problem for each error status, 401/403 when access control is on. */
  private responses(ok: Record<string, unknown>, errors: number[], guarded = true): Record<string, unknown> {
    const statuses = new Set([...errors, ...ALWAYS]);
    if (this.security) statuses.add(401);
    if (this.security && guarded) statuses.add(403);
    const out: Record<string, unknown> = { ...ok };
    for (const s of [...statuses].sort()) out[String(s)] = { $ref: `#/components/responses/Problem${s}` };
    return out;
  }

  /** An operation; `on` (a class and what the operation does to it) lets the access rules shape its security. */
  private op(summary: string, extra: Record<string, unknown>, tag?: string, on?: [ClassMeta, Operation]): Record<string, unknown> {
    const sec = this.security;
    const roles = sec?.roles && on ? [...new Set(sec.roles(...on))] : undefined;
    const security = sec ? (roles ? this.ruledSecurity(sec, roles) : this.anySecurity(sec)) : undefined;
    const granted = roles ? { "x-extent-roles": roles } : {};
    return { summary, ...(tag ? { tags: [tag] } : {}), ...(security ? { security } : {}), ...granted, ...extra };
  }

  /** Without rules for the operation: a token, or none where requests may come without one. */
  private anySecurity(sec: SecurityShape): Record<string, string[]>[] {
    return [...(sec.bearer ? [{ bearer: [] }] : []), ...(sec.anonymous || !sec.bearer ? [{}] : [])];
  }

  /**
   * The rules' grants as security requirements, alternatives each (OpenAPI 3.1 lets a non-OAuth
   * scheme list role names): a token with one of the roles granted, or none where the anonymous
   * role (or every principal, with the app authenticating itself) is granted. No grant at all: the
   * operation still exists, and answers 401 or 403 to everyone; `x-extent-roles` is then empty.
   */
  private ruledSecurity(sec: SecurityShape, roles: readonly string[]): Record<string, string[]>[] {
    const everyone = roles.includes("*");
    const named = roles.filter((r) => r !== "*" && r !== sec.anonymousRole);
    const out: Record<string, string[]>[] = [];
    if (sec.bearer) out.push(...(everyone ? [{ bearer: [] }] : named.map((r) => ({ bearer: [r] }))));
    const anonymous = sec.anonymous && (everyone || (sec.anonymousRole !== undefined && roles.includes(sec.anonymousRole)));
    if (anonymous || (!sec.bearer && roles.length)) out.push({});
    // Nobody may: a requirement no request meets (a role no grant names), rather than none, which would mean "open".
    return out.length ? out : sec.bearer ? [{ bearer: ["(no role is granted this)"] }] : [{}];
  }

  /** The fetch plan's parameters: any group of the model applies (to nested objects too); this class's own come first. */
  private fetchParams(meta?: ClassMeta): unknown[] {
    const all = new Set<string>(["default", "all", ...(meta ? meta.fetchGroups.keys() : [])]);
    for (const c of this.model.classes.values()) for (const g of c.fetchGroups.keys()) all.add(g);
    const own = meta ? [...meta.fetchGroups.keys()] : [];
    return [
      {
        name: "fetchGroup",
        in: "query",
        description: `Fetch groups, comma-separated: default, all${own.length ? `, and this class's ${own.join(", ")}` : ""}; a group of another class applies to its objects when nested. Unknown group: 400.`,
        style: "form",
        explode: false,
        schema: { type: "array", items: { type: "string", enum: [...all] } },
      },
      param("maxFetchDepth"),
    ];
  }

  private keyParam(meta: ClassMeta): Record<string, unknown> {
    const base = { name: "key", in: "path", required: true };
    const id = meta.identity;
    if (id.kind === "datastore")
      return {
        ...base,
        description: "the datastore identity (`_id`)",
        schema: id.generation.kind === "sequence" ? { type: "integer", format: "int64" } : { type: "string" },
      };
    const f = meta.fields.get(id.fields[0]!)!;
    if (id.fields.length === 1 && f.type.kind === "basic")
      return {
        ...base,
        description: `the key field \`${f.name}\``,
        schema:
          f.type.basic === "long" || f.type.basic === "int" || f.type.basic === "short" || f.type.basic === "byte" ? { type: "integer" } : { type: "string" },
      };
    return { ...base, description: `the key: a URL-encoded JSON object of ${id.fields.join(", ")}`, content: json(ref(`${meta.name}-key`)) };
  }

  classPaths(meta: ClassMeta): Record<string, unknown> {
    const name = meta.name;
    const tag = name;
    const etag = { ETag: header("ETag") };
    const one = { description: `the ${meta.simpleName}`, headers: etag, content: json(ref(name)) };
    const conditional = [param("If-Match"), param("If-None-Match")];
    const extent = {
      get: this.op(
        `The extent of ${meta.simpleName} (subclasses included), a filter's matches, or a page`,
        {
          description:
            "Without `range` or `after`, the whole extent (or the filter's matches) in key order. `?F` (a filter without a name) is read as `filter=F`. A composite key in a JSON body answers that object.",
          parameters: [
            param("filter"),
            param("params"),
            ...this.fetchParams(meta),
            param("ordering"),
            param("range"),
            param("after"),
            param("Prefer"),
            param("If-None-Match"),
          ],
          responses: this.responses(
            {
              200: {
                description: "the objects (or, for a key in the body, the object)",
                headers: {
                  "Content-Range": header("Content-Range"),
                  Link: header("Link"),
                  "Preference-Applied": header("Preference-Applied"),
                  ETag: header("ETag"),
                },
                content: json({ anyOf: [{ type: "array", items: ref(name) }, ref(name)] }),
              },
              304: { description: "not modified (If-None-Match)" },
            },
            [400, 404, 413, 415],
          ),
        },
        tag,
        [meta, "read"],
      ),
      head: this.op(
        `Whether exactly one ${meta.simpleName} matches the filter`,
        {
          parameters: [param("filter"), param("params"), ...this.fetchParams(meta)],
          responses: this.responses(
            {
              200: { description: "exactly one object matches (without a filter: the extent exists)", headers: { "X-Match-Count": header("X-Match-Count") } },
              404: { description: "no object, or more than one, matches", headers: { "X-Match-Count": header("X-Match-Count") } },
            },
            [400],
          ),
        },
        tag,
        [meta, "read"],
      ),
      post: this.op(
        `Create a ${meta.simpleName} (its whole graph, in one transaction)`,
        {
          parameters: this.fetchParams(meta),
          requestBody: { required: true, content: json(ref(`${name}-write`)) },
          responses: this.responses(
            {
              201: {
                description: "created: the stored object with its identity (no body when the access rules hide it from its writer)",
                headers: { Location: header("Location"), ...etag },
                content: json(ref(name)),
              },
            },
            [400, 409, 412, 413, 415, 422],
          ),
        },
        tag,
        [meta, "create"],
      ),
      delete: this.op(
        `Delete the whole extent of ${meta.simpleName}, or the object of a composite key in the body`,
        { parameters: conditional, responses: this.responses({ 204: { description: "deleted" } }, [400, 404, 409, 412, 413, 415, 422]) },
        tag,
        [meta, "delete"],
      ),
    };
    const object = {
      parameters: [this.keyParam(meta)],
      get: this.op(
        `One ${meta.simpleName}`,
        {
          parameters: [...this.fetchParams(meta), param("If-None-Match")],
          responses: this.responses({ 200: one, 304: { description: "not modified (If-None-Match)", headers: etag } }, [400, 404]),
        },
        tag,
        [meta, "read"],
      ),
      head: this.op(
        `Whether the ${meta.simpleName} exists, and its ETag`,
        { parameters: this.fetchParams(meta), responses: this.responses({ 200: { description: "it exists", headers: etag } }, [400, 404]) },
        tag,
        [meta, "read"],
      ),
      put: this.op(
        `Change a ${meta.simpleName}: only the fields sent change`,
        {
          parameters: [...this.fetchParams(meta), param("If-Match")],
          requestBody: { required: true, content: json(ref(`${name}-update`)) },
          responses: this.responses({ 200: { ...one, description: "the object after the change" } }, [400, 404, 409, 412, 413, 415, 422]),
        },
        tag,
        [meta, "update"],
      ),
      delete: this.op(
        `Delete a ${meta.simpleName} (and its dependent objects)`,
        { parameters: [param("If-Match")], responses: this.responses({ 204: { description: "deleted" } }, [400, 404, 409, 412]) },
        tag,
        [meta, "delete"],
      ),
    };
    return { [`/${name}`]: extent, [`/${name}/{key}`]: object };
  }

  queryPath(language: "JDOQL" | "JPQL"): Record<string, unknown> {
    return {
      get: this.op(
        `Run a ${language} query`,
        {
          description: `The single-string ${language} query as \`query\` (or as the whole query string). Candidates are objects; a projection of one expression an array of values, of several an array of arrays; UNIQUE and aggregates one value.${language === "JPQL" ? " SELECT only: UPDATE and DELETE answer 405." : " Bulk forms answer 405."}`,
          parameters: [
            { name: "query", in: "query", description: `the ${language} text`, schema: { type: "string" } },
            param("params"),
            ...this.fetchParams(),
            param("If-None-Match"),
          ],
          responses: this.responses(
            { 200: { description: "the query's answer", content: json({}) }, 304: { description: "not modified (If-None-Match)" } },
            [400, 405],
          ),
        },
        "queries",
      ),
    };
  }

  /** The explorer page's files: its own script and style, and, when the server has them, the renderers'. */
  explorerFiles(renderers: boolean): Record<string, unknown> {
    const names = [...Object.values(OWN_FILES), ...(renderers ? Object.keys(PACKAGE_FILES) : [])];
    const file = { type: "string", description: "the file's name, as the page asks for it" };
    return {
      get: this.op("A file of the explorer page", {
        description: "Only these names are served (any other, a path included, is a 404). Each answer has an ETag and may be cached for an hour.",
        parameters: [{ name: "file", in: "path", required: true, schema: { ...file, enum: names } }, param("If-None-Match")],
        responses: this.responses(
          {
            200: {
              description: "the file",
              headers: { ETag: header("ETag") },
              content: { "text/javascript": { schema: { type: "string" } }, "text/css": { schema: { type: "string" } } },
            },
            304: { description: "not modified (If-None-Match)", headers: { ETag: header("ETag") } },
          },
          [404],
          false,
        ),
      }),
    };
  }

  /** `explorer`: a browser's Accept (text/html preferred to JSON) is answered the explorer page. */
  root(explorer: boolean): Record<string, unknown> {
    const classes = json({ type: "object", properties: { classes: { type: "array", items: { type: "string" } } }, required: ["classes"] });
    const page = { "text/html": { schema: { type: "string", description: "the explorer page: the model, a query console, this document rendered" } } };
    return {
      get: this.op("The persistent classes served", {
        ...(explorer ? { description: "JSON unless the request's Accept prefers text/html to JSON (a browser's does): then the explorer page." } : {}),
        responses: this.responses(
          {
            200: {
              description: explorer ? "the class names; or, for a browser, the explorer page" : "the class names",
              content: explorer ? { ...classes, ...page } : classes,
              ...(explorer ? { headers: { Vary: { description: "Accept: the answer depends on it", schema: { type: "string" } } } } : {}),
            },
          },
          [],
          false,
        ),
      }),
    };
  }

  document(): Record<string, unknown> {
    return {
      get: this.op("This document: OpenAPI 3.1", {
        responses: this.responses({ 200: { description: "the OpenAPI document", content: json({ type: "object" }) } }, [], false),
      }),
    };
  }
}
