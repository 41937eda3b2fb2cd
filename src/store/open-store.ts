/**
 * The store a persistence context names: a Drizzle database it was given (libSQL or D1; the
 * driver's own client runs the batches), or a libSQL connection URL.
 */
import { type PersistenceContext, parseSynchronous } from "../config/context.ts";
import { normalizeConnectionUrl } from "../config/connection-url.ts";
import { DEFAULT_LIMITS } from "../config/limits.ts";
import { type D1Binding, D1Store } from "./d1-store.ts";
import { LibsqlStore, openLibsqlStore } from "./libsql-store.ts";
import type { Store } from "./store.ts";

export function openStore(context: PersistenceContext): Store {
  if (context.database !== undefined) return storeOfDatabase(context.database);
  if (context.url === undefined) throw new Error(`persistence context "${context.name}" names neither a connection URL nor a database`);
  const synchronous = context.synchronous === undefined ? "full" : parseSynchronous(context.synchronous);
  if (!synchronous) throw new RangeError(`synchronous must be "full" or "normal", got ${JSON.stringify(context.synchronous)}`);
  return openLibsqlStore(normalizeConnectionUrl(context.url), context.authToken, {
    heapLimitBytes: sqliteHeapLimit(context.limits?.answerBytes ?? DEFAULT_LIMITS.answerBytes),
    synchronous,
  });
}

/**
 * What SQLite may allocate in the process when it runs embedded: room for a few answers at their
 * limit beside its page caches, so that no request can grow the process until the system kills it.
 */
export function sqliteHeapLimit(answerBytes: number): number {
  return Math.max(256 * 1024 * 1024, 4 * answerBytes);
}

/** A Drizzle database (`drizzle(client)`) or the client itself: a libSQL `Client` or a D1 binding. */
function storeOfDatabase(database: unknown): Store {
  const client = (database as { $client?: unknown })?.$client ?? database;
  const has = (name: string) => typeof (client as Record<string, unknown>)?.[name] === "function";
  if (has("execute") && has("batch") && has("transaction")) return new LibsqlStore(client as ConstructorParameters<typeof LibsqlStore>[0]);
  if (has("prepare") && has("batch")) return new D1Store(client as D1Binding);
  throw new Error("the database is neither a Drizzle libSQL or D1 database nor a libSQL client or D1 binding");
}
