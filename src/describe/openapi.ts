/**
 * The OpenAPI 3.1 document of what a handler serves (contract §9), generated from the model once
 * per handler: schemas per class (src/describe/schemas.ts), paths (src/describe/paths.ts), and the
 * shared parameters, headers and problem answers they name.
 */
import type { ResolvedAccess } from "../config/access.ts";
import type { Model } from "../metadata/model.ts";
import type { AccessControl } from "../access/access-control.ts";
import { ASSETS_PATH } from "./explorer-assets.ts";
import { PathWriter, type SecurityShape } from "./paths.ts";
import { type Schema, SchemaWriter } from "./schemas.ts";

export type { SecurityShape } from "./paths.ts";

export interface DescribeOptions {
  /** The `{servlet_path}` prefix the paths are under (the server's URL). */
  prefix: string;
  /** Present when access control is configured. */
  security?: SecurityShape | undefined;
  /**
   * `GET /` answers the explorer page to a browser, and `/_explorer/{file}` its files (default: on,
   * without the renderers' files; `explorer: false` in the handler's options turns it off).
   */
  explorer?: boolean | { renderers: boolean };
  title?: string;
  version?: string;
}

/** Titles as src/http/problem.ts writes them (repeated here: describe sits below http). */
const STATUSES: Readonly<Record<number, [string, string]>> = {
  400: ["Bad Request", "malformed JSON, a query's syntax or meaning, a bad parameter, an unknown fetch group, an answer too large"],
  401: ["Unauthorized", "no credentials where the rules need a role, or bad, expired or wrongly signed credentials"],
  403: ["Forbidden", "the principal has no grant for this class and operation, or the rules refuse the object"],
  404: ["Not Found", "no object with that key (or hidden by the access rules)"],
  405: ["Method Not Allowed", "not on this path, or a bulk query form on GET"],
  409: ["Conflict", "a duplicate key, or a constraint the database refuses"],
  412: ["Precondition Failed", "If-Match names another version"],
  413: ["Content Too Large", "a body past the configured limit"],
  414: ["URI Too Long", "a URL past the configured limit"],
  415: ["Unsupported Media Type", "a body that is not JSON"],
  422: ["Unprocessable Content", "JSON that does not fit the class: unknown fields, values of the wrong type (each in `errors`)"],
  431: ["Request Header Fields Too Large", "headers past the configured limit"],
  500: ["Internal Server Error", "a bug, logged with the request id the body repeats"],
  503: ["Service Unavailable", "past the request's time limit (with Retry-After), or the store is not ready"],
};

const PROBLEM: Schema = {
  type: "object",
  description: "An RFC 9457 problem document. Never a stack trace, never SQL text.",
  properties: {
    type: { type: "string", format: "uri" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    instance: { type: "string" },
    errors: {
      type: "array",
      description: "each bad value: a JSON pointer into the body (or a parameter's name) and what is wrong",
      items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } }, required: ["path", "message"] },
    },
    position: {
      type: "object",
      description: "where a query's syntax error is",
      properties: { line: { type: "integer" }, column: { type: "integer" }, offset: { type: "integer" } },
      required: ["line", "column", "offset"],
    },
    expected: { type: "array", items: { type: "string" } },
  },
  required: ["type", "title", "status", "detail"],
};

const text = (description: string, schema: Schema = { type: "string" }) => ({ description, schema });

const HEADERS = {
  ETag: text('the object\'s version, strong: `"3"` (versioned classes); for collections, a digest of the answer'),
  Location: text("the URL of the new object", { type: "string", format: "uri-reference" }),
  "Content-Range": text("the page: `items FIRST-LAST/TOTAL` (`TOTAL` is `*` unless `Prefer: count=exact`; an empty page is `items */TOTAL`)"),
  Link: text('`<URL>; rel="next"` (and `rel="prev"`) when more objects follow'),
  "X-Match-Count": text("how many objects match the filter", { type: "integer" }),
  "Preference-Applied": text("`count=exact` when the total was counted"),
  "Retry-After": text("seconds to wait", { type: "integer" }),
  Allow: text("the methods the path answers"),
  "WWW-Authenticate": text('`Bearer` or `Bearer error="invalid_token"`'),
};

const q = (name: string, description: string, schema: Schema = { type: "string" }) => ({ name, in: "query", description, schema });
const h = (name: string, description: string) => ({ name, in: "header", description, schema: { type: "string" } });

