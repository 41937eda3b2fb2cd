/**
 * `createRestHandler`: a persistence context in, a web-standard `fetch(Request) => Response` out.
 * The model is built and validated synchronously (a broken model throws `ModelError` at once);
 * the store is opened and its schema brought up to date once, before the first request is served.
 */
import type { PersistenceContext } from "./config/context.ts";
import { resolveAccess } from "./config/access.ts";
import { resolveCors } from "./config/cors.ts";
import { DEFAULT_COMPRESS_THRESHOLD } from "./http/compress.ts";
import { AccessControl } from "./access/access-control.ts";
import { type App, buildApp } from "./http/app.ts";
import { openApiText } from "./describe/openapi.ts";
import type { ExplorerAssets } from "./describe/explorer-assets.ts";
import { Authenticator } from "./http/auth/authenticate.ts";
import { type Limits, resolveLimits } from "./config/limits.ts";
import { loadModel } from "./config/load-model.ts";
import type { Model } from "./metadata/model.ts";
import type { FetchPlan } from "./read/fetch-plan.ts";
import { openStore } from "./store/open-store.ts";
import { prepareReads } from "./read/read-objects.ts";
import { migrate, schemaCheck } from "./mapping/migrate.ts";
import { SchemaGate } from "./mapping/schema-gate.ts";
import type { Store } from "./store/store.ts";

export interface RestHandlerOptions {
  /** The persistence context: store URL and model. */
  context: PersistenceContext;
  /** The `{servlet_path}` prefix, e.g. `/api` (default: none). */
  prefix?: string;
  /** A store to use instead of opening `context.url` (tests, other drivers). */
  store?: Store;
  /**
   * The model, built already (`loadModel`) from the context's sources, which are then not read
   * again: the worker builds it while its isolate starts, before the bindings of a request exist.
   */
  model?: Model;
  /** Largest accepted request body in bytes: the context's `limits.bodyBytes`, set here (default 1 MiB). */
  bodyLimit?: number;
  /** Fetch plan of the object answered by POST and PUT (default: all fields, depth 1). */
  writeFetchPlan?: FetchPlan;
  /**
   * Adds `Server-Timing: store;desc="1 round trip, 3 statements";dur=2.1` to every response: what
   * the request cost the store (default off: it tells clients about the server's work).
   */
  serverTiming?: boolean;
  /**
   * The most objects a page holds when a GET of a class streams its extent, or a query its objects
   * (default 1000): each page is one read batch, and the server holds about one page at a time,
   * whatever the answer's size. Pages of objects with large JSON hold fewer (src/service/paged-body.ts).
   */
  pageSize?: number;
  /** The most objects the first page holds (default 100): the answer starts as soon as it is read. */
  firstPageSize?: number;
  /** The JSON a later page aims at, in characters (default 512 KiB): it holds fewer objects when theirs is large. */
  pageBytes?: number;
  /**
   * Compress answers of at least `threshold` bytes (default 1024) for clients that send
   * `Accept-Encoding` (gzip, deflate; br on Deno), streamed extents included (src/http/compress.ts).
   * Default on: Node's and Bun's servers compress nothing themselves, nor does `Deno.serve` unless
   * asked (and then it weakens ETags). Turn it off where a platform or proxy compresses: the
   * Cloudflare worker entry does (the edge compresses).
   */
  compress?: boolean | { threshold: number };
  /**
   * The explorer page (`GET {prefix}/` for a browser, contract §9) and where its renderers' files
   * (Swagger UI, Mermaid) come from: `nodeExplorerAssets()` (extent/node) reads them from the
   * installed packages; the worker serves them from Workers Static Assets. Absent: the page is
   * served without them (the diagram as text, the reference as a link; the query console works).
   * `false`: no page, `GET /` answers JSON whatever the Accept.
   */
  explorer?: ExplorerAssets | false;
  /**
   * When the store's schema is checked against the model (and brought up to date): `"at-start"`
   * (default), once, before the first request is served (`ready`); `"with-first-read"`, by the
   * first batch, a read carrying the check in its own round trip (src/mapping/schema-gate.ts), so a
   * start on a current schema costs no round trip of its own: for stores a round trip away (the
   * worker's D1). `ready` then resolves without reading anything, and a store that cannot be
   * reached fails the first request rather than the start.
   */
  schemaCheck?: "at-start" | "with-first-read";
}

