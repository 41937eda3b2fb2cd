/**
 * JDO XML reader: `package.jdo` (metadata) and `package-*.orm` (mapping) documents into class
 * declarations. Both use the same element vocabulary, so one reader serves both; `buildModel`
 * lets the .orm override the .jdo field by field.
 *
 * The reader only says what the document says: defaults, name resolution across documents and
 * model-level validation belong to `buildModel`. What it can tell is wrong on its own (malformed
 * XML, an attribute value outside its enumeration, a nameless class or field) becomes a
 * ModelProblem with the element's line, so a user fixes every problem in one pass.
 *
 * Elements and attributes Extent does not use (`query`, `sequence`, `property`, `unique`,
 * `foreign-key`, `index`, `detachable`, vendor extensions, ...) are ignored, as JDO implementations do.
 */
import type {
  ClassDecl,
  CollectionKind,
  ColumnDecl,
  DiscriminatorStrategy,
  FetchGroupDecl,
  FieldDecl,
  InheritanceStrategy,
  MetadataDocument,
} from "./declarations.ts";
import type { ModelProblem } from "./problems.ts";
import { qualifyClass, qualifyType } from "./java-types.ts";
import { child, childrenNamed, defined, parseXmlTree, XmlReader, type XmlElement } from "./xml-tree.ts";

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

const SETS = /^java\.util\.(Set|HashSet|LinkedHashSet|TreeSet|SortedSet|NavigableSet)(<.*>)?$/;
const LISTS = /^java\.util\.(List|ArrayList|LinkedList|Vector|Stack)(<.*>)?$/;

/** A `<collection>` is a plain collection unless the field-type says which kind. */
function collectionKindOf(typeName: string | undefined): CollectionKind {
  if (typeName && SETS.test(typeName)) return "set";
  if (typeName && LISTS.test(typeName)) return "list";
  return "collection";
}

// ---------------------------------------------------------------------------------------------
// The reader
// ---------------------------------------------------------------------------------------------

export const IDENTITY_TYPES = ["application", "datastore", "nondurable"] as const;
export const INHERITANCE_STRATEGIES = ["new-table", "superclass-table", "subclass-table", "complete-table"] as const;
export const DISCRIMINATOR_STRATEGIES = ["class-name", "value-map", "none"] as const;
export const PERSISTENCE_MODIFIERS = ["persistent", "transactional", "none"] as const;
export const NULL_VALUES = ["none", "exception", "default"] as const;

/** `column="X"` on the element, or a nested `<column name="X"/>` (the long form). */
function columnName(el: XmlElement): string | undefined {
  return el.attrs["column"] ?? child(el, "column")?.attrs["name"];
}

function isVendor(ext: XmlElement, ...vendors: string[]): boolean {
  return vendors.includes((ext.attrs["vendor-name"] ?? "").toLowerCase());
}

class Reader extends XmlReader {
  pkg = "";

  read(root: XmlElement): ClassDecl[] {
    if (root.name !== "jdo" && root.name !== "orm") {
      this.problem(root, `expected a <jdo> or <orm> root element, found <${root.name}>`);
      return [];
    }
    const classes: ClassDecl[] = [];
    const seen = new Set<string>();
    for (const pkg of childrenNamed(root, "package")) {
      const name = pkg.attrs["name"];
      if (name === undefined) this.problem(pkg, "<package> without a name attribute");
      this.pkg = name ?? "";
      // <interface> (persistent interfaces) is not supported and skipped without a word.
      for (const el of childrenNamed(pkg, "class")) {
        const decl = this.readClass(el);
        if (!decl) continue;
        if (seen.has(decl.name)) this.problem(el, "class declared twice in this document", decl.name);
        seen.add(decl.name);
        classes.push(decl);
      }
    }
    return classes;
  }

