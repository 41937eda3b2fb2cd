/**
 * JPQL's functions of what a joined variable ranges over (Jakarta Persistence 3.2 §4.4.4,
 * §4.6.17.2.2): `INDEX(v)`, the position of v's element in an ordered list, and `ENTRY(v)`, the
 * map entry v ranges over, answered as `{"key": ..., "value": ...}`.
 */
import { relationStorage } from "../../mapping/relation-storage.ts";
import type { Model } from "../../metadata/model.ts";
import { fail } from "../shared/errors.ts";
import { type Binding, type Pos, type QExpr, type ResultPart, node } from "../shared/model.ts";
import { INT, describeType } from "../shared/types.ts";
import { type JScope, lookupVariable } from "./scope.ts";

function joinedVariable(scope: JScope, name: string, fn: string, pos: Pos): Binding {
  const binding = lookupVariable(scope, name) ?? fail(`unknown identification variable "${name}"`, pos);
  if (!binding.source) fail(`${fn}(${name}) needs a variable joined over a ${fn === "INDEX" ? "list" : "map"} (JOIN x.field ${name})`, pos);
  return binding;
}

/**
 * `INDEX(v)`: v ranges over a list that keeps its order, a list of values (its JSON array's
 * order) or a list of objects in a join table with an order column (3.2: "an order column has
 * been specified"); a set, a mapped-by list or a map has no positions.
 */
export function listIndex(scope: JScope, arg: unknown, pos: Pos): QExpr {
  const a = arg as { type: string; head?: unknown; names?: string[]; pos: Pos };
  if (a.type !== "Path" || typeof a.head !== "string" || a.names?.length) fail("INDEX takes an identification variable", a.pos ?? pos);
  const binding = joinedVariable(scope, a.head, "INDEX", pos);
  const source = binding.source!;
  const ordered = source.type.kind === "collection" && source.type.ordered && keepsOrder(scope.model, source);
  if (!ordered) fail(`INDEX(${a.head}): ${a.head} ranges over ${describeType(source.type)} without positions; INDEX needs a list with an order column`, pos);
  return node({ kind: "listIndex", operand: node({ kind: "binding", binding, type: binding.type }, a.pos), type: INT }, pos);
}

/** A list of values keeps its order; a list of objects only in the join table its field owns. */
function keepsOrder(model: Model, source: QExpr): boolean {
  if (source.kind !== "field") return false;
  if (!source.field.relation) return true;
  const s = relationStorage(model, source.field);
  return s.kind === "join-table" && !s.inverse && !!s.links.orderColumn;
}

/** `ENTRY(v)` as a select item: v's entry of the map it ranges over, as an object of its key and value. */
export function entryParts(scope: JScope, variable: string, pos: Pos): { expr: QExpr; parts: ResultPart[] } {
  const binding = joinedVariable(scope, variable, "ENTRY", pos);
  const map = binding.source!.type;
  if (map.kind !== "map") fail(`ENTRY(${variable}) needs a variable joined over a map, not over ${describeType(map)}`, pos);
  if (map.value.kind === "entity")
    fail(`ENTRY(${variable}): a map of objects has no entries to select yet; select KEY(${variable}) and VALUE(${variable})`, pos);
  const value = node({ kind: "binding", binding, type: binding.type }, pos);
  const key = node({ kind: "entryKey", operand: value, type: map.key }, pos);
  return {
    expr: value,
    parts: [
      { name: "key", expr: key },
      { name: "value", expr: value },
    ],
  };
}
