/**
 * Reading a request body into an object graph: every JSON object becomes a node of a class
 * (its `"class"`, or the declared type), with validated, stored-form values. Nothing touches the
 * store here; every bad value is collected with its JSON pointer so one 422 lists them all.
 * Two objects with the same identity in one body are the same node (cycles by identity): their
 * fields are joined, and a field given two different values, or classes neither of which is
 * the other's superclass, is an error at the later object (one object cannot be two things).
 */
import { keyClassProblem, keyFieldColumns, keyLengthProblem, keyString } from "./keys.ts";
import { relationStorage } from "./relation-storage.ts";
import { type ClassMeta, type FieldMeta, type Model, type ValueType, classOf, isAncestor } from "../metadata/model.ts";
import { JsonNumber, parseJson, stringify } from "../json/exact.ts";
import { isWholeNumber } from "../json/sql-values.ts";
import { decodeContainer, decodeValue, pointer } from "../json/values.ts";

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
  /** Its place in `Graph.nodes` (numbered once the whole body is read). */
  index: number;
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

const MAX_NESTING = 64;

function describe(json: unknown): string {
  return json === null ? "null" : Array.isArray(json) ? "an array" : json instanceof JsonNumber ? "number" : typeof json;
}

/** `keyBytes`: the longest key an object of the body may give (limits.keyBytes), its own or a reference's. */
export function readGraph(model: Model, declared: ClassMeta, body: unknown, keyBytes = Infinity): Graph {
  const reader = new GraphReader(model, keyBytes);
  const root = reader.readObject(body, declared, "", 0);
  const { nodes, errors } = reader;
  for (let i = 0; i < nodes.length; i++) nodes[i]!.index = i;
  return { root: root ?? placeholder(declared), nodes, errors: root ? errors : errors.length ? errors : [{ path: "", message: "expected an object" }] };
}

/**
 * One body's reading: the nodes and errors found so far. A class, not closures in `readGraph`: on
 * Node, tsx names each named closure as it is made (an `Object.defineProperty`), per request.
 */
class GraphReader {
  readonly nodes: GraphNode[] = [];
  readonly errors: FieldError[] = [];
  private readonly byIdentity = new Map<string, GraphNode>();
  // Where each node starts in the body (objects in document order), to tell which of two is the later.
  private readonly order = new Map<GraphNode, number>();

  constructor(
    private readonly model: Model,
    private readonly keyBytes: number,
  ) {}

  readObject(json: unknown, declaredType: ClassMeta, path: string, depth: number): GraphNode | undefined {
    if (json === null || typeof json !== "object" || Array.isArray(json) || json instanceof JsonNumber) {
      this.errors.push({ path, message: `expected an object of class ${declaredType.name}, got ${describe(json)}` });
      return undefined;
    }
    if (depth > MAX_NESTING) {
      this.errors.push({ path, message: `objects are nested more than ${MAX_NESTING} levels deep` });
      return undefined;
    }
    const obj = json as Record<string, unknown>;
    const meta = chooseClass(this.model, declaredType, obj.class, path, this.errors);
    if (!meta) return undefined;
    const node: GraphNode = {
      meta,
      declared: declaredType,
      explicitClass: obj.class !== undefined,
      path,
      index: 0,
      values: new Map(),
      refs: new Map(),
      many: new Map(),
    };

    this.nodes.push(node);
    this.order.set(node, this.order.size);
    const parts = keyFieldColumns(meta);
    const key: unknown[] = [];
    let given = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (!(part.field in obj)) {
        if (part.type.kind === "key") key[i] = ""; // no ancestor
        continue;
      }
      const decoded = decodeKeyPart(this.model, meta, part.type, obj[part.field], pointer(path, part.field));
      if (!decoded.ok) this.errors.push(decoded.error);
      else key[i] = decoded.value;
    }
    for (let i = 0; i < parts.length; i++) if (key[i] !== undefined) given++;
    if (given === parts.length) node.key = key;
    // The parts given (a generated part is short), at the key field's path or, composite, the object's.
    const tooLong = given ? keyLengthProblem(given === parts.length ? key : key.filter((v) => v !== undefined), this.keyBytes) : undefined;
    if (tooLong) this.errors.push({ path: parts.length === 1 ? pointer(path, parts[0]!.field) : path, message: tooLong });

    const members = membersOf(meta);
    for (const name of Object.keys(obj)) {
      const field = members.get(name);
      if (field === undefined) this.errors.push({ path: pointer(path, name), message: `unknown field "${name}" of class ${meta.name}` });
      else if (field !== PASSED_OVER) this.readField(field, obj[name], path, node, depth);
    }

