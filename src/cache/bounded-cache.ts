/**
 * Every cache on the request path is a BoundedCache: compiled work (parsed and compiled queries,
 * read plans, delete plans, fetch-plan field lists) is kept per model (two handlers in one process
 * never share it) and each cache has a fixed, named limit. The caches evict as LRU does (by second
 * chance: a full cache drops its oldest entry not used lately), so the queries a client repeats
 * stay compiled while a flood of one-off query texts passes through, and memory stays flat
 * whatever the variety of requests.
 *
 * The limits, in entries and, for the caches keyed by client text, in weight too: an entry weighs
 * the characters of its key (the query text) and of the SQL compiled from it, and holds about
 * 10 to 30 bytes of heap per unit (test/bench/distinct-queries.ts measures it), so a cache full of
 * the longest texts a client can send stays within tens of MiB:
 * - `PREPARED_QUERY_LIMIT` parsed, bound and compiled JDOQL/JPQL queries and filters per model
 *   (src/query/prepare.ts), keyed by the query text, weighing `PREPARED_QUERY_WEIGHT` in all (a
 *   short query weighs a few hundred: the count binds first);
 * - `READ_PLAN_LIMIT` read plans per model (src/read/read-plan.ts), keyed by class, selector (a
 *   query's text for query results), fetch plan and depth, weighing `READ_PLAN_WEIGHT` in all; a
 *   query's results need up to 4 plans (one per batch depth tried), hence more than the queries;
 * - `READ_PLAN_LIMIT` JSON selects per model (src/read/json-select.ts), keyed and bounded as the
 *   read plans (their SQL holds every level of the plan, so their weight bound fills first);
 * - `DELETE_PLAN_LIMIT` delete plans per model (src/write/delete-plan.ts), a few per class;
 * - `FETCH_PLAN_LIMIT` field lists per class (src/read/fetch-plan.ts), keyed by the fetch plan's
 *   groups and JOIN FETCH fields (as sets: the spellings of one plan share an entry).
 * - `FETCH_PLAN_QUERY_LIMIT` parsed fetch plans per model (src/read/fetch-plan.ts), keyed by the
 *   request's query string, weighing its characters, `FETCH_PLAN_QUERY_WEIGHT` in all; as many
 *   query strings read as a query's text and parameters (src/http/inputs.ts `queryOf`), bounded alike.
 * - `STATEMENT_SHAPE_LIMIT` compiled write statements for the whole process (src/write/write-plan.ts
 *   `shaped`), keyed by the statement's kind, table, columns and which values are sequence numbers,
 *   `STATEMENT_SHAPE_WEIGHT` characters in all.
 * - `WRITE_PLAN_LIMIT` write plans per model (src/service/write-plans.ts), keyed by the body's graph
 *   shape (classes, modes, fields given, which object each relation names) and fetch plan, weighing
 *   `WRITE_PLAN_WEIGHT` in all (the key's characters and 16 a statement: the statements' SQL texts
 *   are the statement-shape cache's own strings).
 *
 * What is not here is bounded by the model alone: row layouts and lookup statements are WeakMaps
 * keyed by the model's own ClassMeta and GroupLayout objects, built once each. Parameter values
 * are bound per request and are never part of a key.
 */
import type { ClassMeta, Model } from "../metadata/model.ts";

export const PREPARED_QUERY_LIMIT = 1000;
export const PREPARED_QUERY_WEIGHT = 1_000_000;
export const READ_PLAN_LIMIT = 2000;
export const READ_PLAN_WEIGHT = 2_000_000;
export const DELETE_PLAN_LIMIT = 1000;
export const FETCH_PLAN_LIMIT = 64;
export const FETCH_PLAN_QUERY_LIMIT = 256;
export const FETCH_PLAN_QUERY_WEIGHT = 256_000;
export const STATEMENT_SHAPE_LIMIT = 2000;
export const STATEMENT_SHAPE_WEIGHT = 2_000_000;
export const WRITE_PLAN_LIMIT = 1000;
export const WRITE_PLAN_WEIGHT = 1_000_000;

/**
 * An optional second bound, on the entries' total weight: a cost in characters (of the query
 * text and the SQL compiled from it), which the memory an entry holds grows with. Without it a
 * client could fill the entries of a cache with the longest texts it can send.
 */
export interface WeightBound<V> {
  limit: number;
  weigh: (key: string, value: V) => number;
}

/**
 * A string-keyed cache of at most `limit` entries (and at most `weight.limit` of total weight)
 * that evicts as LRU does, by second chance (CLOCK): a hit only marks its entry used, which costs a
 * request nothing beyond the lookup (a hit that moved its entry to the end of the Map cost a delete
 * and an insert, on every statement of every request); eviction takes the oldest entry not used
 * since it was last passed over, moving the used ones it passes to the end, unmarked. An entry in
 * use therefore stays while a flood of one-off keys passes. An entry heavier than the whole weight
 * limit is built and returned but not kept.
 */
