/** The identity of a class hierarchy as columns: which JSON key maps to which column, and how it is generated. */
import type { ClassMeta, Generation, ValueType } from "../metadata/model.ts";

export interface KeyPart {
  /** JSON name: a primary-key field, or `_id` for datastore identity. */
  field: string;
  column: string;
  generation: Generation;
  type: ValueType;
}

const DATASTORE_SEQUENCE: ValueType = { kind: "basic", basic: "long", primitive: false };
const DATASTORE_UUID: ValueType = { kind: "basic", basic: "string", primitive: false };

export function keyFieldColumns(meta: ClassMeta): KeyPart[] {
  const id = meta.identity;
  if (id.kind === "datastore") {
    return [{ field: "_id", column: id.column, generation: id.generation, type: id.generation.kind === "sequence" ? DATASTORE_SEQUENCE : DATASTORE_UUID }];
  }
  return id.fields.map((name, i) => {
    const f = meta.fields.get(name)!;
    return { field: name, column: meta.keyColumns[i]!, generation: f.generation, type: f.type as ValueType };
  });
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