    if (node.key) {
      const id = keyString(keySpace(this.model, meta), node.key);
      const known = this.byIdentity.get(id);
      if (known) {
        this.nodes.splice(this.nodes.indexOf(node), 1);
        return mergeInto(this.model, known, node, this.order.get(node)! > this.order.get(known)!, this.errors);
      }
      this.byIdentity.set(id, node);
    }
    return node;
  }

  /** `path`: the object's; the field's own pointer is made only where it is needed (an error, an object below). */
  private readField(field: FieldMeta, value: unknown, path: string, node: GraphNode, depth: number): void {
    const type = field.type;
    if (field.relation) {
      const at = pointer(path, field.name);
      const target = classOf(this.model, field.relation.target);
      if (type.kind === "collection") {
        if (value === null) return void node.many.set(field.name, []);
        if (!Array.isArray(value)) return void this.errors.push({ path: at, message: `expected an array of ${target.name} objects, got ${describe(value)}` });
        const items: GraphNode[] = [];
        for (let i = 0; i < value.length; i++) {
          const item = this.readObject(value[i], target, pointer(at, i), depth + 1);
          if (item) items.push(item);
        }
        // A List in a join table may hold an object twice; anywhere else an object is there once.
        const keepsDuplicates = (type.collection === "list" || type.collection === "array") && isOwningJoinTable(this.model, field);
        node.many.set(field.name, keepsDuplicates ? items : distinct(items));
      } else if (value === null) {
        if (storedByOthers(this.model, field)) node.many.set(field.name, []);
        else node.refs.set(field.name, null);
      } else {
        const child = this.readObject(value, target, at, depth + 1);
        if (!child) return;
        if (storedByOthers(this.model, field)) node.many.set(field.name, [child]);
        else node.refs.set(field.name, child);
      }
      return;
    }
    if (value === null) {
      if (!field.nullable) this.errors.push({ path: pointer(path, field.name), message: `${field.name} must not be null` });
      else node.values.set(field.name, null);
      return;
    }
    if (type.kind === "collection" || type.kind === "map") {
      const decoded = decodeContainer(value, type);
      if (decoded.ok) node.values.set(field.name, decoded.value);
      else for (const e of decoded.errors) this.errors.push({ path: pointer(path, field.name) + e.path, message: e.message });
      return;
    }
    if (type.kind === "embedded") {
      const embedded = readEmbedded(classOf(this.model, type.class), value, pointer(path, field.name), this.errors);
      if (embedded) node.values.set(field.name, embedded);
      return;
    }
    if (type.kind === "key") {
      const decoded = decodeKeyPart(this.model, classOf(this.model, field.declaringClass), type, value, pointer(path, field.name));
      if (!decoded.ok) this.errors.push(decoded.error);
      else node.values.set(field.name, decoded.value);
      return;
    }
    const decoded = decodeValue(value, type as ValueType, field.enumOrdinal);
    if (decoded.ok) node.values.set(field.name, decoded.value);
    else this.errors.push({ path: pointer(path, field.name), message: decoded.message });
  }
}

const keySpaces = new WeakMap<Model, Map<string, string>>();

/**
 * Where a key names one object: the class's hierarchy (its root), joined with every hierarchy
 * that keeps rows in one of its primary tables (the table's PRIMARY KEY holds both hierarchies'
 * keys, so the same key there is the same row). Worked out once per model.
 */
function keySpace(model: Model, meta: ClassMeta): string {
  let spaces = keySpaces.get(model);
  if (!spaces) {
    const parent = new Map<string, string>();
    const find = (root: string): string => {
      const up = parent.get(root);
      return up === undefined || up === root ? root : find(up);
    };
    const byTable = new Map<string, string>();
    for (const c of model.classes.values()) {
      if (!c.primaryTable) continue;
      const other = byTable.get(c.primaryTable);
      if (other === undefined) byTable.set(c.primaryTable, c.root);
      else if (find(other) !== find(c.root)) parent.set(find(c.root), find(other));
    }
    spaces = new Map([...model.classes.values()].map((c) => [c.name, find(c.root)]));
    keySpaces.set(model, spaces);
  }
  return spaces.get(meta.name)!;
}

/**
 * A to-one field whose storage is the other side's (a foreign key in the related object's row, or
 * the other side's join table) is written like a one-element collection of that other side.
 */
function storedByOthers(model: Model, field: FieldMeta): boolean {
  const s = relationStorage(model, field);
  return s.kind === "target-fk" || (s.kind === "join-table" && s.inverse);
}

function isOwningJoinTable(model: Model, field: FieldMeta): boolean {
  const s = relationStorage(model, field);
  return s.kind === "join-table" && !s.inverse;
}

function placeholder(meta: ClassMeta): GraphNode {
  return { meta, declared: meta, explicitClass: false, path: "", index: 0, values: new Map(), refs: new Map(), many: new Map() };
}

/**
 * Joins a second occurrence of an identity into the first node: the more specific of the two
 * classes, every field of both. A field both give differently, or two classes that cannot be one
 * object's, is an error at the occurrence that comes later in the body (`otherIsLater` says which).
 */