const PARAMETERS = {
  filter: q("filter", "a JDOQL filter expression of the class: `price > 10 && title.startsWith(:p)`"),
  params: q("params", "the query's parameters as JSON: an object by name (`:name`) or an array in order (`?1`, implicit parameters)"),
  maxFetchDepth: q("maxFetchDepth", "how deep related objects nest (default 1; -1 unlimited; cycles cut)", {
    type: "integer",
    anyOf: [{ const: -1 }, { minimum: 1 }],
  }),
  ordering: q("ordering", "a JDOQL ordering: `name ascending, born desc`; default the key order"),
  range: q("range", "`FROM,TO`: 0-based, FROM inclusive, TO exclusive", { type: "string", pattern: "^\\d+,\\d+$" }),
  after: q("after", "the opaque cursor a `next` link carried (keyset paging)"),
  Prefer: h("Prefer", "`count=exact` counts the total for `Content-Range`"),
  "If-Match": h("If-Match", "the version (ETag) the object must have: else 412"),
  "If-None-Match": h("If-None-Match", "an ETag the client holds: 304 when it still matches"),
};

function problemResponses(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, [title, when]] of Object.entries(STATUSES)) {
    const headers: Record<string, unknown> = {};
    if (status === "405") headers.Allow = { $ref: "#/components/headers/Allow" };
    if (status === "503") headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
    if (status === "401") headers["WWW-Authenticate"] = { $ref: "#/components/headers/WWW-Authenticate" };
    out[`Problem${status}`] = {
      description: `${title}: ${when}`,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
    };
  }
  return out;
}

/** The document, as a plain JSON value. */
export function describeApi(model: Model, options: DescribeOptions): Record<string, unknown> {
  const classes = [...model.classes.values()];
  const schemas: Record<string, Schema> = { Problem: PROBLEM };
  const writer = new SchemaWriter(model);
  for (const meta of classes) if (!meta.embeddedOnly) writer.addClass(meta, schemas);
  const pw = new PathWriter(model, options.security);
  const explorer = options.explorer === false ? undefined : { renderers: typeof options.explorer === "object" && options.explorer.renderers };
  const paths: Record<string, unknown> = {
    "/": pw.root(explorer !== undefined),
    "/openapi.json": pw.document(),
    ...(explorer ? { [`${ASSETS_PATH}/{file}`]: pw.explorerFiles(explorer.renderers) } : {}),
  };
  paths["/jdoql"] = pw.queryPath("JDOQL");
  paths["/query"] = pw.queryPath("JDOQL");
  paths["/jpql"] = pw.queryPath("JPQL");
  for (const meta of classes) if (!meta.embeddedOnly) Object.assign(paths, pw.classPaths(meta));
  const bearer = options.security?.bearer;
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "Extent",
      version: options.version ?? "1",
      description:
        "Persistent objects behind REST, described from the model. Dates and times are epoch milliseconds (UTC); byte[] is base64; BigDecimal and BigInteger are JSON numbers.",
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    servers: [{ url: options.prefix || "/" }],
    tags: [{ name: "queries", description: "JDOQL and JPQL" }, ...classes.filter((c) => !c.embeddedOnly).map((c) => ({ name: c.name }))],
    paths,
    components: {
      schemas,
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: problemResponses(),
      ...(bearer ? { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } } : {}),
    },
  };
}

/** How requests authenticate, and with rules which roles each operation is granted to, for the document: absent without access control. */
export function securityShape(access: ResolvedAccess | undefined, control?: AccessControl): SecurityShape | undefined {
  if (!access) return undefined;
  return {
    bearer: Boolean(access.secret || access.jwks),
    anonymous: access.anonymousRole !== undefined || access.authenticate !== undefined,
    anonymousRole: access.anonymousRole,
    roles: control && ((meta, operation) => control.policy.entryOf(meta).grants[operation].map((g) => g.role)),
  };
}

/** The document's JSON text for a handler's model, prefix, access configuration and rules. */
export function openApiText(
  model: Model,
  prefix: string,
  access: ResolvedAccess | undefined,
  more: { explorer?: DescribeOptions["explorer"]; control?: AccessControl | undefined } = {},
): string {
  const { control, ...rest } = more;
  return JSON.stringify(describeApi(model, { prefix, security: securityShape(access, control), ...rest }), null, 2);
}
