/**
 * JPA's annotations as TypeScript decorators (`import { Entity, Id, ... } from "extent/jpa"`).
 *
 *   @Entity({ package: "org.example" })
 *   class Author {
 *     @Id({ type: "long" }) @GeneratedValue id!: number;
 *     @Basic({ type: String }) name!: string;
 *     @OneToMany({ targetEntity: () => Book, mappedBy: "author" }) books!: Book[];
 *   }
 *
 * Options keep JPA's names; the type Java would reflect is the `type` option (on `@Id`, `@Basic`,
 * `@Version`, `@Embedded`, `@EmbeddedId`, `@ElementCollection`, and the collection kind on the
 * to-many relationships), targets are `targetEntity`/`targetClass`. A subclass entity's
 * superclass is its JavaScript superclass.
 */
import type { ColumnDecl } from "../declarations.ts";
import type { JpaAttributeKind, JpaGeneration, JpaInheritance } from "../jpa/model.ts";
import { classDecorator, classDecoratorWith, fieldDecorator, fieldDecoratorWith, type OptionalClassDecorator, type OptionalFieldDecorator } from "./define.ts";
import { enumConstantNames, type EnumConstants } from "./jdo.ts";
import type { TypeRef } from "./registry.ts";

export type { EnumConstants };
type FetchType = "EAGER" | "LAZY";
type Cascade = "ALL" | "PERSIST" | "MERGE" | "REMOVE" | "REFRESH" | "DETACH";

export interface EntityOptions {
  /** The entity name (JPQL's name for it); the class's simple name by default. */
  name?: string;
  /** The Java package the class belongs to; its name in the model is `package.ClassName`. */
  package?: string;
  /** JavaScript has no abstract classes at run time: say it, and the class cannot be created. */
  abstract?: boolean;
}

const cls = (kind: "entity" | "mapped-superclass" | "embeddable", name: string) =>
  classDecorator<EntityOptions>(name, "jpa", {
    props: (o) => ({ kind, entityName: kind === "entity" ? o?.name : undefined, package: o?.package, abstract: o?.abstract }),
  });

export const Entity: OptionalClassDecorator<EntityOptions> = cls("entity", "Entity");
export const MappedSuperclass: OptionalClassDecorator<Omit<EntityOptions, "name">> = cls("mapped-superclass", "MappedSuperclass");
export const Embeddable: OptionalClassDecorator<Omit<EntityOptions, "name" | "abstract">> = cls("embeddable", "Embeddable");

/**
 * Datastore identity for an entity without an id (DataNucleus's `@DatastoreId`): the server
 * numbers the objects and JSON carries the number as `_id`.
 */
export const DatastoreId: OptionalClassDecorator<{ strategy?: string; column?: string }> = classDecorator("DatastoreId", "jpa", {
  props: (o) => ({ datastoreId: { strategy: o?.strategy ?? "AUTO", column: o?.column } }),
});

export const Table = classDecoratorWith<string | { name: string }>("Table", "jpa", { props: (t) => ({ table: typeof t === "string" ? t : t.name }) });
export const IdClass = classDecoratorWith<TypeRef>("IdClass", "jpa", { props: (t) => ({ idClass: t }) });
export const Inheritance: OptionalClassDecorator<{ strategy?: JpaInheritance }> = classDecorator("Inheritance", "jpa", {
  props: (o) => ({ inheritance: o?.strategy ?? "SINGLE_TABLE" }),
});
export const DiscriminatorColumn: OptionalClassDecorator<{ name?: string; discriminatorType?: "STRING" | "CHAR" | "INTEGER" }> = classDecorator(
  "DiscriminatorColumn",
  "jpa",
  {
    props: (o) => ({ discriminatorColumn: { name: o?.name, type: o?.discriminatorType } }),
  },
);
export const DiscriminatorValue = classDecoratorWith<string>("DiscriminatorValue", "jpa", { props: (v) => ({ discriminatorValue: v }) });

