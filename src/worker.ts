/**
 * The edge entry: the sample model served by a Cloudflare Worker on D1 (`npx wrangler dev`,
 * `npx wrangler deploy`; see wrangler.toml). There is no file system: the model is bundled
 * prepared (schema/prepared/sample.json, `npm run model:worker` makes it from schema/jdo: no XML
 * is parsed when a cold isolate starts) and the store is the D1 binding through Drizzle's D1 driver (or a libSQL server, when
 * LIBSQL_URL is set, through @libsql/client's web build). The model and the handler are made when
 * the module is evaluated, as the isolate starts (the bindings from `cloudflare:workers`), and
 * then reused by every request the isolate serves. The explorer
 * page's renderers (megabytes) are not in the bundle: they are Workers Static Assets (wrangler.toml).
 */
import { env as workerEnv } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import sampleModel from "../schema/prepared/sample.json" with { type: "json" };
import sampleData from "../schema/sample-data.json" with { type: "json" };
import { loadModel } from "./config/load-model.ts";
import { preparedDocuments } from "./config/prepared-model.ts";
import { createRestHandler } from "./handler.ts";
import { seedIfEmpty } from "./runtime/seed.ts";
import type { ExplorerAssets } from "./describe/explorer-assets.ts";

interface Env {
  /** The explorer's renderers' files (wrangler.toml `[assets]`, binding "ASSETS"), when deployed with them. */
  ASSETS?: { fetch(request: Request): Promise<Response> };
  /** The D1 database (`[[d1_databases]]` binding "DB"). */
  DB: unknown;
  /** The `{servlet_path}` prefix (default `/api`, as `npm start`). */
  EXTENT_PREFIX?: string;
  /** "sample": POST the sample objects into empty extents before the first request. */
  EXTENT_SEED?: string;
  /** "on": answer each request's store cost in `Server-Timing`. */
  EXTENT_SERVER_TIMING?: string;
  /** A libSQL server (Turso: `libsql://…`, or `http(s)://…`) to use instead of D1. */
  LIBSQL_URL?: string;
  /** Its auth token (`npx wrangler secret put LIBSQL_AUTH_TOKEN`). */
  LIBSQL_AUTH_TOKEN?: string;
}

/** The explorer's files from Workers Static Assets, by name (the handler asks only for names it serves). */
function staticAssets(assets: NonNullable<Env["ASSETS"]>): ExplorerAssets {
  return {
    async asset(name) {
      const found = await assets.fetch(new Request(`https://assets.invalid/${name}`));
      return found.ok ? found : undefined;
    },
  };
}

/**
 * Built as the isolate starts, not on its first request: workerd evaluates the module before any
 * request comes (Cloudflare's edge starts an isolate while the TLS handshake of its first request
 * is still under way). A model that fails to build fails the worker's start-up instead of its
 * requests.
 */
const model = loadModel({ documents: preparedDocuments(sampleModel, "schema/prepared/sample.json") });
/**
 * The handler, made as the isolate starts too, from the bindings `cloudflare:workers` gives the
 * module. Making it reads nothing (its schema check rides with the first read) and prepares each
 * class's commonest reads (their SQL, and the code that writes it compiled), so the first request
 * only serves. What it does first (the seed, when asked for) waits for that request: no I/O may
 * happen while the module is evaluated.
 */
const env = workerEnv as Env;
const prefix = env.EXTENT_PREFIX ?? "/api";
const handler = createRestHandler({
  context: {
    name: "sample",
    ...(env.LIBSQL_URL ? { url: env.LIBSQL_URL, authToken: env.LIBSQL_AUTH_TOKEN } : { database: drizzle(env.DB as Parameters<typeof drizzle>[0]) }),
  },
  model,
  prefix,
  serverTiming: env.EXTENT_SERVER_TIMING === "on",
  // workerd compresses what the worker answers plainly (gzip, br, as the client asks), and so does Cloudflare's edge: compressing here would cost the worker's CPU for nothing.
  compress: false,
  // A cold isolate's first request reads the schema's fingerprint with its own read: on a current schema, no round trip of its own.
  schemaCheck: "with-first-read",
  explorer: env.ASSETS ? staticAssets(env.ASSETS) : undefined,
});
let ready: Promise<unknown> | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    if (!ready) {
      ready = env.EXTENT_SEED === "sample" ? seedIfEmpty(handler, sampleData, prefix) : handler.ready;
      // A failed seed (say, D1 unreachable) must not stick to the isolate: the next request retries.
      ready.catch(() => (ready = undefined));
    }
    await ready;
    return handler.fetch(request);
  },
};
