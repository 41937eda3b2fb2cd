/** The identity of a class hierarchy as columns: which JSON key maps to which column, and how it is generated. */
import { type ClassMeta, type Generation, type Model, type ValueType, isAncestor } from "../metadata/model.ts";

export interface KeyPart {
  /** JSON name: a primary-key field, or `_id` for datastore identity. */
  field: string;
  column: string;
  generation: Generation;
  type: ValueType;
}

const DATASTORE_SEQUENCE: ValueType = { kind: "basic", basic: "long", primitive: false };
const DATASTORE_UUID: ValueType = { kind: "basic", basic: "string", primitive: false };

/**
 * A class's key parts, worked out once: every request that reads or writes a key asks for them.
 * Read-only by type, not frozen: JavaScriptCore keeps a frozen array in a slow form (a loop over
 * one part took 51 ns frozen against 9 plain, Bun), and a POST walks these for every field it reads.
 */
const keyParts = new WeakMap<ClassMeta, readonly KeyPart[]>();

export function keyFieldColumns(meta: ClassMeta): readonly KeyPart[] {
  let parts = keyParts.get(meta);
  if (!parts) keyParts.set(meta, (parts = keyPartsOf(meta)));
  return parts;
}

function keyPartsOf(meta: ClassMeta): KeyPart[] {
  const id = meta.identity;
  if (id.kind === "datastore") {
    return [{ field: "_id", column: id.column, generation: id.generation, type: id.generation.kind === "sequence" ? DATASTORE_SEQUENCE : DATASTORE_UUID }];
  }
  return id.fields.map((name, i) => {
    const f = meta.fields.get(name)!;
    return { field: name, column: meta.keyColumns[i]!, generation: f.generation, type: f.type as ValueType };
  });
}

/**
 * What the `"class"` of a key object (in a path, a body's ancestor key, a query parameter) may
 * name: the class addressed or one of its subclasses (an identity is written with its object's
 * runtime class), or the hierarchy's key class (ancestor keys are written with it). Undefined when
 * it may; else what is wrong, in the client's terms.
 */
export function keyClassProblem(model: Model, meta: ClassMeta, name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== "string") return `"class" must be a class name, not ${JSON.stringify(name)?.slice(0, 80) ?? String(name)}`;
  if (meta.identity.kind === "application" && meta.identity.keyClass === name) return undefined;
  const named = model.classes.get(name);
  if (!named || named.embeddedOnly) return `"class" names no persistent class: "${name}"`;
  if (!isAncestor(model, meta.name, named.name)) return `"class" names ${name}, which is not ${meta.name} or one of its subclasses`;
  return undefined;
}

/** A canonical string for a key, used as the identity map's index. */
export function keyString(root: string, key: readonly unknown[]): string {
  // The common single number or text key skips JSON (this runs for every object loaded); the
  // type tag keeps 5 and "5" apart, and JSON text always starts with "[".
  if (key.length === 1) {
    const k = key[0];
    if (typeof k === "number") return root + "\u0000n" + k;
    if (typeof k === "string") return root + "\u0000s" + k;
  }
  return root + "\u0000" + JSON.stringify(key);
}

/**
 * How long a key is, as a path and a `Location` carry it: the UTF-8 bytes of its parts' text (a
 * string's characters, a number's digits, an ancestor key's JSON), summed over the parts of a
 * composite key. The `keyBytes` limit bounds it (src/config/limits.ts).
 */
function keyByteLength(key: readonly unknown[]): number {
  let bytes = 0;
  for (const part of key) {
    const text = typeof part === "string" ? part : String(part);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      // A surrogate pair is 4 bytes, 2 for each half.
      bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
    }
  }
  return bytes;
}

/** Why `key` is refused under `limit` (the message of its 422 or 400), or undefined when it fits. */
export function keyLengthProblem(key: readonly unknown[], limit: number): string | undefined {
  const bytes = keyByteLength(key);
  return bytes > limit ? `the key is ${bytes} bytes long (UTF-8); the limit is ${limit} (limit keyBytes)` : undefined;
}