const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_FIRST_PAGE_SIZE = 100;
const DEFAULT_PAGE_BYTES = 512 * 1024;

export interface RestHandler {
  fetch(request: Request): Promise<Response>;
  /** Resolves when the store is open and its schema is up to date (with `schemaCheck: "with-first-read"`, once the check is prepared: the first read settles the schema). */
  ready: Promise<void>;
  model: Model;
  store: Store;
  /** The limits in force (the context's over the defaults): a server in front needs `urlBytes`. */
  limits: Limits;
  close(): void;
}

export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const { context } = options;
  const model = options.model ?? loadModel(context);
  const access = resolveAccess(context.access);
  // The rules checked against the model now: a mistake fails start-up naming the file and the rule.
  const control = access?.rules !== undefined ? new AccessControl(model, access.rules, access.rulesSource) : undefined;
  const opened = options.store ?? openStore(context);
  const autoCreate = context.autoCreateSchema !== false;
  const schemaCheckAt = options.schemaCheck ?? "at-start";
  if (schemaCheckAt !== "at-start" && schemaCheckAt !== "with-first-read")
    throw new RangeError(`schemaCheck must be "at-start" or "with-first-read", got ${JSON.stringify(schemaCheckAt)}`);
  let store: Store = opened;
  let ready: Promise<void>;
  if (schemaCheckAt === "at-start") ready = migrate(opened, model, autoCreate);
  else {
    const check = schemaCheck(model, autoCreate);
    store = new SchemaGate(opened, check);
    ready = check.then(() => {});
  }
  ready.catch(() => {}); // surfaced by awaiting `ready` or by the first request
  const prefix = normalizePrefix(options.prefix ?? "");
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const firstPageSize = options.firstPageSize ?? DEFAULT_FIRST_PAGE_SIZE;
  const pageBytes = options.pageBytes ?? DEFAULT_PAGE_BYTES;
  for (const [name, n] of [
    ["pageSize", pageSize],
    ["firstPageSize", firstPageSize],
    ["pageBytes", pageBytes],
  ] as const) {
    if (!(Number.isSafeInteger(n) && n >= 1)) throw new RangeError(`${name} must be a positive integer, got ${n}`);
  }
  const compress = options.compress ?? true;
  const compressThreshold = compress === false ? undefined : compress === true ? DEFAULT_COMPRESS_THRESHOLD : compress.threshold;
  if (compressThreshold !== undefined && !(Number.isSafeInteger(compressThreshold) && compressThreshold >= 0))
    throw new RangeError(`compress.threshold must be a whole number of bytes, got ${compressThreshold}`);
  const cors = resolveCors(context.cors);
  const limits = resolveLimits(options.bodyLimit === undefined ? context.limits : { ...context.limits, bodyBytes: options.bodyLimit });
  // Each class's GET by key and first extent page, built now rather than by the first such request.
  prepareReads({ model, limits });
  const app = buildApp(
    {
      model,
      store,
      prefix,
      limits,
      writeFetchPlan: options.writeFetchPlan ?? { groups: ["all"], maxDepth: 1 },
      serverTiming: options.serverTiming ?? false,
      pageSize,
      firstPageSize,
      pageBytes,
    },
    () => ready,
    access && { authenticator: new Authenticator(access), control },
    {
      cors,
      compressThreshold,
      describe: () =>
        openApiText(model, prefix, access, { explorer: options.explorer === false ? false : { renderers: options.explorer !== undefined }, control }),
      explorer: options.explorer === false ? undefined : { assets: options.explorer, access: access !== undefined, name: context.name },
    },
  );
  return {
    fetch: (request: Request) => answerOf(app, request),
    ready,
    model,
    store,
    limits,
    close: () => store.close(),
  };
}

/**
 * The app's answer as a promise, without an async function around it: an async function that
 * returns the app's promise resolves its own with it, which costs two more turns of the microtask
 * queue a request (a thenable's job, then its `then`).
 */
function answerOf(app: App, request: Request): Promise<Response> {
  try {
    const answer = app.fetch(request);
    return answer instanceof Promise ? answer : Promise.resolve(answer);
  } catch (error) {
    return Promise.reject(error);
  }
}

export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, "");
  return !trimmed ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}