  readClass(el: XmlElement): ClassDecl | undefined {
    const raw = el.attrs["name"];
    if (!raw) {
      this.problem(el, "<class> without a name attribute");
      return undefined;
    }
    const name = qualifyClass(raw, this.pkg);
    const decl: ClassDecl = {
      name,
      source: { file: this.file, line: el.line },
      identityType: this.oneOf(el, "identity-type", IDENTITY_TYPES, name),
      objectIdClass: el.attrs["objectid-class"] && qualifyClass(el.attrs["objectid-class"], this.pkg),
      superclass: el.attrs["persistence-capable-superclass"] && qualifyClass(el.attrs["persistence-capable-superclass"], this.pkg),
      embeddedOnly: this.bool(el, "embedded-only", name),
      requiresExtent: this.bool(el, "requires-extent", name),
      table: el.attrs["table"],
      fields: [],
    };
    const fetchGroups: FetchGroupDecl[] = [];
    for (const c of el.children) {
      switch (c.name) {
        case "datastore-identity":
          decl.datastoreIdentity = defined({ strategy: c.attrs["strategy"], column: columnName(c) });
          break;
        case "inheritance":
          decl.inheritance = this.readInheritance(c, name);
          break;
        case "version":
          decl.version = defined({
            strategy: c.attrs["strategy"],
            column: columnName(c),
            fieldName: childrenNamed(c, "extension").find((x) => isVendor(x, "datanucleus", "extent") && x.attrs["key"] === "field-name")?.attrs["value"],
          });
          break;
        case "fetch-group": {
          const group = this.readFetchGroup(c, name);
          if (group) fetchGroups.push(group);
          break;
        }
        case "field":
          this.readField(c, name, decl.fields);
          break;
        case "extension":
          if (isVendor(c, "extent") && c.attrs["key"] === "abstract") decl.abstract = this.bool(c, "value", name);
          break;
      }
    }
    if (fetchGroups.length) decl.fetchGroups = fetchGroups;
    this.checkDuplicateFields(decl);
    // The version's field-name extension names a field that reads the version number.
    const versionField = decl.version?.fieldName && decl.fields.find((f) => f.name === decl.version!.fieldName);
    if (versionField) versionField.isVersionField = true;
    return defined(decl);
  }

  checkDuplicateFields(decl: ClassDecl): void {
    const seen = new Set<string>();
    for (const f of decl.fields) {
      if (seen.has(f.name)) {
        this.problems.push({ file: this.file, line: f.source.line, class: decl.name, field: f.name, message: "field declared twice in this class" });
      }
      seen.add(f.name);
    }
  }

  readInheritance(el: XmlElement, cls: string): NonNullable<ClassDecl["inheritance"]> {
    const d = child(el, "discriminator");
    const join = child(el, "join");
    return defined({
      strategy: this.oneOf<InheritanceStrategy>(el, "strategy", INHERITANCE_STRATEGIES, cls),
      discriminator:
        d &&
        defined({
          strategy: this.oneOf<DiscriminatorStrategy>(d, "strategy", DISCRIMINATOR_STRATEGIES, cls),
          column: columnName(d),
          value: d.attrs["value"],
          jdbcType: child(d, "column")?.attrs["jdbc-type"],
        }),
      joinColumn: join && columnName(join),
    });
  }

  readFetchGroup(el: XmlElement, cls: string): FetchGroupDecl | undefined {
    const name = el.attrs["name"];
    if (!name) {
      this.problem(el, "<fetch-group> without a name attribute", cls);
      return undefined;
    }
    const fields: string[] = [];
    const groups: string[] = [];
    for (const c of el.children) {
      const ref = c.attrs["name"];
      if (c.name !== "field" && c.name !== "fetch-group") continue;
      if (!ref) this.problem(c, `<${c.name}> without a name attribute in fetch group "${name}"`, cls);
      else if (c.name === "field") fields.push(ref);
      else groups.push(ref);
    }
    return defined({ name, source: { file: this.file, line: el.line }, fields, groups: groups.length ? groups : undefined });
  }

  /**
   * Reads one `<field>` into `sink`. A `<field>` nested directly in another `<field>` (the JDO TCK's
   * package-standard.orm has one) is read as a further field of the same class, after its parent.
   */
  readField(el: XmlElement, cls: string, sink: FieldDecl[]): void {
    const name = el.attrs["name"];
    if (!name) this.problem(el, "<field> without a name attribute", cls);
    else sink.push(this.fieldDecl(el, name, cls));
    for (const nested of childrenNamed(el, "field")) this.readField(nested, cls, sink);
  }

