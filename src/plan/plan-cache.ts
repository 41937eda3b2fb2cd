/**
 * Compiled plans are cached per model (two handlers in one process never share plans) and the
 * caches are bounded: the oldest entry goes when a cache is full, so memory stays flat whatever
 * the variety of requests.
 */
import type { Model } from "../metadata/model.ts";

export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}

  get(key: string, build: () => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = build();
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, value);
    }
    return value;
  }
}

/** One bounded cache per model, created on first use. */
export function perModelCache<V>(limit: number): (model: Model) => BoundedCache<V> {
  const caches = new WeakMap<Model, BoundedCache<V>>();
  return (model) => {
    let cache = caches.get(model);
    if (!cache) caches.set(model, (cache = new BoundedCache<V>(limit)));
    return cache;
  };
}
