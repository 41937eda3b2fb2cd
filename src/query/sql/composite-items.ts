/**
 * Result items answered as objects of several values: an embedded object (its fields, as the
 * object's JSON has them) and JPQL's ENTRY(v) (key and value, parts the binder gives). Each part
 * is one column of the projection; src/service/query.ts puts them back together.
 */
import type { Model } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import type { QExpr, ResultItem, ResultPart } from "../shared/model.ts";
import { fieldExpr } from "../shared/navigate.ts";

/** The parts of a result item answered as an object, or undefined for a single value or an entity. */
export function resultParts(model: Model, item: ResultItem): ResultPart[] | undefined {
  if (item.parts) return item.parts;
  const e: QExpr = item.expr;
  if (e.type.kind !== "embedded") return undefined;
  const parts = [...e.type.meta.fields.values()].map((f) => ({ name: f.name, expr: fieldExpr(model, e, f.name, e.pos) }));
  const inner = parts.find((p) => ["entity", "embedded", "collection", "map", "key"].includes(p.expr.type.kind));
  if (inner) fail(`an embedded ${e.type.meta.name} holding ${inner.name} (not a value) cannot be a result item yet; select its fields`, e.pos);
  return parts;
}
