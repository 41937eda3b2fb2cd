/**
 * The JPA vocabulary, as its two sources (orm.xml and the JPA decorators) say it: entities,
 * mapped superclasses and embeddables with their attributes. Both sources read into these
 * shapes; `translateJpa` turns them into the declarations every metadata form shares, so JPA's
 * meaning (its defaults, generated values, inheritance, embedded ids) lives in one place.
 */
import type { ColumnDecl, SourceRef } from "../declarations.ts";

export type JpaAttributeKind =
  "id" | "embedded-id" | "basic" | "version" | "many-to-one" | "one-to-many" | "one-to-one" | "many-to-many" | "element-collection" | "embedded" | "transient";

export const JPA_INHERITANCE = ["SINGLE_TABLE", "JOINED", "TABLE_PER_CLASS"] as const;
export type JpaInheritance = (typeof JPA_INHERITANCE)[number];
export const JPA_GENERATION = ["AUTO", "IDENTITY", "SEQUENCE", "TABLE", "UUID"] as const;
export type JpaGeneration = (typeof JPA_GENERATION)[number];
export const JPA_DISCRIMINATOR_TYPES = ["STRING", "CHAR", "INTEGER"] as const;

export interface JpaJoinTable {
  name?: string;
  /** The column holding the owner's key. */
  joinColumn?: string;
  /** The column holding the element's key (or the value, for an element collection). */
  inverseJoinColumn?: string;
}

export interface JpaAttribute {
  kind: JpaAttributeKind;
  name: string;
  source: SourceRef;
  /** `attribute-type`: the Java type, the collection kind (`java.util.List`), or the embedded class. */
  type?: string;
  /** `target-entity` (relationships) or `target-class` (element collections). */
  target?: string;
  /** `<map-key-class>` of a map-valued element collection. */
  mapKeyClass?: string;
  mappedBy?: string;
  fetch?: "EAGER" | "LAZY";
  optional?: boolean;
  /** `<generated-value strategy>`; AUTO when the element has no strategy. */
  generated?: JpaGeneration;
  column?: ColumnDecl;
  joinColumn?: string;
  /** `<join-table>` of a relationship or `<collection-table>` of an element collection. */
  joinTable?: JpaJoinTable;
  orderColumn?: string;
  mapKeyColumn?: string;
  enumerated?: "ORDINAL" | "STRING";
  enumConstants?: string[];
  /** `<attribute-override name><column name>` of an embedded attribute: field → column. */
  overrides?: Record<string, string>;
  /** `orphan-removal="true"` or a cascade including remove: the related objects go with the owner. */
  dependent?: boolean;
  /** `orphan-removal="true"`: an object the relation releases is deleted too. */
  orphanRemoval?: boolean;
  /** `<join-column nullable>`: false makes a to-one reference required. */
  joinColumnNullable?: boolean;
}

export interface JpaEntityGraph {
  name: string;
  source: SourceRef;
  /** Attribute names; a sub-graph's nodes come as dotted paths (`department.company`). */
  nodes: string[];
}

export interface JpaClass {
  kind: "entity" | "mapped-superclass" | "embeddable";
  /** Fully qualified class name. */
  className: string;
  source: SourceRef;
  entityName?: string;
  /** EclipseLink's `parent-class`, or the decorated class's JavaScript superclass. */
  parentClass?: string;
  table?: string;
  idClass?: string;
  inheritance?: JpaInheritance;
  discriminatorColumn?: { name?: string; type?: (typeof JPA_DISCRIMINATOR_TYPES)[number] };
  discriminatorValue?: string;
  /**
   * Datastore identity (an extension, as DataNucleus's `@DatastoreId` and OpenJPA's `@DataStoreId`):
   * the entity declares no id; the server numbers its objects. `strategy` in JPA's or JDO's words.
   */
  datastoreId?: { strategy?: string; column?: string };
  /** Java's `abstract`, which neither XML nor a decorator can see (the `extent` `abstract` extension). */
  abstract?: boolean;
  attributes: JpaAttribute[];
  graphs: JpaEntityGraph[];
}

/** One `<named-attribute-node>` / `attributeNodes` entry. */
export interface GraphNodeSpec {
  name: string;
  subgraph?: string;
}

/** A graph's nodes as fetch-group paths: each sub-graph's nodes below their node (`lines.product`). */
export function graphPaths(nodes: readonly GraphNodeSpec[], subgraphs: ReadonlyMap<string, readonly GraphNodeSpec[]>): string[] {
  const paths: string[] = [];
  const walk = (list: readonly GraphNodeSpec[], prefix: string, depth: number): void => {
    for (const node of list) {
      paths.push(prefix + node.name);
      const sub = node.subgraph ? subgraphs.get(node.subgraph) : undefined;
      // Sub-graphs may name each other in a cycle: a fetch group stops at a bounded depth.
      if (sub && depth < 8) walk(sub, `${prefix}${node.name}.`, depth + 1);
    }
  };
  walk(nodes, "", 0);
  return paths;
}