export interface NamedEntityGraphOptions {
  name?: string;
  attributeNodes: readonly (string | { name: string; subgraph?: string })[];
  subgraphs?: readonly { name: string; attributeNodes: readonly (string | { name: string; subgraph?: string })[] }[];
}
export const NamedEntityGraph = classDecoratorWith<NamedEntityGraphOptions>("NamedEntityGraph", "jpa", {
  props: () => ({}),
  list: (o) => ["graphs", o],
});

// ---- attributes -----------------------------------------------------------------------------

const kind = (k: JpaAttributeKind) => ({ kind: k });

export const Id: OptionalFieldDecorator<{ type?: TypeRef }> = fieldDecorator("Id", "jpa", (o) => ({ ...kind("id"), type: o?.type }));
export const EmbeddedId: OptionalFieldDecorator<{ type?: TypeRef }> = fieldDecorator("EmbeddedId", "jpa", (o) => ({ ...kind("embedded-id"), type: o?.type }));
export const GeneratedValue: OptionalFieldDecorator<{ strategy?: JpaGeneration }> = fieldDecorator("GeneratedValue", "jpa", (o) => ({
  generated: o?.strategy ?? "AUTO",
}));

export interface BasicOptions {
  type?: TypeRef;
  fetch?: FetchType;
  optional?: boolean;
  /** An enum's constants in ordinal order (a list or a TypeScript enum object). */
  enumConstants?: EnumConstants;
}
export const Basic: OptionalFieldDecorator<BasicOptions> = fieldDecorator("Basic", "jpa", (o) => ({
  ...kind("basic"),
  type: o?.type,
  fetch: o?.fetch,
  optional: o?.optional,
  enumConstants: enumConstantNames(o?.enumConstants),
}));
export const Version: OptionalFieldDecorator<{ type?: TypeRef }> = fieldDecorator("Version", "jpa", (o) => ({ ...kind("version"), type: o?.type }));
export const Transient: OptionalFieldDecorator<never> = fieldDecorator("Transient", "jpa", () => kind("transient"));

interface RelationshipOptions {
  targetEntity?: TypeRef;
  fetch?: FetchType;
  cascade?: readonly Cascade[];
}
const dependent = (o: { cascade?: readonly Cascade[]; orphanRemoval?: boolean } | undefined) =>
  o?.orphanRemoval || o?.cascade?.some((c) => c === "ALL" || c === "REMOVE") || undefined;

export const ManyToOne: OptionalFieldDecorator<RelationshipOptions & { optional?: boolean }> = fieldDecorator("ManyToOne", "jpa", (o) => ({
  ...kind("many-to-one"),
  target: o?.targetEntity,
  fetch: o?.fetch,
  optional: o?.optional,
}));
export const OneToOne: OptionalFieldDecorator<RelationshipOptions & { optional?: boolean; mappedBy?: string; orphanRemoval?: boolean }> = fieldDecorator(
  "OneToOne",
  "jpa",
  (o) => ({
    ...kind("one-to-one"),
    target: o?.targetEntity,
    fetch: o?.fetch,
    optional: o?.optional,
    mappedBy: o?.mappedBy,
    dependent: dependent(o),
    orphanRemoval: o?.orphanRemoval,
  }),
);

interface ToManyOptions extends RelationshipOptions {
  mappedBy?: string;
  /** The collection kind: `java.util.Set` (default), `java.util.List`, `java.util.Collection`. */
  type?: string;
  orphanRemoval?: boolean;
}
export const OneToMany: OptionalFieldDecorator<ToManyOptions> = fieldDecorator("OneToMany", "jpa", (o) => ({
  ...kind("one-to-many"),
  target: o?.targetEntity,
  fetch: o?.fetch,
  mappedBy: o?.mappedBy,
  type: o?.type,
  dependent: dependent(o),
  orphanRemoval: o?.orphanRemoval,
}));
export const ManyToMany: OptionalFieldDecorator<ToManyOptions> = fieldDecorator("ManyToMany", "jpa", (o) => ({
  ...kind("many-to-many"),
  target: o?.targetEntity,
  fetch: o?.fetch,
  mappedBy: o?.mappedBy,
  type: o?.type,
  dependent: dependent(o),
  orphanRemoval: o?.orphanRemoval,
}));

