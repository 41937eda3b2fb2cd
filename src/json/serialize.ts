/**
 * Loaded objects to JSON, per the contract: `class`, the identity, `_version`, then the fields of
 * the fetch plan. Related objects nest to `maxFetchDepth`; beyond it, or when an object is
 * already on the path being written (a cycle), a related object is written as its identity only.
 */
import { keyFieldColumns } from "../mapping/keys.ts";
import { type ClassMeta, type FieldMeta, type Model, classOf } from "../metadata/model.ts";
import type { FetchPlan } from "../plan/fetch-plan.ts";
import { planFields } from "../plan/fetch-plan.ts";
import type { IdentityMap, LoadedObject } from "../plan/objects.ts";
import { parseJson } from "./exact.ts";
import { encodeField, encodeValue } from "./values.ts";

type Json = unknown;
type JsonObject = Record<string, Json>;

export class Serializer {
  /** The fields of the fetch plan, per class: asked for every object written. */
  private readonly planned = new Map<ClassMeta, Set<FieldMeta>>();

  constructor(
    private readonly model: Model,
    private readonly objects: IdentityMap,
    private readonly fetch: FetchPlan,
  ) {}

  private plannedFields(meta: ClassMeta): Set<FieldMeta> {
    let fields = this.planned.get(meta);
    if (!fields) this.planned.set(meta, (fields = new Set(planFields(meta, this.fetch))));
    return fields;
  }

  object(obj: LoadedObject): JsonObject {
    return this.write(obj, 0, new Set());
  }

  /** `{class, key...}`: how an object is written beyond the fetch depth. */
  identity(obj: { meta: ClassMeta; key: readonly unknown[] }): JsonObject {
    return { class: obj.meta.name, ...keyFieldsJson(this.model, obj.meta, obj.key) };
  }

  private write(obj: LoadedObject, level: number, path: Set<string>): JsonObject {
    const out = this.identity(obj);
    if (obj.meta.version) {
      out._version = obj.version ?? null;
      if (obj.meta.version.fieldName) out[obj.meta.version.fieldName] = obj.version ?? null;
    }
    if (!obj.full) return out;
    path.add(obj.id);
    const inPlan = this.plannedFields(obj.meta);
    for (const field of obj.meta.fields.values()) {
      if (inPlan.has(field)) out[field.name] = this.field(obj, field, level, path);
      // A reference held in the row is loaded even outside the plan: written as its identity.
      else if (field.relation?.storage.kind === "fk-owner") out[field.name] = this.identityOf(obj, field);
    }
    path.delete(obj.id);
    return out;
  }

  private field(obj: LoadedObject, field: FieldMeta, level: number, path: Set<string>): Json {
    const rel = field.relation;
    if (rel) {
      const toMany = field.type.kind === "collection";
      if (rel.storage.kind === "fk-owner") {
        const key = obj.refs.get(field.name);
        if (!key) return null;
        const target = classOf(this.model, rel.target);
        return this.related(this.objects.get(target.root, key) ?? { meta: target, key }, level, path);
      }
      const list = obj.related.get(field.name) ?? [];
      return toMany ? list.map((o) => this.related(o, level, path)) : list[0] ? this.related(list[0], level, path) : null;
    }
    const stored = obj.values.get(field.name);
    if (field.type.kind === "embedded") return stored ? this.embedded(classOf(this.model, field.type.class), stored as Record<string, unknown>) : null;
    if (field.type.kind === "key") return ancestorKey(this.model, obj.meta, stored);
    return encodeField(stored ?? null, field);
  }

  private identityOf(obj: LoadedObject, field: FieldMeta): Json {
    const key = obj.refs.get(field.name);
    if (!key) return null;
    const target = classOf(this.model, field.relation!.target);
    return this.identity(this.objects.get(target.root, key) ?? { meta: target, key });
  }

  private related(target: LoadedObject | { meta: ClassMeta; key: readonly unknown[] }, level: number, path: Set<string>): Json {
    const deeper = this.fetch.maxDepth < 0 || level < this.fetch.maxDepth;
    if ("full" in target && target.full && deeper && !path.has(target.id)) return this.write(target, level + 1, path);
    return this.identity(target);
  }

  private embedded(meta: ClassMeta, stored: Record<string, unknown>): JsonObject {
    const out: JsonObject = {};
    for (const f of meta.fields.values()) out[f.name] = encodeField(stored[f.name] ?? null, f);
    return out;
  }
}

/** An object's key fields (or `_id`) as its JSON writes them, from its stored key. */
export function keyFieldsJson(model: Model, meta: ClassMeta, key: readonly unknown[]): JsonObject {
  const out: JsonObject = {};
  keyFieldColumns(meta).forEach((part, i) => {
    out[part.field] = part.type.kind === "key" ? ancestorKey(model, meta, key[i]) : encodeValue(key[i], part.type, false);
  });
  return out;
}

/** Ancestor keys are stored as canonical JSON text ('' for none) and written with their class. */
export function ancestorKey(model: Model, meta: ClassMeta, stored: unknown): Json {
  if (stored === null || stored === undefined || stored === "") return null;
  const keyClass = meta.identity.kind === "application" ? meta.identity.keyClass : undefined;
  const withClass = (k: unknown): Json => {
    if (!k || typeof k !== "object") return null;
    const o = k as JsonObject;
    const out: JsonObject = keyClass ? { class: keyClass } : {};
    for (const [name, value] of Object.entries(o)) out[name] = isKeyField(meta, name) ? withClass(value) : value;
    return out;
  };
  return withClass(parseJson(String(stored)));
}

function isKeyField(meta: ClassMeta, name: string): boolean {
  return meta.fields.get(name)?.type.kind === "key";
}
