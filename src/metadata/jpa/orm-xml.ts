/**
 * JPA orm.xml reader: `<entity-mappings>` into the JPA vocabulary's shapes (`JpaClass`), which
 * `translateJpa` turns into declarations. Like the JDO reader, it only says what the document
 * says and reports what is wrong on its own (a nameless attribute, a value outside its
 * enumeration) with the element's line.
 *
 * What Java would say and XML cannot follows the contract's conventions: EclipseLink's
 * `attribute-type` gives types, its `parent-class` names an entity's superclass, and the
 * `extent` extensions give enum constants and abstractness. Elements Extent does not use
 * (named queries, generators' settings, listeners, secondary tables, ...) are ignored, as JPA
 * providers ignore what they do not know of other vendors.
 */
import type { ColumnDecl } from "../declarations.ts";
import { qualifyClass, qualifyType } from "../java-types.ts";
import type { ModelProblem } from "../problems.ts";
import { child, childrenNamed, defined, parseXmlTree, XmlReader, type XmlElement } from "../xml-tree.ts";
import {
  JPA_DISCRIMINATOR_TYPES,
  JPA_GENERATION,
  JPA_INHERITANCE,
  type JpaAttribute,
  type JpaAttributeKind,
  type JpaClass,
  type GraphNodeSpec,
  type JpaEntityGraph,
  type JpaJoinTable,
  graphPaths,
} from "./model.ts";

const ATTRIBUTE_KINDS: readonly JpaAttributeKind[] = [
  "id",
  "embedded-id",
  "basic",
  "version",
  "many-to-one",
  "one-to-many",
  "one-to-one",
  "many-to-many",
  "element-collection",
  "embedded",
  "transient",
];
const CLASS_KINDS = ["entity", "mapped-superclass", "embeddable"] as const;
const FETCH = ["EAGER", "LAZY"] as const;
const ENUMERATED = ["ORDINAL", "STRING"] as const;

class OrmReader extends XmlReader {
  pkg = "";

  read(root: XmlElement): JpaClass[] {
    if (root.name !== "entity-mappings") {
      this.problem(root, `expected an <entity-mappings> root element, found <${root.name}>`);
      return [];
    }
    this.pkg = child(root, "package")?.text ?? "";
    const classes: JpaClass[] = [];
    const seen = new Set<string>();
    for (const el of root.children) {
      if (!(CLASS_KINDS as readonly string[]).includes(el.name)) continue;
      const c = this.readClass(el, el.name as JpaClass["kind"]);
      if (!c) continue;
      if (seen.has(c.className)) this.problem(el, "class declared twice in this document", c.className);
      seen.add(c.className);
      classes.push(c);
    }
    return classes;
  }

  cls(name: string): string {
    return qualifyClass(name, this.pkg);
  }

  type(name: string | undefined): string | undefined {
    return name === undefined ? undefined : qualifyType(name, this.pkg);
  }

  readClass(el: XmlElement, kind: JpaClass["kind"]): JpaClass | undefined {
    const raw = el.attrs["class"];
    if (!raw) {
      this.problem(el, `<${el.name}> without a class attribute`);
      return undefined;
    }
    const className = this.cls(raw);
    const discriminator = child(el, "discriminator-column");
    const c: JpaClass = defined({
      kind,
      className,
      source: { file: this.file, line: el.line },
      entityName: el.attrs["name"],
      parentClass: el.attrs["parent-class"] && this.cls(el.attrs["parent-class"]),
      table: child(el, "table")?.attrs["name"],
      idClass: child(el, "id-class")?.attrs["class"] && this.cls(child(el, "id-class")!.attrs["class"]!),
      inheritance: child(el, "inheritance") && this.oneOf(child(el, "inheritance")!, "strategy", JPA_INHERITANCE, className),
      discriminatorColumn:
        discriminator &&
        defined({
          name: discriminator.attrs["name"],
          type: this.oneOf(discriminator, "discriminator-type", JPA_DISCRIMINATOR_TYPES, className),
        }),
      discriminatorValue: child(el, "discriminator-value")?.text,
      datastoreId:
        child(el, "datastore-id") && defined({ strategy: child(el, "datastore-id")!.attrs["strategy"], column: child(el, "datastore-id")!.attrs["column"] }),
      abstract: this.extensionFlag(el, "abstract", className),
      attributes: [],
      graphs: childrenNamed(el, "named-entity-graph").map((g) => this.readGraph(g, el.attrs["name"] ?? raw.slice(raw.lastIndexOf(".") + 1), className)),
    });
    const attributes = child(el, "attributes");
    const seen = new Set<string>();
    for (const a of attributes?.children ?? []) {
      if (!(ATTRIBUTE_KINDS as readonly string[]).includes(a.name)) continue;
      const attr = this.readAttribute(a, a.name as JpaAttributeKind, className);
      if (!attr) continue;
      if (seen.has(attr.name)) this.problem(a, "attribute declared twice in this class", className, attr.name);
      seen.add(attr.name);
      c.attributes.push(attr);
    }
    return c;
  }

