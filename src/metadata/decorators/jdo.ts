/**
 * JDO's annotations as TypeScript decorators (`import { PersistenceCapable, ... } from "extent/jdo"`).
 *
 *   @PersistenceCapable({ package: "org.example", table: "AUTHOR" })
 *   class Author {
 *     @PrimaryKey({ type: "long", valueStrategy: "increment" }) id!: number;
 *     @Persistent({ type: String }) name!: string;
 *     @Persistent({ mappedBy: "author", elementType: () => Book }) books!: Book[];
 *   }
 *
 * The options are the JDO XML attributes in camelCase (the same words as the plain object form);
 * what Java learns by reflection, the field's type, is an option here. Strategy names are
 * accepted as JDO XML writes them (`new-table`) and as the Java enums do (`NEW_TABLE`).
 */
import type { CollectionKind, ColumnDecl, DiscriminatorStrategy, InheritanceStrategy } from "../declarations.ts";
import { classDecorator, classDecoratorWith, fieldDecorator, type OptionalClassDecorator, type OptionalFieldDecorator } from "./define.ts";
import type { TypeRef } from "./registry.ts";

/** `NEW_TABLE` → `new-table`; `IdGeneratorStrategy.INCREMENT`'s name → `increment`. */
const jdoName = <T extends string>(s: string | undefined): T | undefined => (s === undefined ? undefined : (s.toLowerCase().replace(/_/g, "-") as T));

/** Enum constants in ordinal order: a list, or a TypeScript enum object (its names, in order). */
export type EnumConstants = readonly string[] | Record<string, string | number>;

export interface PersistenceCapableOptions {
  /** The Java package the class belongs to; its name in the model is `package.ClassName`. */
  package?: string;
  /** The class's name in the model, when it should not be the JavaScript class's name. */
  name?: string;
  identityType?: "application" | "datastore" | "nondurable" | "APPLICATION" | "DATASTORE" | "NONDURABLE";
  objectIdClass?: TypeRef;
  table?: string;
  embeddedOnly?: boolean;
  requiresExtent?: boolean;
  /** JavaScript has no abstract classes at run time: say it, and the class cannot be created. */
  abstract?: boolean;
  detachable?: boolean;
}

export const PersistenceCapable: OptionalClassDecorator<PersistenceCapableOptions> = classDecorator("PersistenceCapable", "jdo", {
  props: (o) => ({ kind: "persistence-capable", ...o, identityType: jdoName(o?.identityType), detachable: undefined }),
});

/** `@EmbeddedOnly`: instances live only inside the objects that embed them. */
export const EmbeddedOnly: OptionalClassDecorator<{ package?: string; name?: string }> = classDecorator("EmbeddedOnly", "jdo", {
  props: (o) => ({ kind: "persistence-capable", ...o, embeddedOnly: true }),
});

export const DatastoreIdentity: OptionalClassDecorator<{ strategy?: string; column?: string }> = classDecorator("DatastoreIdentity", "jdo", {
  props: (o) => ({ identityType: "datastore", datastoreIdentity: { strategy: jdoName(o?.strategy), column: o?.column } }),
});

export const Inheritance: OptionalClassDecorator<{ strategy?: string }> = classDecorator("Inheritance", "jdo", {
  props: (o) => ({ inheritanceStrategy: jdoName<InheritanceStrategy>(o?.strategy) }),
});

export const Discriminator: OptionalClassDecorator<{ strategy?: string; column?: string; value?: string; jdbcType?: string }> = classDecorator(
  "Discriminator",
  "jdo",
  { props: (o) => ({ discriminator: { ...o, strategy: jdoName<DiscriminatorStrategy>(o?.strategy) } }) },
);

export interface FetchGroupOptions {
  name: string;
  /** Field names, or dotted paths into related classes. */
  members: readonly (string | { name: string })[];
  /** Other fetch groups included in this one. */
  fetchGroups?: readonly string[];
}

export const FetchGroup: (options: FetchGroupOptions) => (value: abstract new (...args: never[]) => unknown, context: ClassDecoratorContext) => void =
  classDecoratorWith("FetchGroup", "jdo", {
    props: () => ({}),
    list: (o) => ["fetchGroups", { name: o.name, fields: o.members.map((m) => (typeof m === "string" ? m : m.name)), groups: o.fetchGroups }],
  });