export class BoundedCache<V> {
  // A Map iterates in insertion order: the first entry is the oldest (or the longest unused).
  private readonly entries = new Map<string, { value: V; weight: number; used: boolean }>();
  private total = 0;
  constructor(
    readonly limit: number,
    private readonly weight?: WeightBound<V>,
  ) {
    for (const n of [limit, weight?.limit ?? 1]) {
      if (!(Number.isSafeInteger(n) && n >= 1)) throw new RangeError(`a cache limit must be a positive integer, got ${n}`);
    }
  }

  /** How many entries the cache holds. */
  get size(): number {
    return this.entries.size;
  }

  /** Their total weight (0 without a weight bound). */
  get weightUsed(): number {
    return this.total;
  }

  get weightLimit(): number | undefined {
    return this.weight?.limit;
  }

  /** The cached value of `key`, built (and cached) on a miss. A build that throws caches nothing. */
  get(key: string, build: () => V): V {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      cached.used = true;
      return cached.value;
    }
    const value = build();
    const weight = this.weight ? this.weight.weigh(key, value) : 0;
    // `build` may have used this cache: evict only after it.
    this.remove(key);
    if (this.weight && weight > this.weight.limit) return value;
    while (this.entries.size >= this.limit || (this.weight && this.total + weight > this.weight.limit)) this.evictOne();
    this.entries.set(key, { value, weight, used: false });
    this.total += weight;
    return value;
  }

  /** The cached value of `key` (marked used), or undefined: for callers whose `build` would be a closure made per call. */
  find(key: string): V | undefined {
    const cached = this.entries.get(key);
    if (cached === undefined) return undefined;
    cached.used = true;
    return cached.value;
  }

  /** Drops the oldest entry not used since it was last passed over; the used ones passed go to the end, unmarked. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      if (!entry.used) return this.remove(key);
      entry.used = false;
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
  }

  /** Whether `key` has an entry (not marking it used). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Drops `key`'s entry, if it has one. */
  delete(key: string): void {
    this.remove(key);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }
}

/** A cache's current size and limit (and weight, when it has a weight bound), for tests and measurements. */
export interface CacheSize {
  size: number;
  limit: number;
  weight?: number;
  weightLimit?: number;
}

const registry = new Map<string, (model: Model) => CacheSize>();

/** One bounded cache per model, created on first use; `name` reports it in cacheSizes. */
export function perModelCache<V>(name: string, limit: number, weight?: WeightBound<V>): (model: Model) => BoundedCache<V> {
  const caches = new WeakMap<Model, BoundedCache<V>>();
  const of = (model: Model): BoundedCache<V> => {
    let cache = caches.get(model);
    if (!cache) caches.set(model, (cache = new BoundedCache<V>(limit, weight)));
    return cache;
  };
  registry.set(name, (model) => {
    const cache = caches.get(model);
    return weight ? { size: cache?.size ?? 0, limit, weight: cache?.weightUsed ?? 0, weightLimit: weight.limit } : { size: cache?.size ?? 0, limit };
  });
  return of;
}

/**
 * One bounded cache per class of a model, created on first use (for code that has the class but
 * not the model). cacheSizes reports the sum over the model's classes, against limit × classes.
 */
export function perClassCache<V>(name: string, limit: number): (meta: ClassMeta) => BoundedCache<V> {
  const caches = new WeakMap<ClassMeta, BoundedCache<V>>();
  const of = (meta: ClassMeta): BoundedCache<V> => {
    let cache = caches.get(meta);
    if (!cache) caches.set(meta, (cache = new BoundedCache<V>(limit)));
    return cache;
  };
  registry.set(name, (model) => {
    let size = 0;
    for (const meta of model.classes.values()) size += caches.get(meta)?.size ?? 0;
    return { size, limit: limit * model.classes.size };
  });
  return of;
}

/**
 * One bounded cache for the whole process, for what the model's own text keys (statement shapes
 * name their tables and columns, so two models never collide); cacheSizes reports it for every model.
 */
export function processCache<V>(name: string, limit: number, weight?: WeightBound<V>): BoundedCache<V> {
  const cache = new BoundedCache<V>(limit, weight);
  registry.set(name, () => (weight ? { size: cache.size, limit, weight: cache.weightUsed, weightLimit: weight.limit } : { size: cache.size, limit }));
  return cache;
}

/** The size and limit of every request-path cache of `model`, by name (read-only; tests and measurements). */
export function cacheSizes(model: Model): Record<string, CacheSize> {
  return Object.fromEntries([...registry].map(([name, sizeOf]) => [name, sizeOf(model)]));
}
