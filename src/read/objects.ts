/**
 * Objects as loaded from rows, before they become JSON: one per identity (an identity map), so
 * an object reached along two paths is one object, and cycles are cut by identity.
 */
import { keyString } from "../mapping/keys.ts";
import type { ClassMeta } from "../metadata/model.ts";

export interface LoadedObject {
  meta: ClassMeta;
  key: readonly unknown[];
  id: string;
  /** All fields of the row were read (otherwise only the identity is known). */
  full: boolean;
  /** The runtime class is known (read from a row); otherwise `meta` is the declared type. */
  exact: boolean;
  version?: number;
  /** Stored values of row fields: basic, enum, ancestor key, collection/map JSON, embedded (a record). */
  values: Map<string, unknown>;
  /** Owned to-one references: the target's key, or null. */
  refs: Map<string, readonly unknown[] | null>;
  /** Related objects resolved by the loader: to-many fields and inverse to-one fields. */
  related: Map<string, LoadedObject[]>;
  /** Fewest relation steps from a root of the request (for fetch depth). */
  level: number;
  /** The relations of the fetch plan are loaded. */
  expanded: boolean;
}

export class IdentityMap {
  private readonly objects = new Map<string, LoadedObject>();

  get(root: string, key: readonly unknown[]): LoadedObject | undefined {
    return this.objects.get(keyString(root, key));
  }

  all(): LoadedObject[] {
    return [...this.objects.values()];
  }

  /** Registers an object, or upgrades a known identity-only object with a full row. */
  put(obj: LoadedObject): LoadedObject {
    const known = this.objects.get(obj.id);
    if (!known) {
      this.objects.set(obj.id, obj);
      return obj;
    }
    if (obj.full && !known.full) {
      known.full = true;
      known.meta = obj.meta;
      known.values = obj.values;
      known.refs = obj.refs;
      known.version = obj.version;
    } else if (!known.full) {
      // Two identity rows: one may carry the reference to its owner that the other lacks.
      for (const [field, key] of obj.refs) if (!known.refs.has(field)) known.refs.set(field, key);
    }
    if (obj.exact && !known.exact) {
      known.exact = true;
      known.meta = obj.meta;
    }
    return known;
  }
}

export function newObject(meta: ClassMeta, key: readonly unknown[], full: boolean, exact: boolean): LoadedObject {
  return { meta, key, id: keyString(meta.root, key), full, exact, values: new Map(), refs: new Map(), related: new Map(), level: Infinity, expanded: false };
}
