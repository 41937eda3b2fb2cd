/**
 * The annotation types Extent understands, by vocabulary, and the Java library types a model
 * may name without their sources being in the tree (so `import java.util.*` resolves `List`).
 */

export const JDO_PACKAGE = "javax.jdo.annotations";
export const JPA_PACKAGES = ["jakarta.persistence", "javax.persistence"];
/** DataNucleus's own JPA annotations (`@DatastoreId`), for Jakarta and for javax. */
export const DATANUCLEUS_JPA_PACKAGES = ["org.datanucleus.api.jakarta.annotations", "org.datanucleus.api.jpa.annotations"];
const DATANUCLEUS_JPA_ANNOTATIONS = ["DatastoreId"];

export const JDO_ANNOTATIONS = [
  "PersistenceCapable",
  "PersistenceAware",
  "EmbeddedOnly",
  "DatastoreIdentity",
  "Inheritance",
  "Discriminator",
  "Version",
  "FetchGroup",
  "FetchGroups",
  "Persistent",
  "PrimaryKey",
  "NotPersistent",
  "Transactional",
  "Column",
  "Columns",
  "Embedded",
  "Join",
  "Element",
  "Key",
  "Value",
  "Order",
  "Extension",
  "Extensions",
  "Index",
  "Unique",
  "ForeignKey",
  "Serialized",
  "Queries",
  "Query",
  "Cacheable",
  "Sequence",
  "FetchPlan",
  "FetchPlans",
  "Indices",
  "Uniques",
  "ForeignKeys",
  "PrimaryKeys",
  // Enums the elements name.
  "IdentityType",
  "IdGeneratorStrategy",
  "InheritanceStrategy",
  "DiscriminatorStrategy",
  "VersionStrategy",
  "NullValue",
  "PersistenceModifier",
];

export const JPA_ANNOTATIONS = [
  "Entity",
  "MappedSuperclass",
  "Embeddable",
  "Table",
  "IdClass",
  "Inheritance",
  "DiscriminatorColumn",
  "DiscriminatorValue",
  "NamedEntityGraph",
  "NamedEntityGraphs",
  "NamedAttributeNode",
  "NamedSubgraph",
  "Id",
  "EmbeddedId",
  "GeneratedValue",
  "Basic",
  "Version",
  "Transient",
  "ManyToOne",
  "OneToOne",
  "OneToMany",
  "ManyToMany",
  "ElementCollection",
  "Embedded",
  "Column",
  "JoinColumn",
  "JoinColumns",
  "JoinTable",
  "CollectionTable",
  "OrderColumn",
  "OrderBy",
  "Enumerated",
  "MapKeyClass",
  "MapKeyColumn",
  "AttributeOverride",
  "AttributeOverrides",
  "Temporal",
  "Lob",
  "Access",
  "NamedQuery",
  "NamedQueries",
  "SequenceGenerator",
  "TableGenerator",
  "Cacheable",
  "UniqueConstraint",
  "Index",
  "EntityListeners",
  "Convert",
  "PrimaryKeyJoinColumn",
  "InheritanceType",
  "DiscriminatorType",
  "GenerationType",
  "FetchType",
  "CascadeType",
  "EnumType",
  "TemporalType",
  "AccessType",
];

/** Library types a model names (java.lang, collections, dates, numbers), by package. */
const LIBRARY: Record<string, string[]> = {
  "java.lang": [
    "String",
    "Boolean",
    "Byte",
    "Short",
    "Integer",
    "Long",
    "Float",
    "Double",
    "Character",
    "Number",
    "Object",
    "Enum",
    "Comparable",
    "Cloneable",
    "Iterable",
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "FunctionalInterface",
    "SafeVarargs",
    "Class",
    "Runnable",
  ],
  "java.util": [
    "Set",
    "HashSet",
    "TreeSet",
    "LinkedHashSet",
    "SortedSet",
    "List",
    "ArrayList",
    "LinkedList",
    "Collection",
    "Map",
    "HashMap",
    "TreeMap",
    "LinkedHashMap",
    "SortedMap",
    "Date",
    "UUID",
    "Comparator",
    "Collections",
    "Objects",
    "Optional",
    "Iterator",
    "Arrays",
    "Calendar",
    "Locale",
    "Currency",
  ],
  "java.math": ["BigDecimal", "BigInteger"],
  "java.time": ["LocalDate", "LocalDateTime", "LocalTime", "Instant", "Duration", "ZonedDateTime", "OffsetDateTime"],
  "java.sql": ["Date", "Timestamp", "Time"],
  "java.io": ["Serializable", "IOException", "ObjectInputStream", "ObjectOutputStream", "Externalizable"],
  [JDO_PACKAGE]: JDO_ANNOTATIONS,
  "jakarta.persistence": JPA_ANNOTATIONS,
  "javax.persistence": JPA_ANNOTATIONS,
  "org.datanucleus.api.jakarta.annotations": DATANUCLEUS_JPA_ANNOTATIONS,
  "org.datanucleus.api.jpa.annotations": DATANUCLEUS_JPA_ANNOTATIONS,
};

const LIBRARY_TYPES = new Set(Object.entries(LIBRARY).flatMap(([pkg, names]) => names.map((n) => `${pkg}.${n}`)));

/** `java.util.List` for package `java.util` and name `List`, when the library has it. */
export function libraryType(pkg: string, simple: string): string | undefined {
  const name = `${pkg}.${simple}`;
  return LIBRARY_TYPES.has(name) ? name : undefined;
}

/** Which vocabulary an annotation type (fully qualified) belongs to, with its simple name. */
export function vocabularyOf(type: string): { vocabulary: "jdo" | "jpa"; name: string } | undefined {
  const dot = type.lastIndexOf(".");
  const pkg = type.slice(0, dot);
  const name = type.slice(dot + 1);
  if (pkg === JDO_PACKAGE) return { vocabulary: "jdo", name };
  if (JPA_PACKAGES.includes(pkg) || (DATANUCLEUS_JPA_PACKAGES.includes(pkg) && DATANUCLEUS_JPA_ANNOTATIONS.includes(name))) return { vocabulary: "jpa", name };
  return undefined;
}