function mergeInto(model: Model, known: GraphNode, other: GraphNode, otherIsLater: boolean, errors: FieldError[]): GraphNode {
  const [first, later] = otherIsLater ? [known, other] : [other, known];
  if (isAncestor(model, known.meta.name, other.meta.name)) known.meta = other.meta;
  else if (!isAncestor(model, other.meta.name, known.meta.name)) {
    const same = first.meta.root === later.meta.root ? "the same identity" : "the same key in a table whose rows both classes share";
    errors.push({
      path: later.path,
      message: `this is the object at ${first.path || "the root"} again (${same}), which is a ${first.meta.name}: one object cannot also be a ${later.meta.name}`,
    });
    return known;
  }
  known.explicitClass ||= other.explicitClass;
  const conflict = (name: string) =>
    errors.push({
      path: pointer(later.path, name),
      message: `the object at ${first.path || "the root"} has the same identity and gives ${name} another value: one object has one value per field`,
    });
  for (const [k, v] of other.values) {
    if (known.values.has(k) && !sameValue(known.values.get(k), v)) conflict(k);
    else known.values.set(k, v);
  }
  for (const [k, v] of other.refs) {
    if (known.refs.has(k) && known.refs.get(k) !== v) conflict(k);
    else known.refs.set(k, v);
  }
  for (const [k, v] of other.many) {
    const mine = known.many.get(k);
    if (mine && !sameElements(mine, v, known.meta.fields.get(k)!)) conflict(k);
    else known.many.set(k, v);
  }
  return known;
}

/** Stored-form values (numbers, strings, bytes, embedded records) compared by content. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || a instanceof Uint8Array || b instanceof Uint8Array) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The same objects in a to-many field: in the same order for a list or an array, as sets otherwise. */
function sameElements(a: readonly GraphNode[], b: readonly GraphNode[], field: FieldMeta): boolean {
  const type = field.type;
  if (type.kind === "collection" && (type.collection === "list" || type.collection === "array")) return a.length === b.length && a.every((n, i) => n === b[i]);
  const set = new Set(a);
  return new Set(b).size === set.size && b.every((n) => set.has(n));
}

/** The nodes once each, in order. A body's collections are mostly short, and a Set costs more than a scan there. */
function distinct(items: GraphNode[]): GraphNode[] {
  if (items.length > 16) return [...new Set(items)];
  const out: GraphNode[] = [];
  for (const n of items) if (!out.includes(n)) out.push(n);
  return out;
}

/** A body member read for nothing: `class`, `_version`, a key part (read first) and the version field. */
const PASSED_OVER = null;
const memberTables = new WeakMap<ClassMeta, ReadonlyMap<string, FieldMeta | typeof PASSED_OVER>>();

/**
 * What each member name of a body's object of `meta` is: a field to read, or passed over; a name
 * not in it is an unknown field. One lookup a member, worked out once per class.
 */
function membersOf(meta: ClassMeta): ReadonlyMap<string, FieldMeta | typeof PASSED_OVER> {
  let members = memberTables.get(meta);
  if (members) return members;
  const table = new Map<string, FieldMeta | typeof PASSED_OVER>();
  for (const [name, field] of meta.fields) table.set(name, field.isVersionField ? PASSED_OVER : field);
  for (const part of keyFieldColumns(meta)) table.set(part.field, PASSED_OVER);
  table.set("class", PASSED_OVER);
  table.set("_version", PASSED_OVER);
  memberTables.set(meta, (members = table));
  return members;
}

function chooseClass(model: Model, declared: ClassMeta, name: unknown, path: string, errors: FieldError[]): ClassMeta | undefined {
  if (name === undefined) return declared;
  const meta = typeof name === "string" ? model.classes.get(name) : undefined;
  if (meta && !meta.embeddedOnly && isAncestor(model, declared.name, meta.name)) return meta;
  // The pointer is made only for the error.
  const at = pointer(path, "class");
  if (typeof name !== "string") errors.push({ path: at, message: `"class" must be a class name, got ${describe(name)}` });
  else if (!meta || meta.embeddedOnly) errors.push({ path: at, message: `unknown class "${name}"` });
  else errors.push({ path: at, message: `class ${name} is not ${declared.name} or one of its subclasses` });
  return undefined;
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
    return {
      error: {
        path: at,
        message: `expected a key object of ${meta.identity.kind === "application" ? (meta.identity.keyClass ?? meta.name) : meta.name}, got ${describe(json)}`,
      },
    };
  }
  const obj = json as Record<string, unknown>;
  const classProblem = keyClassProblem(model, meta, obj.class);
  if (classProblem) return { error: { path: pointer(at, "class"), message: classProblem } };
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
    if (name !== "class" && !keyFieldColumns(meta).some((p) => p.field === name))
      return { error: { path: pointer(at, name), message: `unknown key field "${name}"` } };
  }
  return stringify(out);
}
