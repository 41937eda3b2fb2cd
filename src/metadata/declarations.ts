/**
 * Declarations: what one metadata source says about a class, before anything is resolved.
 *
 * Every metadata form (JDO XML, JPA orm.xml, the plain object form, JDO and JPA decorators)
 * is read into these shapes and nothing else. `buildModel` merges the declarations of all
 * sources (later sources override earlier ones, field by field, as JDO's .orm overrides .jdo),
 * resolves names and defaults, validates, and produces the one normalized `Model`.
 *
 * Names of types are kept as written (Java type names, enum names, class names); a source
 * only qualifies unqualified class names against its package when it knows the package.
 */

/** Where a declaration came from, so a model error can point at it. */
export interface SourceRef {
  file: string;
  line?: number;
  /** From 1, where the source knows it (Java sources). */
  column?: number;
}

export type InheritanceStrategy = "new-table" | "superclass-table" | "subclass-table" | "complete-table";
export type DiscriminatorStrategy = "class-name" | "value-map" | "none";
export type CollectionKind = "set" | "list" | "collection" | "array";

export interface ColumnDecl {
  name?: string;
  /** JDBC type as written (`INTEGER`, `VARCHAR`, ...). `INTEGER` on an enum field stores the ordinal. */
  jdbcType?: string;
  sqlType?: string;
  length?: number;
  scale?: number;
  allowsNull?: boolean;
  defaultValue?: string;
}

export interface FieldDecl {
  name: string;
  source: SourceRef;
  /** `field-type` (JDO) or `attribute-type` (JPA): a Java type name, an enum name or a class name. */
  typeName?: string;
  /** `<collection element-type>` / `<array element-type>` / `target-entity` / `target-class`. */
  elementType?: string;
  /** Set when the field is declared as a collection or array without a typeName saying which kind. */
  collectionKind?: CollectionKind;
  /** `<map key-type value-type>`. */
  keyType?: string;
  valueType?: string;
  persistenceModifier?: "persistent" | "transactional" | "none";
  primaryKey?: boolean;
  /** JDO value-strategy: increment, identity, native, sequence, uuid-string, uuid-hex, uuid, auid. */
  valueStrategy?: string;
  nullValue?: "none" | "exception" | "default";
  defaultFetchGroup?: boolean;
  mappedBy?: string;
  /** `embedded="true"` on the field, or an `<embedded>` element. */
  embedded?: boolean;
  /** Column overrides of the embedded object's fields (`<embedded><field column=...>`). */
  embeddedFields?: FieldDecl[];
  nullIndicatorColumn?: string;
  column?: ColumnDecl;
  /** Join table of a collection, map or reference: `table` on the field plus `<join column>`. */
  joinTable?: string;
  /**
   * Declared many-to-many (JPA's `<many-to-many>`, `@ManyToMany`): a join table whose elements
   * may belong to several owners even without an inverse field. JDO declares no kind: a
   * collection through a join table is many-to-many when its inverse is a collection too.
   */
  manyToMany?: boolean;
  /** Presence of `<join>` (even empty) asks for a join table. */
  join?: { column?: string };
  elementColumn?: string;
  keyColumn?: string;
  valueColumn?: string;
  orderColumn?: string;
  /** Enum constants from the `extent` `enum-constants` extension, in ordinal order. */
  enumConstants?: string[];
  /** The related objects are deleted with the owner (JDO `dependent`, `dependent-element`; JPA cascade REMOVE/ALL, `orphanRemoval`). */
  dependent?: boolean;
  /**
   * Whether an object the relation releases (a PUT drops it from the collection, replaces the
   * reference) is deleted too; when not said, what `dependent` says (JDO's dependent fields do;
   * JPA says `false` for a cascade without `orphanRemoval`).
   */
  orphanRemoval?: boolean;
  /** Names this field with the version number (`<version><extension key="field-name">`). */
  isVersionField?: boolean;
}

export interface FetchGroupDecl {
  name: string;
  source: SourceRef;
  /** Field names, possibly dotted paths into related classes (`department.name`). */
  fields: string[];
  /** Nested `<fetch-group name>` references. */
  groups?: string[];
}

export interface ClassDecl {
  /** Fully qualified class name. */
  name: string;
  source: SourceRef;
  /**
   * Whose defaults apply where the declaration is silent (JDO's unless said). JPA's differ in
   * inheritance: a subclass entity shares its root's table (SINGLE_TABLE) and the discriminator
   * is `DTYPE` holding entity names.
   */
  vocabulary?: "jdo" | "jpa";
  identityType?: "application" | "datastore" | "nondurable";
  objectIdClass?: string;
  /** `persistence-capable-superclass` (JDO) or `parent-class` (JPA). */
  superclass?: string;
  embeddedOnly?: boolean;
  /** Java's `abstract` cannot be read from XML: the `extent` `abstract` extension says it. */
  abstract?: boolean;
  requiresExtent?: boolean;
  /** JPA entity name; JDO classes use their simple name. */
  entityName?: string;
  table?: string;
  datastoreIdentity?: { strategy?: string; column?: string };
  inheritance?: {
    strategy?: InheritanceStrategy;
    discriminator?: { strategy?: DiscriminatorStrategy; column?: string; value?: string; jdbcType?: string };
    /** Column(s) joining a new-table subclass to its superclass table (defaults to the key columns). */
    joinColumn?: string;
    /** The strategy of descendants that declare none (JPA's `@Inheritance` on a root entity). */
    forSubclasses?: InheritanceStrategy;
  };
  version?: { strategy?: string; column?: string; fieldName?: string };
  fetchGroups?: FetchGroupDecl[];
  fields: FieldDecl[];
}

/** Everything one source contributes: classes, plus where it came from. */
export interface MetadataDocument {
  source: string;
  classes: ClassDecl[];
}