  readAttribute(el: XmlElement, kind: JpaAttributeKind, cls: string): JpaAttribute | undefined {
    const name = el.attrs["name"];
    if (!name) {
      this.problem(el, `<${el.name}> without a name attribute`, cls);
      return undefined;
    }
    const a = el.attrs;
    const column = child(el, "column");
    const generated = child(el, "generated-value");
    const cascade = child(el, "cascade");
    const enumerated = child(el, "enumerated");
    const overrides = childrenNamed(el, "attribute-override");
    return defined({
      kind,
      name,
      source: { file: this.file, line: el.line },
      type: this.type(a["attribute-type"]),
      target: this.type(a["target-entity"] ?? a["target-class"]),
      mapKeyClass: this.type(child(el, "map-key-class")?.attrs["class"]),
      mappedBy: a["mapped-by"],
      fetch: this.oneOf(el, "fetch", FETCH, cls, name),
      optional: this.bool(el, "optional", cls, name),
      generated: generated ? (this.oneOf(generated, "strategy", JPA_GENERATION, cls, name) ?? "AUTO") : undefined,
      column: column && this.readColumn(column, cls, name),
      joinColumn: child(el, "join-column")?.attrs["name"],
      joinColumnNullable: child(el, "join-column") && this.bool(child(el, "join-column")!, "nullable", cls, name),
      joinTable: this.readJoinTable(child(el, "join-table") ?? child(el, "collection-table")),
      orderColumn: child(el, "order-column") && (child(el, "order-column")!.attrs["name"] ?? `${name}_ORDER`),
      mapKeyColumn: child(el, "map-key-column")?.attrs["name"],
      enumerated: enumerated && this.enumerated(enumerated, cls, name),
      enumConstants: this.enumConstants(el, cls, name),
      overrides: overrides.length
        ? Object.fromEntries(
            overrides.flatMap((o) => (o.attrs["name"] && child(o, "column")?.attrs["name"] ? [[o.attrs["name"], child(o, "column")!.attrs["name"]!]] : [])),
          )
        : undefined,
      dependent:
        this.bool(el, "orphan-removal", cls, name) || (cascade && (child(cascade, "cascade-remove") || child(cascade, "cascade-all")) ? true : undefined),
      orphanRemoval: this.bool(el, "orphan-removal", cls, name),
    });
  }

  enumerated(el: XmlElement, cls: string, field: string): JpaAttribute["enumerated"] {
    if ((ENUMERATED as readonly string[]).includes(el.text)) return el.text as JpaAttribute["enumerated"];
    this.problem(el, `<enumerated>${el.text}</enumerated> is not one of ${ENUMERATED.join(", ")}`, cls, field);
    return undefined;
  }

  readColumn(el: XmlElement, cls: string, field: string): ColumnDecl {
    const nullable = this.bool(el, "nullable", cls, field);
    return defined({
      name: el.attrs["name"],
      sqlType: el.attrs["column-definition"],
      length: this.int(el, "length", cls, field),
      scale: this.int(el, "scale", cls, field),
      allowsNull: nullable,
    });
  }

  readJoinTable(el: XmlElement | undefined): JpaJoinTable | undefined {
    if (!el) return undefined;
    return defined({
      name: el.attrs["name"],
      joinColumn: child(el, "join-column")?.attrs["name"],
      inverseJoinColumn: child(el, "inverse-join-column")?.attrs["name"],
    });
  }

  /** A `<named-entity-graph>`: its nodes, with each sub-graph's nodes as dotted paths. */
  readGraph(el: XmlElement, entityName: string, cls: string): JpaEntityGraph {
    const nodesOf = (parent: XmlElement): GraphNodeSpec[] =>
      childrenNamed(parent, "named-attribute-node").flatMap((node) => {
        if (node.attrs["name"]) return [{ name: node.attrs["name"], subgraph: node.attrs["subgraph"] }];
        this.problem(node, "<named-attribute-node> without a name attribute", cls);
        return [];
      });
    const subgraphs = new Map(childrenNamed(el, "subgraph").map((s) => [s.attrs["name"] ?? "", nodesOf(s)]));
    return { name: el.attrs["name"] ?? entityName, source: { file: this.file, line: el.line }, nodes: graphPaths(nodesOf(el), subgraphs) };
  }

  extension(el: XmlElement, key: string): XmlElement | undefined {
    return childrenNamed(el, "extension").find((x) => (x.attrs["vendor-name"] ?? "").toLowerCase() === "extent" && x.attrs["key"] === key);
  }

  extensionFlag(el: XmlElement, key: string, cls: string): boolean | undefined {
    const ext = this.extension(el, key);
    return ext && this.bool(ext, "value", cls);
  }

  enumConstants(el: XmlElement, cls: string, field: string): string[] | undefined {
    const ext = this.extension(el, "enum-constants");
    if (!ext) return undefined;
    const constants = (ext.attrs["value"] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (!constants.length) this.problem(ext, 'the "enum-constants" extension lists no constants', cls, field);
    return constants.length ? constants : undefined;
  }
}

/** Reads an orm.xml document into JPA classes. `file` names the document in sources and problems. */
export function readOrmXml(text: string, file: string): { classes: JpaClass[]; problems: ModelProblem[] } {
  const { root, problems } = parseXmlTree(text, file);
  if (!root) return { classes: [], problems };
  const reader = new OrmReader(file);
  const classes = reader.read(root);
  return { classes, problems: reader.problems };
}

/** Whether an XML text is a JPA mapping document rather than JDO metadata. */
export function isOrmXml(text: string): boolean {
  return /<(\w+:)?entity-mappings[\s>]/.test(text);
}
