/**
 * The normalized metadata model: the single source of truth that the store, the JSON mapping,
 * the query compiler and input validation all read. Built once at start-up by `buildModel`
 * from the declarations of every metadata source; immutable afterwards.
 */
import type { CollectionKind, DiscriminatorStrategy, InheritanceStrategy, SourceRef } from "./declarations.ts";

export type BasicKind =
  | "boolean"
  | "byte"
  | "short"
  | "int"
  | "long"
  | "float"
  | "double"
  | "char"
  | "string"
  | "decimal"
  | "biginteger"
  | "date"
  | "sql-date"
  | "timestamp"
  | "local-date"
  | "local-date-time"
  | "local-time"
  | "instant"
  | "uuid"
  | "bytes";

/** A single value: what a field, a collection element, a map key or a map value holds. */
export type ValueType =
  | { kind: "basic"; basic: BasicKind; /** Java primitive: never null. */ primitive: boolean }
  | { kind: "enum"; name: string; constants: readonly string[] }
  /** A reference to a persistent class (1-1, N-1, or the element of 1-N and M-N). */
  | { kind: "ref"; class: string }
  /** An embedded (embedded-only) object stored in its owner's columns. */
  | { kind: "embedded"; class: string }
  /** The key class itself, used by a key field as an ancestor ("parent") key. */
  | { kind: "key"; class: string };

export type FieldType = ValueType | { kind: "collection"; collection: CollectionKind; element: ValueType } | { kind: "map"; key: ValueType; value: ValueType };

export type Generation =
  | { kind: "none" }
  /** A number from the class hierarchy's sequence (increment, identity, native, sequence). */
  | { kind: "sequence" }
  | { kind: "uuid-string" }
  | { kind: "uuid-hex" };

export type RelationKind = "one-to-one" | "many-to-one" | "one-to-many" | "many-to-many";

/**
 * How a relation field is stored. Exactly one side of a bidirectional relation owns the storage;
 * the other (`mappedBy`) reads it.
 */
export type RelationStorage =
  /** A foreign-key column in the owner's table holding the target's identity. */
  | { kind: "fk-owner" }
  /** The inverse of a foreign key in the target's table (1-N mapped-by, 1-1 mapped-by). */
  | { kind: "fk-inverse"; targetField: string }
  /** A join table of (owner, element[, order]) rows. */
  | { kind: "join-table"; table: string; ownerColumns: readonly string[]; elementColumns: readonly string[]; orderColumn?: string }
  /** The inverse side of another field's join table. */
  | { kind: "join-inverse"; targetField: string };

export interface Relation {
  kind: RelationKind;
  target: string;
  storage: RelationStorage;
  /** The field on the other side of a bidirectional relation, if any. */
  inverse?: string;
}

/**
 * A collection of values kept in a table of its own (JDO `<join>`, JPA `@CollectionTable`): one
 * row per element, `(owner key…, value[, position])`. Without one, a collection of values is a
 * JSON column of its owner's row.
 */
export interface ValueTable {
  table: string;
  /** The owner's key, in the order of its class's key columns. */
  ownerColumns: readonly string[];
  valueColumn: string;
  /** A list's position (0-based); without one, elements read in the value's order. */
  orderColumn?: string;
}

export interface FieldMeta {
  name: string;
  /** The class that declares the field (an ancestor of the class being read, or the class itself). */
  declaringClass: string;
  type: FieldType;
  source: SourceRef;
  primaryKey: boolean;
  generation: Generation;
  /** Whether null is allowed (false for primitives, primary-key fields and null-value="exception"). */
  nullable: boolean;
  defaultFetchGroup: boolean;
  /** Enums stored as their ordinal instead of their name. */
  enumOrdinal: boolean;
  relation?: Relation;
  /** Column of a value stored in the owner's row: basic, enum, ancestor key, or a collection/map as JSON. */
  column?: string;
  /** Foreign-key columns of an owned to-one reference, in the order of the target's key columns. */
  fkColumns?: readonly string[];
  /** A collection of values stored in a table of its own (then `column` is absent). */
  valueTable?: ValueTable;
  /** Embedded objects: one column per embedded field, by field name. */
  embeddedColumns?: Readonly<Record<string, string>>;
  /** Reads the version number instead of being stored. */
  isVersionField: boolean;
  /**
   * Declared `java.util.Optional<T>`: stored, read and written as its T or null (an empty
   * Optional), and queried as JDO 3.2 says (`isPresent()`, `get()`, `orElse(v)`, or the value itself).
   */
  optional?: boolean;
  /** When the owner is deleted, delete the referenced object(s) too. */
  dependent: boolean;
  /** When a write releases a referenced object (drops it from the collection, replaces the reference), delete it. */
  orphanRemoval: boolean;
}

export interface Discriminator {
  strategy: DiscriminatorStrategy;
  column: string;
  /** The value stored for each class of the table, by class name. */
  values: Readonly<Record<string, string>>;
}

export type Identity = { kind: "datastore"; generation: Generation; column: string } | { kind: "application"; fields: readonly string[]; keyClass?: string };

export interface ClassMeta {
  /** Key columns, the same in every table of the hierarchy (datastore column or key fields' columns). */
  keyColumns: readonly string[];
  name: string;
  simpleName: string;
  entityName: string;
  source: SourceRef;
  superclass?: string;
  /** Direct subclasses, in declaration order. */
  subclasses: readonly string[];
  /** The root of this class's inheritance hierarchy (itself when it has no superclass). */
  root: string;
  abstract: boolean;
  embeddedOnly: boolean;
  /** JDO's requires-extent: false means queries never range over the class's extent. */
  requiresExtent: boolean;
  /** Identity is always the root's. */
  identity: Identity;
  inheritance: InheritanceStrategy;
  /** The table holding this class's own fields; absent for subclass-table and embedded-only classes. */
  table?: string;
  /** The table where a row of this class's identity lives (the root-most table on its path). */
  primaryTable?: string;
  /** Tables of a row of this class: the primary table first, then joined new-table tables. */
  tables: readonly string[];
  /** The table holding each persistent field (inherited included) that is stored in a row. */
  fieldTables: ReadonlyMap<string, string>;
  discriminator?: Discriminator;
  version?: { column: string; fieldName?: string };
  /** Every persistent field, inherited ones first, by name. */
  fields: ReadonlyMap<string, FieldMeta>;
  /** Named fetch groups, resolved to field names of this class (inherited groups included). */
  fetchGroups: ReadonlyMap<string, readonly string[]>;
}

export interface Model {
  classes: ReadonlyMap<string, ClassMeta>;
  /** Lookup by simple name and entity name, for query languages and relative names. */
  bySimpleName: ReadonlyMap<string, string>;
}

export function classOf(model: Model, name: string): ClassMeta {
  const meta = model.classes.get(name);
  if (!meta) throw new Error(`internal: unknown class ${name}`);
  return meta;
}

/** The class and every subclass below it, depth first, the class itself first. */
export function subtree(model: Model, name: string): ClassMeta[] {
  const out: ClassMeta[] = [];
  const visit = (n: string) => {
    const meta = classOf(model, n);
    out.push(meta);
    meta.subclasses.forEach(visit);
  };
  visit(name);
  return out;
}

export function isAncestor(model: Model, ancestor: string, name: string): boolean {
  for (let c: string | undefined = name; c; c = model.classes.get(c)?.superclass) if (c === ancestor) return true;
  return false;
}
