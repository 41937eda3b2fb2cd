/**
 * Test harness: the real handler over a real libSQL database (a fresh temp file per call),
 * spoken to with real `Request`s. `statements` counts what the store ran.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRestHandler, type RestHandlerOptions } from "../../src/handler.ts";
import type { PersistenceContext } from "../../src/config/context.ts";
import type { Model } from "../../src/metadata/model.ts";
import { EmbeddedStore } from "../../src/store/embedded-store.ts";
import { embeddedPath } from "../../src/store/libsql-store.ts";
import { CountingStore, type Store } from "../../src/store/store.ts";
import { verifyWritePlans } from "../../src/service/write-plans.ts";
import type { Runtime } from "../../src/service/runtime.ts";
import { type Limits, resolveLimits } from "../../src/config/limits.ts";

// Every write a test makes through the harness checks its cached plan against one made anew
// (src/service/write-plans.ts): the suite's writes are the cache's test. (Off for measurements:
// EXTENT_VERIFY_WRITE_PLANS=0, as test/bench/ab.ts sets.)
verifyWritePlans(process.env.EXTENT_VERIFY_WRITE_PLANS !== "0");

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface Harness {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  get(path: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  put(path: string, body: unknown): Promise<Reply>;
  del(path: string, body?: unknown): Promise<Reply>;
  /** A Request of the test's own making (a binary body, no Content-Type), answered by the handler. */
  fetch(request: Request): Promise<Response>;
  store: CountingStore;
  /** The handler's model (to inspect per-model state such as cacheSizes). */
  model: Model;
  /** The database's libSQL URL (a second handler or server may open it). */
  url: string;
  /** Raw SQL against the same database, for checking what was stored. */
  sql(text: string, args?: unknown[]): Promise<unknown[][]>;
  close(): void;
}

/**
 * Test-only hooks: `wrapStore` wraps the real store (under the counting one), e.g. to record
 * statements; `heapLimitBytes` caps SQLite's heap as a served file's store does (process-wide).
 */
export interface HarnessHooks {
  wrapStore?: (store: Store) => Store;
  heapLimitBytes?: number;
}

/** Starts a handler on a temp-file database; `context` gives the model (metadata/models). */
export async function startHarness(
  context: Omit<PersistenceContext, "name" | "url"> & { url?: string },
  options: Omit<RestHandlerOptions, "context" | "store"> = {},
  hooks: HarnessHooks = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "extent-test-"));
  const url = context.url ?? `file:${join(dir, "test.db")}`;
  const embedded = await EmbeddedStore.open(embeddedPath(url)!, { checkColumns: checkRead, heapLimitBytes: hooks.heapLimitBytes });
  const store = new CountingStore(hooks.wrapStore ? hooks.wrapStore(embedded) : embedded);
  const handler = createRestHandler({ ...options, context: { name: "test", ...context, url }, store });
  await handler.ready;
  const prefix = options.prefix ?? "";
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
      if (!("content-type" in headers)) (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const response = await handler.fetch(new Request(`http://localhost${prefix}${path}`, init));
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  return {
    call,
    get: (p) => call("GET", p),
    post: (p, b) => call("POST", p, b),
    put: (p, b) => call("PUT", p, b),
    del: (p, b) => call("DELETE", p, b),
    fetch: (request) => handler.fetch(request),
    store,
    url,
    model: handler.model,
    sql: async (text, args = []) => {
      const [r] = await store.inner.batch([{ sql: text, params: args }], "read");
      return r!.rows;
    },
    close: () => {
      handler.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A path segment for a key: plain values as text, composite keys as URL-encoded JSON. */
export function keySegment(key: unknown): string {
  return encodeURIComponent(typeof key === "object" ? JSON.stringify(key) : String(key));
}

/**
 * Checks every read Extent prepares, so every test on the harness checks the SQL it causes:
 * - distinct result column names: D1 returns a batch's rows as objects keyed by name, so a SELECT
 *   that repeats a name would lose a column there;
 * - no bare `?` as a LIMIT or a LIKE or GLOB pattern: SQLite would plan with the bound value and
 *   prepare the statement again at every run, and lose a time limit that fell due meanwhile
 *   (src/store/sql.ts, `unplanned`).
 */
function checkRead(sql: string, columns: readonly string[]): void {
  const names = columns.map((c) => c.toLowerCase());
  if (new Set(names).size !== names.length) throw new Error(`result columns repeat a name (${columns.join(", ")}): ${sql}`);
  const planned = /\b(?:LIMIT|LIKE|GLOB)[\s(]*\?/i.exec(sql);
  if (planned) throw new Error(`"${planned[0]}": SQLite plans with this parameter's value and prepares the statement again at every run: ${sql}`);
}

/** The runtime an app built by hand (src/http/app.ts, `buildApp`) shares, over a harness's model and store. */
export function appRuntime(h: Harness, prefix: string, limits: Limits = resolveLimits(undefined)): Runtime {
  return {
    model: h.model,
    store: h.store,
    prefix,
    limits,
    writeFetchPlan: { groups: ["all"], maxDepth: 1 },
    serverTiming: false,
    pageSize: 10,
    firstPageSize: 10,
    pageBytes: 1000,
  };
}