export interface PersistentOptions {
  /** The field's type: a Java type name, an enum name, a class (or `() => Class`), or String/Number/Boolean/Date/BigInt/Uint8Array. */
  type?: TypeRef;
  elementType?: TypeRef;
  collectionKind?: CollectionKind;
  keyType?: TypeRef;
  valueType?: TypeRef;
  persistenceModifier?: "persistent" | "transactional" | "none";
  primaryKey?: boolean;
  valueStrategy?: string;
  nullValue?: "none" | "exception" | "default";
  defaultFetchGroup?: boolean;
  mappedBy?: string;
  embedded?: boolean;
  column?: string | ColumnDecl;
  /** The join table of a collection or map (`table` in JDO XML). */
  table?: string;
  dependent?: boolean;
  dependentElement?: boolean;
  enumConstants?: EnumConstants;
}

function persistentProps(o: PersistentOptions | undefined): Record<string, unknown> {
  if (!o) return {};
  const { type, table, column, dependentElement, enumConstants, valueStrategy, ...rest } = o;
  return {
    ...rest,
    typeName: type,
    joinTable: table,
    column: typeof column === "string" ? { name: column } : column,
    dependent: dependentElement || o.dependent || undefined,
    enumConstants: enumConstantNames(enumConstants),
    valueStrategy: jdoName(valueStrategy),
  };
}

/** A TypeScript enum object lists reverse mappings too (`{ A: 0, 0: "A" }`): keep the names. */
export function enumConstantNames(constants: EnumConstants | undefined): string[] | undefined {
  if (!constants) return undefined;
  if (Array.isArray(constants)) return [...constants];
  return Object.keys(constants).filter((k) => !/^\d+$/.test(k));
}

export const Persistent: OptionalFieldDecorator<PersistentOptions> = fieldDecorator("Persistent", "jdo", persistentProps);

export const PrimaryKey: OptionalFieldDecorator<Pick<PersistentOptions, "type" | "valueStrategy" | "column">> = fieldDecorator("PrimaryKey", "jdo", (o) => ({
  ...persistentProps(o),
  primaryKey: true,
}));

export const NotPersistent: OptionalFieldDecorator<never> = fieldDecorator("NotPersistent", "jdo", () => ({ persistenceModifier: "none" }));
export const Transactional: OptionalFieldDecorator<never> = fieldDecorator("Transactional", "jdo", () => ({ persistenceModifier: "transactional" }));

/** `@Column("NAME")` or `@Column({ name, jdbcType, length, allowsNull, ... })`. */
export const Column = (column: string | ColumnDecl) =>
  fieldDecorator<never>("Column", "jdo", () => ({ column: typeof column === "string" ? { name: column } : column }))();

/** An embedded object; `members` maps its fields to columns of the owner's table. */
export const Embedded: OptionalFieldDecorator<{ members?: Record<string, string>; nullIndicatorColumn?: string }> = fieldDecorator("Embedded", "jdo", (o) => ({
  embedded: true,
  embeddedColumns: o?.members,
  nullIndicatorColumn: o?.nullIndicatorColumn,
}));

export const Join: OptionalFieldDecorator<{ table?: string; column?: string }> = fieldDecorator("Join", "jdo", (o) => ({
  join: { column: o?.column },
  joinTable: o?.table,
}));
export const Element: OptionalFieldDecorator<{ column?: string; types?: TypeRef; dependent?: boolean }> = fieldDecorator("Element", "jdo", (o) => ({
  elementColumn: o?.column,
  elementType: o?.types,
  dependent: o?.dependent,
}));
export const Key: OptionalFieldDecorator<{ column?: string; types?: TypeRef }> = fieldDecorator("Key", "jdo", (o) => ({
  keyColumn: o?.column,
  keyType: o?.types,
}));
export const Value: OptionalFieldDecorator<{ column?: string; types?: TypeRef }> = fieldDecorator("Value", "jdo", (o) => ({
  valueColumn: o?.column,
  valueType: o?.types,
}));
export const Order: OptionalFieldDecorator<{ column?: string }> = fieldDecorator("Order", "jdo", (o) => ({ orderColumn: o?.column ?? "IDX" }));

/**
 * On a class, JDO's `@Version` (the optimistic version kept in a column); on a field, the same,
 * with that field reading the version number (DataNucleus's `field-name` extension).
 */
export function Version(options?: { strategy?: string; column?: string; type?: TypeRef }) {
  return (value: unknown, context: ClassDecoratorContext | ClassFieldDecoratorContext) => {
    const version = { strategy: jdoName(options?.strategy) ?? "version-number", column: options?.column };
    if (context.kind === "class") VersionOnClass(version)(value as never, context);
    else VersionOnField({ ...version, type: options?.type })(value, context);
  };
}
const VersionOnClass = (version: { strategy: string; column?: string }) => classDecorator<never>("Version", "jdo", { props: () => ({ version }) })();
const VersionOnField = (o: { strategy: string; column?: string; type?: TypeRef }) =>
  fieldDecorator<never>("Version", "jdo", () => ({ versionField: { strategy: o.strategy, column: o.column }, typeName: o.type }))();
