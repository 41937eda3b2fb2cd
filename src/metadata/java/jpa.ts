/**
 * JPA's annotations (`jakarta.persistence`, `javax.persistence`) → the options the JPA
 * decorators record, so the Java form and the decorated form become declarations through one
 * function (`jpaClass`, then `translateJpa`, where JPA's meaning lives).
 */
import type { ColumnDecl } from "../declarations.ts";
import { defined } from "../xml-tree.ts";
import { type Annotation, bool, find, isAnnotation, list, num, str, type Value } from "./annotations.ts";

const text = (v: Value | undefined): string | undefined => str(v) || undefined;
const classOf = (v: Value | undefined): string | undefined => (typeof v === "string" && v !== "void" ? v : undefined);

const CLASS_KINDS = { Entity: "entity", MappedSuperclass: "mapped-superclass", Embeddable: "embeddable" } as const;

export function jpaClassProps(annotations: readonly Annotation[]): { props: Record<string, unknown>; graphs: unknown[] } {
  const props: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(CLASS_KINDS)) {
    const a = find(annotations, name);
    if (!a) continue;
    props.kind = kind;
    if (kind === "entity") props.entityName = text(a.values.get("name"));
  }
  // DataNucleus's datastore identity for an entity without an id: `generationType` as @GeneratedValue's strategy.
  const datastoreId = find(annotations, "DatastoreId");
  if (datastoreId)
    props.datastoreId = defined({ strategy: text(datastoreId.values.get("generationType")) ?? "TABLE", column: text(datastoreId.values.get("column")) });
  const table = find(annotations, "Table");
  if (table) props.table = text(table.values.get("name"));
  const idClass = find(annotations, "IdClass");
  if (idClass) props.idClass = classOf(idClass.values.get("value"));
  const inheritance = find(annotations, "Inheritance");
  if (inheritance) props.inheritance = text(inheritance.values.get("strategy")) ?? "SINGLE_TABLE";
  const dc = find(annotations, "DiscriminatorColumn");
  if (dc) props.discriminatorColumn = defined({ name: text(dc.values.get("name")), type: text(dc.values.get("discriminatorType")) });
  const dv = find(annotations, "DiscriminatorValue");
  if (dv) props.discriminatorValue = text(dv.values.get("value"));
  const graphs = [
    ...annotations.filter((a) => a.name === "NamedEntityGraph"),
    ...annotations.filter((a) => a.name === "NamedEntityGraphs").flatMap((a) => list(a.values.get("value")).filter(isAnnotation)),
  ];
  const nodes = (v: Value | undefined) =>
    list(v)
      .filter(isAnnotation)
      .map((n) => defined({ name: text(n.values.get("value")) ?? "", subgraph: text(n.values.get("subgraph")) }));
  return {
    props: defined(props),
    graphs: graphs.map((g) =>
      defined({
        name: text(g.values.get("name")),
        attributeNodes: nodes(g.values.get("attributeNodes")),
        subgraphs: list(g.values.get("subgraphs"))
          .filter(isAnnotation)
          .map((s) => ({ name: text(s.values.get("name")) ?? "", attributeNodes: nodes(s.values.get("attributeNodes")) })),
      }),
    ),
  };
}

const KINDS: Record<string, string> = {
  Id: "id",
  EmbeddedId: "embedded-id",
  Basic: "basic",
  Version: "version",
  Transient: "transient",
  ManyToOne: "many-to-one",
  OneToOne: "one-to-one",
  OneToMany: "one-to-many",
  ManyToMany: "many-to-many",
  ElementCollection: "element-collection",
  Embedded: "embedded",
};

function column(a: Annotation | undefined): ColumnDecl | undefined {
  if (!a) return undefined;
  const v = a.values;
  return defined({
    name: text(v.get("name")),
    allowsNull: bool(v.get("nullable")),
    length: num(v.get("length")),
    scale: num(v.get("scale")) || undefined,
    sqlType: text(v.get("columnDefinition")),
  });
}

const dependent = (v: Map<string, Value>): boolean | undefined =>
  bool(v.get("orphanRemoval")) || list(v.get("cascade")).some((c) => c === "ALL" || c === "REMOVE") || undefined;

