/**
 * Relations between persistent classes: which kind (1-1, N-1, 1-N, M-N), which side owns the
 * storage, and how it is stored (a foreign key in the owner, the inverse of one, or a join table).
 *
 * JDO's rules: a field with `mapped-by` is the inverse side; a 1-N without `mapped-by` uses a
 * join table; a to-one without `mapped-by` is a foreign key in the owner's table. A join table's
 * relation is M-N when its inverse is a collection, or when it is declared so (JPA).
 */
import type { ClassDecl, FieldDecl } from "./declarations.ts";
import type { FieldType, Relation } from "./model.ts";
import type { ProblemLog } from "./problem-log.ts";
import { simpleName } from "./tables.ts";

export interface RelationInput {
  decl: ClassDecl;
  field: FieldDecl;
  type: FieldType;
  /** Looks up a persistent field of a class (inherited included), with its declaration. */
  fieldOf(className: string, fieldName: string): { type: FieldType; decl: FieldDecl } | undefined;
  /** Key column names of a class hierarchy (the identity's columns in the primary table). */
  keyColumns(className: string): readonly string[];
  /** The field of `target` that says `mapped-by` this field, if any. */
  inverseOf(target: string): { type: FieldType; decl: FieldDecl } | undefined;
  /** Whether `sub` is `ancestor` or one of its subclasses. */
  isA(sub: string, ancestor: string): boolean;
  log: ProblemLog;
}

const targetOf = (type: FieldType): string | undefined =>
  type.kind === "ref" ? type.class : type.kind === "collection" && type.element.kind === "ref" ? type.element.class : undefined;

export function resolveRelation(input: RelationInput): Relation | undefined {
  const { decl, field, type, log } = input;
  const target = targetOf(type);
  if (!target) return undefined;
  const toMany = type.kind === "collection";

  if (field.mappedBy) {
    const other = input.fieldOf(target, field.mappedBy);
    if (!other) {
      log.add(decl, `mapped-by names "${field.mappedBy}", which is not a persistent field of ${target}`, field);
      return undefined;
    }
    const back = targetOf(other.type);
    if (!back || !input.isA(decl.name, back)) {
      log.add(decl, `mapped-by field ${target}.${field.mappedBy} does not refer to ${decl.name}`, field);
      return undefined;
    }
    if (other.decl.mappedBy) {
      log.add(decl, `both ${decl.name}.${field.name} and ${target}.${field.mappedBy} say mapped-by: one side must own the relation`, field);
      return undefined;
    }
    const otherToMany = other.type.kind === "collection";
    if (otherToMany) {
      return { kind: toMany ? "many-to-many" : "many-to-one", target, inverse: field.mappedBy, storage: { kind: "join-inverse", targetField: field.mappedBy } };
    }
    return { kind: toMany ? "one-to-many" : "one-to-one", target, inverse: field.mappedBy, storage: { kind: "fk-inverse", targetField: field.mappedBy } };
  }

  const inverse = input.inverseOf(target);
  if (!toMany && !field.join && !field.joinTable) {
    const inverseToMany = inverse && inverse.type.kind === "collection";
    return { kind: inverse && !inverseToMany ? "one-to-one" : "many-to-one", target, inverse: inverse?.decl.name, storage: { kind: "fk-owner" } };
  }

  // A join table: (owner key columns, element key columns[, order column]).
  const ownerKeys = input.keyColumns(decl.name);
  const elementKeys = input.keyColumns(target);
  const table = field.joinTable ?? `${simpleName(decl.name)}_${field.name}`;
  const ownerColumns = ownerKeys.length === 1 && field.join?.column ? [field.join.column] : ownerKeys.map((k) => `${simpleName(decl.name)}_${k}`);
  const elementColumns = elementKeys.length === 1 && field.elementColumn ? [field.elementColumn] : elementKeys.map((k) => `${field.name}_${k}`);
  const ordered = type.kind === "collection" && (type.collection === "list" || type.collection === "array");
  const orderColumn = field.orderColumn ?? (ordered ? "IDX" : undefined);
  const manyToMany = inverse?.type.kind === "collection" || field.manyToMany === true;
  return {
    kind: toMany ? (manyToMany ? "many-to-many" : "one-to-many") : "many-to-one",
    target,
    inverse: inverse?.decl.name,
    storage: { kind: "join-table", table, ownerColumns, elementColumns, orderColumn },
  };
}
