/**
 * JPQL's entity type expressions and identifier functions (Jakarta Persistence 3.2 §4.7.9, §4.7.10):
 * `TYPE(e) = :t` with the entity (its entity name or class name) bound to a parameter, and
 * `ID(e)`, the value of the entity's primary key. Each becomes nodes the query model already has.
 */
import { type ClassMeta, type Model, subtree } from "../../metadata/model.ts";
import type { Pos, QExpr, QType } from "../shared/model.ts";
import { node } from "../shared/model.ts";
import { fieldExpr } from "../shared/navigate.ts";
import { BOOLEAN } from "../shared/types.ts";

/**
 * The type of a parameter compared with TYPE(...): one of the model's entity names or class names.
 * As an enum of those names, another value is refused (400) when the parameter is bound, as
 * Query.setParameter refuses a class that is no entity.
 */
export function entityTypeParamType(model: Model): Extract<QType, { kind: "enum" }> {
  const names = new Set<string>();
  for (const c of model.classes.values()) {
    if (c.embeddedOnly) continue;
    names.add(c.entityName);
    names.add(c.name);
  }
  return { kind: "enum", type: { kind: "enum", name: "entity type", constants: [...names] }, ordinal: false };
}

/**
 * `TYPE(operand) = param`: true when the operand's exact class is the one the parameter names.
 * The exact class is one of the operand's subtree: for each, the parameter names it and the
 * object is exactly of it.
 */
export function typeEqualsParam(model: Model, operand: QExpr & { type: { kind: "entity" } }, param: QExpr, pos: Pos): QExpr {
  const enumType = param.type;
  const tests = subtree(model, operand.type.meta.name).map((c: ClassMeta) => {
    const names = [...new Set([c.entityName, c.name])].map((n) =>
      node({ kind: "compare", op: "=", left: param, right: node({ kind: "literal", value: n, type: enumType }, pos), nullEquals: false, type: BOOLEAN }, pos),
    );
    const named = names.length === 1 ? names[0]! : node({ kind: "or", items: names, type: BOOLEAN }, pos);
    return node({ kind: "and", items: [named, node({ kind: "instanceOf", operand, classes: [c], type: BOOLEAN }, pos)], type: BOOLEAN }, pos);
  });
  return tests.length === 1 ? tests[0]! : node({ kind: "or", items: tests, type: BOOLEAN }, pos);
}

/**
 * `ID(e)`: the primary key's value, a synonym for the key field's path (`ID(person)` is
 * `person.ssn`). An entity whose key has several fields, or a datastore identity, has no one key
 * field: its identity (class and key) is the value.
 */
export function idOf(model: Model, operand: QExpr & { type: { kind: "entity" } }, pos: Pos): QExpr {
  const identity = operand.type.meta.identity;
  if (identity.kind === "application" && identity.fields.length === 1) return fieldExpr(model, operand, identity.fields[0]!, pos);
  return node({ kind: "objectId", operand, type: operand.type }, pos);
}