export interface DeclaredJpaType {
  /** The field's type (its generic base for collections and maps). */
  type?: string;
  /** The field's type with its generic arguments (`java.util.List<java.lang.String>`). */
  full?: string;
  /** The first generic argument (a collection's element, a map's key). */
  arg0?: string;
  /** A map's value. */
  arg1?: string;
  isCollection: boolean;
  isMap: boolean;
  /** The field's type is an embeddable of the model. */
  isEmbeddable: boolean;
}

/** A member's annotations and declared type → the JPA decorators' member options. */
export function jpaMemberProps(annotations: readonly Annotation[], declared: DeclaredJpaType): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const a of annotations) if (KINDS[a.name]) props.kind = KINDS[a.name];
  // A field of an embeddable type is embedded without saying so, as in JPA.
  const kind = (props.kind as string | undefined) ?? (declared.isEmbeddable ? "embedded" : "basic");
  props.kind = kind;
  const rel = annotations.find((a) => KINDS[a.name] === kind);
  const v = rel?.values ?? new Map<string, Value>();
  Object.assign(props, defined({ fetch: text(v.get("fetch")), optional: bool(v.get("optional")), mappedBy: text(v.get("mappedBy")) }));
  switch (kind) {
    case "many-to-one":
    case "one-to-one":
      props.target = classOf(v.get("targetEntity")) ?? declared.type;
      props.dependent = dependent(v);
      props.orphanRemoval = bool(v.get("orphanRemoval"));
      break;
    case "one-to-many":
    case "many-to-many":
      props.type = declared.type;
      props.target = classOf(v.get("targetEntity")) ?? declared.arg0;
      props.dependent = dependent(v);
      props.orphanRemoval = bool(v.get("orphanRemoval"));
      break;
    case "element-collection":
      props.type = declared.type;
      if (declared.isMap) {
        props.mapKeyClass = declared.arg0;
        props.target = classOf(v.get("targetClass")) ?? declared.arg1;
      } else props.target = classOf(v.get("targetClass")) ?? declared.arg0;
      break;
    case "transient":
      break;
    default:
      props.type = declared.full;
  }
  const generated = find(annotations, "GeneratedValue");
  if (generated) props.generated = text(generated.values.get("strategy")) ?? "AUTO";
  const col = column(find(annotations, "Column"));
  if (col && Object.keys(col).length) props.column = col;
  const jc = find(annotations, "JoinColumn") ?? list(find(annotations, "JoinColumns")?.values.get("value")).find(isAnnotation);
  if (jc) {
    props.joinColumn = text(jc.values.get("name"));
    props.joinColumnNullable = bool(jc.values.get("nullable"));
  }
  const jt = find(annotations, "JoinTable") ?? find(annotations, "CollectionTable");
  if (jt) {
    const first = (k: string) => text(list(jt.values.get(k)).find(isAnnotation)?.values.get("name"));
    props.joinTable = defined({
      name: text(jt.values.get("name")),
      joinColumn: first("joinColumns"),
      inverseJoinColumn: jt.name === "JoinTable" ? first("inverseJoinColumns") : undefined,
    });
  }
  const oc = find(annotations, "OrderColumn");
  if (oc) props.orderColumn = text(oc.values.get("name")) ?? true;
  const en = find(annotations, "Enumerated");
  if (en) props.enumerated = text(en.values.get("value")) ?? "ORDINAL";
  const mkc = find(annotations, "MapKeyClass");
  if (mkc) props.mapKeyClass = classOf(mkc.values.get("value"));
  const mkcol = find(annotations, "MapKeyColumn");
  if (mkcol) props.mapKeyColumn = text(mkcol.values.get("name"));
  const overrides = [
    ...annotations.filter((a) => a.name === "AttributeOverride"),
    ...annotations.filter((a) => a.name === "AttributeOverrides").flatMap((a) => list(a.values.get("value")).filter(isAnnotation)),
  ];
  if (overrides.length) {
    props.overrides = Object.fromEntries(
      overrides.map((o) => [
        text(o.values.get("name")) ?? "",
        text((list(o.values.get("column")).find(isAnnotation) as Annotation | undefined)?.values.get("name")) ?? "",
      ]),
    );
  }
  return defined(props);
}