  fieldDecl(el: XmlElement, name: string, cls: string): FieldDecl {
    const a = el.attrs;
    const typeName = a["field-type"] && qualifyType(a["field-type"], this.pkg);
    const f: FieldDecl = {
      name,
      source: { file: this.file, line: el.line },
      typeName,
      persistenceModifier: this.oneOf(el, "persistence-modifier", PERSISTENCE_MODIFIERS, cls, name),
      primaryKey: this.bool(el, "primary-key", cls, name),
      valueStrategy: a["value-strategy"],
      nullValue: this.oneOf(el, "null-value", NULL_VALUES, cls, name),
      defaultFetchGroup: this.bool(el, "default-fetch-group", cls, name),
      mappedBy: a["mapped-by"],
      embedded: this.bool(el, "embedded", cls, name),
      dependent: this.bool(el, "dependent", cls, name),
      joinTable: a["table"],
      column: a["column"] !== undefined ? { name: a["column"] } : undefined,
    };
    // dependent-element (on the field or its <collection>/<array>) deletes the elements with the owner.
    if (this.bool(el, "dependent-element", cls, name)) f.dependent = true;

    for (const c of el.children) {
      switch (c.name) {
        case "column":
          // Only the first <column> counts: Extent maps a field to one column.
          if (c === child(el, "column")) f.column = this.readColumn(c, a["column"], cls, name);
          break;
        case "collection":
          f.elementType = c.attrs["element-type"] && qualifyType(c.attrs["element-type"], this.pkg);
          // Without a field-type the kind is not said here: code merged under this document may say it.
          if (typeName || !f.elementType) f.collectionKind = collectionKindOf(typeName);
          if (this.bool(c, "dependent-element", cls, name)) f.dependent = true;
          break;
        case "array": {
          f.collectionKind = "array";
          const elementType = c.attrs["element-type"] ?? (typeName?.endsWith("[]") ? typeName.slice(0, -2) : undefined);
          f.elementType = elementType && qualifyType(elementType, this.pkg);
          if (this.bool(c, "dependent-element", cls, name)) f.dependent = true;
          break;
        }
        case "map":
          f.keyType = c.attrs["key-type"] && qualifyType(c.attrs["key-type"], this.pkg);
          f.valueType = c.attrs["value-type"] && qualifyType(c.attrs["value-type"], this.pkg);
          // Read for a map of persistent objects; a map holds values only (field-types.ts), so there is nothing to delete yet.
          if (this.bool(c, "dependent-key", cls, name) || this.bool(c, "dependent-value", cls, name)) f.dependent = true;
          break;
        case "join":
          f.join = defined({ column: columnName(c) });
          break;
        case "element":
          f.elementColumn = columnName(c);
          break;
        case "key":
          f.keyColumn = columnName(c);
          break;
        case "value":
          f.valueColumn = columnName(c);
          break;
        case "order":
          f.orderColumn = columnName(c);
          break;
        case "embedded": {
          f.embedded = true;
          f.nullIndicatorColumn = c.attrs["null-indicator-column"];
          const fields: FieldDecl[] = [];
          for (const ef of childrenNamed(c, "field")) this.readField(ef, cls, fields);
          if (fields.length) f.embeddedFields = fields;
          break;
        }
        case "extension":
          if (isVendor(c, "extent") && c.attrs["key"] === "enum-constants") {
            const constants = (c.attrs["value"] ?? "")
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean);
            if (constants.length) f.enumConstants = constants;
            else this.problem(c, 'the "enum-constants" extension lists no constants', cls, name);
          }
          break;
      }
    }
    return defined(f);
  }

  readColumn(el: XmlElement, attrName: string | undefined, cls: string, field: string): ColumnDecl {
    return defined({
      name: el.attrs["name"] ?? attrName,
      jdbcType: el.attrs["jdbc-type"],
      sqlType: el.attrs["sql-type"],
      length: this.int(el, "length", cls, field),
      scale: this.int(el, "scale", cls, field),
      allowsNull: this.bool(el, "allows-null", cls, field),
      defaultValue: el.attrs["default-value"],
    });
  }
}

/** Reads a `.jdo` or `.orm` document. `file` names the document in declarations and problems. */
export function readJdoXml(text: string, file: string): { document: MetadataDocument; problems: ModelProblem[] } {
  const { root, problems } = parseXmlTree(text, file);
  if (!root) return { document: { source: file, classes: [] }, problems };
  const reader = new Reader(file);
  const classes = reader.read(root);
  return { document: { source: file, classes }, problems: reader.problems };
}
