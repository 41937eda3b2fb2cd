/**
 * An object of a write as the write plan and its version steps see it: its class, whether it is
 * created or updated, and its key as slots (values known now, or numbers the batch reserves).
 */
import type { ClassMeta } from "../metadata/model.ts";
import type { GraphNode } from "../mapping/read-graph.ts";

export interface WriteNode {
  node: GraphNode;
  meta: ClassMeta;
  mode: "create" | "update";
  /** Key parts: given (or generated now) values, or numbers the batch's sequence reservation gives. */
  key: Slot[];
}

/**
 * A value of a write statement: bound as it is, or the number of the `index`th of the `count`
 * objects of hierarchy `name` whose keys the batch's sequence reservation gives (an expression
 * over the sequence table, so statements can name keys no one has seen yet).
 */
export type Slot = { kind: "value"; value: unknown } | { kind: "sequence"; name: string; count: number; index: number };

/** Makes a new UUID key part, in the form its generation names (write plans by shape pass stand-ins). */
export type KeyGenerator = (kind: "uuid-string" | "uuid-hex") => string;

export const newUuid: KeyGenerator = (kind) => {
  const uuid = crypto.randomUUID();
  return kind === "uuid-hex" ? uuid.replace(/-/g, "") : uuid;
};
