/**
 * Loaded objects to JSON, per the contract: `class`, the identity, `_version`, then the fields of
 * the fetch plan. Related objects nest to `maxFetchDepth`; beyond it, or when an object is
 * already on the path being written (a cycle), a related object is written as its identity only.
 *
 * An object is written once per path that reaches it, so a dense graph read deep grows with the
 * number of paths, exponentially in the depth: each object written spends its size from the
 * answer's budget (`answerBytes`), which stops the writing as soon as the answer is too large.
 */
import { keyFieldColumns } from "../mapping/keys.ts";
import { type ClassMeta, type FieldMeta, type Model, classOf } from "../metadata/model.ts";
import type { FetchPlan } from "./fetch-plan.ts";
import { hides, planFields } from "./fetch-plan.ts";
import type { IdentityMap, LoadedObject } from "./objects.ts";
import { AnswerBudget } from "../json/answer-budget.ts";
import { AnswerTooLargeError } from "../errors/capacity-errors.ts";
import { parseJson, stringify } from "../json/exact.ts";
import { encodeField, encodeValue } from "../json/values.ts";

type Json = unknown;

/** What an identity and a field certainly take in the JSON (the budget's estimates from below). */
const IDENTITY_BYTES = 16;
const FIELD_BYTES = 4;
type JsonObject = Record<string, Json>;

export class Serializer {
  /** The fields of the fetch plan, per class: asked for every object written. */
  private readonly planned = new Map<ClassMeta, Set<FieldMeta>>();
  /** Each object's own size in the JSON (checkSize). */
  private readonly sizes = new Map<LoadedObject, number>();
  private unbudgeted: Serializer | undefined;
  /** Each object's related objects written in full (checkSize). */
  private readonly children = new Map<LoadedObject, LoadedObject[]>();

  constructor(
    private readonly model: Model,
    private readonly objects: IdentityMap,
    private readonly fetch: FetchPlan,
    private readonly budget = new AnswerBudget(Infinity),
  ) {}

  private plannedFields(meta: ClassMeta): Set<FieldMeta> {
    let fields = this.planned.get(meta);
    if (!fields) this.planned.set(meta, (fields = new Set(planFields(meta, this.fetch))));
    return fields;
  }

  object(obj: LoadedObject): JsonObject {
    return this.write(obj, 0, new Set());
  }

  /** The objects of an answer, refused before they are built when they would pass the budget. */
  all(roots: readonly LoadedObject[]): JsonObject[] {
    this.checkSize(roots);
    return roots.map((r) => this.object(r));
  }

  /**
   * Refuses (AnswerTooLargeError) writing `roots` when their JSON would pass the budget, before
   * any of it is built: each distinct object's own size is measured once, then added up along
   * every path the writing would take, which stops as soon as the sum passes the budget. A dense
   * graph read deep is refused in a few milliseconds instead of being built to the limit.
   */
  checkSize(roots: readonly LoadedObject[]): void {
    let total = 0;
    const limit = this.budget.limit;
    const maxDepth = this.fetch.maxDepth < 0 ? Infinity : this.fetch.maxDepth;
    const onPath = new Set<LoadedObject>();
    const visit = (obj: LoadedObject, level: number): void => {
      total += this.ownSize(obj);
      if (total > limit) throw new AnswerTooLargeError(limit);
      if (level >= maxDepth) return;
      onPath.add(obj);
      for (const target of this.expanded(obj)) if (!onPath.has(target)) visit(target, level + 1);
      onPath.delete(obj);
    };
    for (const root of roots) visit(root, 0);
  }

  /** The related objects `obj` writes in full above the fetch depth (unless on the path): those of the plan's relations that were read. */
  private expanded(obj: LoadedObject): LoadedObject[] {
    let list = this.children.get(obj);
    if (list) return list;
    list = [];
    if (obj.full) {
      for (const field of this.plannedFields(obj.meta)) {
        const rel = field.relation;
        if (!rel) continue;
        if (rel.storage.kind === "fk-owner") {
          const target = this.referenced(obj, field);
          if (target?.full) list.push(target);
        } else for (const target of obj.related.get(field.name) ?? []) if (target.full) list.push(target);
      }
    }
    this.children.set(obj, list);
    return list;
  }

  /** An object's JSON without the related objects it writes in full: its identity, values and references as identities. */
  private ownSize(obj: LoadedObject): number {
    let size = this.sizes.get(obj);
    if (size === undefined) {
      size = JSON.stringify(this.withIdentities(obj)).length;
      this.sizes.set(obj, size);
    }
    return size;
  }

  /** The object written as beyond the fetch depth, every related object an identity (by a serializer without budget). */
  private withIdentities(obj: LoadedObject): JsonObject {
    this.unbudgeted ??= new Serializer(this.model, this.objects, { ...this.fetch, maxDepth: 0 });
    return this.unbudgeted.write(obj, 0, new Set());
  }

  private referenced(obj: LoadedObject, field: FieldMeta): LoadedObject | undefined {
    const key = obj.refs.get(field.name);
    return key ? this.objects.get(classOf(this.model, field.relation!.target).root, key) : undefined;
  }

  /** `{class, key...}`: how an object is written beyond the fetch depth. */
  identity(obj: { meta: ClassMeta; key: readonly unknown[] }): JsonObject {
    this.budget.spend(IDENTITY_BYTES + obj.meta.name.length);
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
      if (inPlan.has(field)) {
        const value = this.field(obj, field, level, path);
        this.budget.spend(FIELD_BYTES + field.name.length + (typeof value === "string" ? value.length : 0));
        out[field.name] = value;
      }
      // A reference held in the row is loaded even outside the plan: written as its identity.
      else if (field.relation?.storage.kind === "fk-owner" && !hides(this.fetch, obj.meta, field)) out[field.name] = this.identityOf(obj, field);
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
  const parts = keyFieldColumns(meta);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    out[part.field] = part.type.kind === "key" ? ancestorKey(model, meta, key[i]) : encodeValue(key[i], part.type, false);
  }
  return out;
}

/**
 * A key as a client writes it, for messages: the value of a single key field (`3`, `"abc"`), else
 * the object of its key fields (`{"id":3,"kind":"genre","parent":null}`); never the stored form.
 */
export function keyText(model: Model, meta: ClassMeta, key: readonly unknown[]): string {
  const parts = keyFieldColumns(meta);
  const json = keyFieldsJson(model, meta, key);
  return stringify(parts.length === 1 && parts[0]!.type.kind !== "key" ? json[parts[0]!.field] : json);
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
