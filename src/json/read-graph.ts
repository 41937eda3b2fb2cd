/**
 * Reading a request body into an object graph: every JSON object becomes a node of a class
 * (its `"class"`, or the declared type), with validated, stored-form values. Nothing touches the
 * store here; every bad value is collected with its JSON pointer so one 422 lists them all.
 * Two objects with the same identity in one body are the same node (cycles by identity).
 */
import { keyFieldColumns, keyString } from "../mapping/keys.ts";
import { type ClassMeta, type FieldMeta, type Model, type ValueType, classOf, isAncestor } from "../metadata/model.ts";
import { JsonNumber, parseJson, stringify } from "./exact.ts";
import { isWholeNumber } from "./sql-values.ts";
import { decodeContainer, decodeValue, pointer } from "./values.ts";

export interface FieldError {
  path: string;
  message: string;
}

export interface GraphNode {
  /** The class given by `"class"`, else the declared type; the store may know a more specific one. */
  meta: ClassMeta;
  declared: ClassMeta;
  explicitClass: boolean;
  path: string;
  /** The identity when every key part was given, in stored form. */
  key?: unknown[];
  /** Row values present in the body, stored form, by field name. */
  values: Map<string, unknown>;
  /** To-one relation fields present in the body. */
  refs: Map<string, GraphNode | null>;
  /** To-many relation fields present in the body. */
  many: Map<string, GraphNode[]>;
}

export interface Graph {
  root: GraphNode;
  nodes: GraphNode[];
  errors: FieldError[];
}

export const MAX_NESTING = 64;

function describe(json: unknown): string {
  return json === null ? "null" : Array.isArray(json) ? "an array" : json instanceof JsonNumber ? "number" : typeof json;
}

export function readGraph(model: Model, declared: ClassMeta, body: unknown): Graph {
  const nodes: GraphNode[] = [];
  const errors: FieldError[] = [];
  const byIdentity = new Map<string, GraphNode>();

  const readObject = (json: unknown, declaredType: ClassMeta, path: string, depth: number): GraphNode | undefined => {
    if (json === null || typeof json !== "object" || Array.isArray(json) || json instanceof JsonNumber) {
      errors.push({ path, message: `expected an object of class ${declaredType.name}, got ${describe(json)}` });
      return undefined;
    }
    if (depth > MAX_NESTING) {
      errors.push({ path, message: `objects are nested more than ${MAX_NESTING} levels deep` });
      return undefined;
    }
    const obj = json as Record<string, unknown>;
    const meta = chooseClass(model, declaredType, obj.class, path, errors);
    if (!meta) return undefined;
    const node: GraphNode = { meta, declared: declaredType, explicitClass: obj.class !== undefined, path, values: new Map(), refs: new Map(), many: new Map() };

    nodes.push(node);
    const parts = keyFieldColumns(meta);
    const key: unknown[] = [];
    for (const part of parts) {
      if (!(part.field in obj)) {
        if (part.type.kind === "key") key[parts.indexOf(part)] = ""; // no ancestor
        continue;
      }
      const decoded = decodeKeyPart(model, meta, part.type, obj[part.field], pointer(path, part.field));
      if (!decoded.ok) errors.push(decoded.error);
      else key[parts.indexOf(part)] = decoded.value;
    }
    if (parts.every((_, i) => key[i] !== undefined)) node.key = key;

    for (const [name, value] of Object.entries(obj)) {
      if (name === "class" || name === "_version" || parts.some((p) => p.field === name)) continue;
      const field = meta.fields.get(name);
      const at = pointer(path, name);
      if (!field) {
        errors.push({ path: at, message: `unknown field "${name}" of class ${meta.name}` });
        continue;
      }
      if (field.isVersionField) continue;
      readField(field, value, at, node, depth);
    }

    if (node.key) {
      const id = keyString(meta.root, node.key);
      const known = byIdentity.get(id);
      if (known) {
        nodes.splice(nodes.indexOf(node), 1);
        return mergeInto(known, node);
      }
      byIdentity.set(id, node);
    }
    return node;
  };

  const readField = (field: FieldMeta, value: unknown, at: string, node: GraphNode, depth: number): void => {
    const type = field.type;
    if (field.relation) {
      const target = classOf(model, field.relation.target);
      if (type.kind === "collection") {
        if (value === null) return void node.many.set(field.name, []);
        if (!Array.isArray(value)) return void errors.push({ path: at, message: `expected an array of ${target.name} objects, got ${describe(value)}` });
        const items = value.map((v, i) => readObject(v, target, pointer(at, i), depth + 1)).filter((n): n is GraphNode => !!n);
        // A List in a join table may hold an object twice; anywhere else an object is there once.
        const keepsDuplicates = (type.collection === "list" || type.collection === "array") && field.relation.storage.kind === "join-table";
        node.many.set(field.name, keepsDuplicates ? items : [...new Set(items)]);
      } else if (value === null) {
        if (storedByOthers(field)) node.many.set(field.name, []);
        else node.refs.set(field.name, null);
      } else {
        const child = readObject(value, target, at, depth + 1);
        if (!child) return;
        if (storedByOthers(field)) node.many.set(field.name, [child]);
        else node.refs.set(field.name, child);
      }
      return;
    }
    if (value === null) {
      if (!field.nullable) errors.push({ path: at, message: `${field.name} must not be null` });
      else node.values.set(field.name, null);
      return;
    }
    if (type.kind === "collection" || type.kind === "map") {
      const decoded = decodeContainer(value, type);
      if (decoded.ok) node.values.set(field.name, decoded.value);
      else for (const e of decoded.errors) errors.push({ path: at + e.path, message: e.message });
      return;
    }
    if (type.kind === "embedded") {
      const embedded = readEmbedded(classOf(model, type.class), value, at, errors);
      if (embedded) node.values.set(field.name, embedded);
      return;
    }
    if (type.kind === "key") {
      const decoded = decodeKeyPart(model, classOf(model, field.declaringClass), type, value, at);
      if (!decoded.ok) errors.push(decoded.error);
      else node.values.set(field.name, decoded.value);
      return;
    }
    const decoded = decodeValue(value, type as ValueType, field.enumOrdinal);
    if (decoded.ok) node.values.set(field.name, decoded.value);
    else errors.push({ path: at, message: decoded.message });
  };

  const root = readObject(body, declared, "", 0);
  return { root: root ?? placeholder(declared), nodes, errors: root ? errors : errors.length ? errors : [{ path: "", message: "expected an object" }] };
}