export const ElementCollection: OptionalFieldDecorator<{ targetClass?: TypeRef; type?: string; fetch?: FetchType; enumConstants?: EnumConstants }> =
  fieldDecorator("ElementCollection", "jpa", (o) => ({
    ...kind("element-collection"),
    target: o?.targetClass,
    type: o?.type,
    fetch: o?.fetch,
    enumConstants: enumConstantNames(o?.enumConstants),
  }));
export const Embedded: OptionalFieldDecorator<{ type?: TypeRef }> = fieldDecorator("Embedded", "jpa", (o) => ({ ...kind("embedded"), type: o?.type }));

// ---- mapping --------------------------------------------------------------------------------

export interface ColumnOptions {
  name?: string;
  nullable?: boolean;
  length?: number;
  precision?: number;
  scale?: number;
  columnDefinition?: string;
}
const column = (o: ColumnOptions | undefined): ColumnDecl | undefined =>
  o && { name: o.name, allowsNull: o.nullable, length: o.length, scale: o.scale, sqlType: o.columnDefinition };

export const Column: OptionalFieldDecorator<ColumnOptions> = fieldDecorator("Column", "jpa", (o) => ({ column: column(o) }));
export const JoinColumn: OptionalFieldDecorator<{ name?: string; nullable?: boolean }> = fieldDecorator("JoinColumn", "jpa", (o) => ({
  joinColumn: o?.name,
  joinColumnNullable: o?.nullable,
}));

interface JoinTableOptions {
  name?: string;
  joinColumns?: readonly { name?: string }[];
  inverseJoinColumns?: readonly { name?: string }[];
}
export const JoinTable: OptionalFieldDecorator<JoinTableOptions> = fieldDecorator("JoinTable", "jpa", (o) => ({
  joinTable: { name: o?.name, joinColumn: o?.joinColumns?.[0]?.name, inverseJoinColumn: o?.inverseJoinColumns?.[0]?.name },
}));
export const CollectionTable: OptionalFieldDecorator<Omit<JoinTableOptions, "inverseJoinColumns">> = fieldDecorator("CollectionTable", "jpa", (o) => ({
  joinTable: { name: o?.name, joinColumn: o?.joinColumns?.[0]?.name },
}));
export const OrderColumn: OptionalFieldDecorator<{ name?: string }> = fieldDecorator("OrderColumn", "jpa", (o) => ({ orderColumn: o?.name ?? true }));
export const Enumerated = fieldDecoratorWith<"ORDINAL" | "STRING">("Enumerated", "jpa", (e) => ({ enumerated: e }));
export const MapKeyClass = fieldDecoratorWith<TypeRef>("MapKeyClass", "jpa", (t) => ({ mapKeyClass: t }));
export const MapKeyColumn: OptionalFieldDecorator<{ name?: string }> = fieldDecorator("MapKeyColumn", "jpa", (o) => ({ mapKeyColumn: o?.name }));
/** Maps a field of an embedded object (or embedded id) onto a column of the owner's table. */
export const AttributeOverride = fieldDecoratorWith<{ name: string; column: { name: string } }>("AttributeOverride", "jpa", (o) => ({
  overrides: { [o.name]: o.column.name },
}));
/** Accepted for familiarity; Extent's column types already follow the Java type. */
export const Temporal = fieldDecoratorWith<string>("Temporal", "jpa", () => ({}));
export const Lob: OptionalFieldDecorator<never> = fieldDecorator("Lob", "jpa", () => ({}));
