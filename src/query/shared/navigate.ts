/** Navigation in the query model: one field of an entity or embedded object, checked and typed. */
import type { Model } from "../../metadata/model.ts";
import { fail } from "./errors.ts";
import { type Pos, type QExpr, node } from "./model.ts";
import { describeType, fieldQType } from "./types.ts";

export function fieldExpr(model: Model, from: QExpr, name: string, pos: Pos): QExpr {
  const t = from.type;
  if (t.kind === "collection" || t.kind === "map") fail(`"${name}": navigation through a collection needs a variable (coll.contains(v) && v.${name} ...)`, pos);
  if (t.kind !== "entity" && t.kind !== "embedded") fail(`"${name}": a ${describeType(t)} has no fields`, pos);
  const field = t.meta.fields.get(name);
  if (!field) fail(`unknown field "${name}" of class ${t.meta.name}`, pos);
  // An ancestor key is stored as JSON text of the parent's key: no query reads it that way yet.
  if (field.type.kind === "key") fail(`"${name}" holds an ancestor key (${field.type.class}), which queries cannot use yet`, pos);
  return node({ kind: "field", from, field, owner: t.meta, type: fieldQType(model, field) }, pos);
}