/**
 * A to-one field whose storage is the other side's (an inverse foreign key, or the other side's
 * join table) is written like a one-element collection of that other side.
 */
function storedByOthers(field: FieldMeta): boolean {
  const kind = field.relation?.storage.kind;
  return kind === "fk-inverse" || kind === "join-inverse";
}

function placeholder(meta: ClassMeta): GraphNode {
  return { meta, declared: meta, explicitClass: false, path: "", values: new Map(), refs: new Map(), many: new Map() };
}

/** A later occurrence of the same identity adds its fields to the first. */
function mergeInto(known: GraphNode, other: GraphNode): GraphNode {
  for (const [k, v] of other.values) known.values.set(k, v);
  for (const [k, v] of other.refs) known.refs.set(k, v);
  for (const [k, v] of other.many) known.many.set(k, v);
  if (other.explicitClass && !known.explicitClass) {
    known.meta = other.meta;
    known.explicitClass = true;
  }
  return known;
}

function chooseClass(model: Model, declared: ClassMeta, name: unknown, path: string, errors: FieldError[]): ClassMeta | undefined {
  if (name === undefined) return declared;
  const at = pointer(path, "class");
  if (typeof name !== "string") {
    errors.push({ path: at, message: `"class" must be a class name, got ${describe(name)}` });
    return undefined;
  }
  const meta = model.classes.get(name);
  if (!meta || meta.embeddedOnly) {
    errors.push({ path: at, message: `unknown class "${name}"` });
    return undefined;
  }
  if (!isAncestor(model, declared.name, meta.name)) {
    errors.push({ path: at, message: `class ${name} is not ${declared.name} or one of its subclasses` });
    return undefined;
  }
  return meta;
}

function readEmbedded(meta: ClassMeta, value: unknown, at: string, errors: FieldError[]): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof JsonNumber) {
    errors.push({ path: at, message: `expected an object of class ${meta.name}, got ${describe(value)}` });
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (name === "class") continue;
    const f = meta.fields.get(name);
    if (!f) {
      errors.push({ path: pointer(at, name), message: `unknown field "${name}" of class ${meta.name}` });
      continue;
    }
    if (v === null) {
      out[name] = null;
      continue;
    }
    const decoded = decodeValue(v, f.type as ValueType, f.enumOrdinal);
    if (decoded.ok) out[name] = decoded.value;
    else errors.push({ path: pointer(at, name), message: decoded.message });
  }
  return out;
}

/**
 * One part of a key. An ancestor key is a key object of the same shape (`{"class"?, id, kind, parent}`),
 * stored as canonical JSON text of its key fields, '' when absent.
 */
export type KeyPartResult = { ok: true; value: unknown } | { ok: false; error: FieldError };

export function decodeKeyPart(model: Model, meta: ClassMeta, type: ValueType, json: unknown, at: string): KeyPartResult {
  if (type.kind !== "key") {
    if (json === null) return { ok: false, error: { path: at, message: "a key value must not be null" } };
    const d = decodeValue(json, type, false);
    return d.ok ? { ok: true, value: d.value } : { ok: false, error: { path: at, message: d.message } };
  }
  if (json === null || json === undefined || json === "") return { ok: true, value: "" };
  const canonical = canonicalKey(model, meta, json, at, 0);
  return typeof canonical === "string" ? { ok: true, value: canonical } : { ok: false, error: canonical.error };
}

function canonicalKey(model: Model, meta: ClassMeta, json: unknown, at: string, depth: number): string | { error: FieldError } {
  if (typeof json !== "object" || json === null || Array.isArray(json) || json instanceof JsonNumber || depth > MAX_NESTING) {
    return { error: { path: at, message: `expected a key object of ${meta.identity.kind === "application" ? (meta.identity.keyClass ?? meta.name) : meta.name}, got ${describe(json)}` } };
  }
  const obj = json as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const part of keyFieldColumns(meta)) {
    const v = obj[part.field];
    if (part.type.kind === "key") {
      if (v === null || v === undefined) out[part.field] = null;
      else {
        const nested = canonicalKey(model, meta, v, pointer(at, part.field), depth + 1);
        if (typeof nested !== "string") return nested;
        out[part.field] = parseJson(nested);
      }
      continue;
    }
    if (v === undefined || v === null) return { error: { path: pointer(at, part.field), message: `key field "${part.field}" is required` } };
    const d = decodeValue(v, part.type, false);
    if (!d.ok) return { error: { path: pointer(at, part.field), message: d.message } };
    // A whole number past 2^53 is held as its digits: in the key's JSON it is a number still.
    out[part.field] = typeof d.value === "string" && isWholeNumber(part.type) ? new JsonNumber(d.value) : d.value;
  }
  for (const name of Object.keys(obj)) {
    if (name !== "class" && !keyFieldColumns(meta).some((p) => p.field === name)) return { error: { path: pointer(at, name), message: `unknown key field "${name}"` } };
  }
  return stringify(out);
}
