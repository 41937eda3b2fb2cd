/**
 * The model as a Mermaid `classDiagram` (the explorer page draws it in the browser): every class
 * with its own fields and their types, `<<abstract>>` and `<<embedded>>` marked, inheritance
 * (`Super <|-- Sub`), relations as associations with the cardinality at each end (`"1"`,
 * `"0..1"`, `"*"`), embedded objects as composition (`*--`). A bidirectional relation (a field and
 * its `mapped-by` inverse) is one association without arrows, labelled with both field names and
 * drawn once; a unidirectional one is an arrow to its target. A field is drawn where it is
 * declared, so a subclass shows only what it adds.
 *
 * Mermaid names a class by an identifier: each class gets its simple name (made an identifier),
 * numbered when two packages share it, and the full name as its label in that case.
 */
import type { ClassMeta, FieldMeta, Model, ValueType } from "../metadata/model.ts";

/** Java-like type names of the basic kinds, as a person reading the model knows them. */
const BASIC_NAMES: Readonly<Record<string, string>> = {
  string: "String",
  decimal: "BigDecimal",
  biginteger: "BigInteger",
  date: "Date",
  "sql-date": "sql.Date",
  timestamp: "Timestamp",
  "local-date": "LocalDate",
  "local-date-time": "LocalDateTime",
  "local-time": "LocalTime",
  instant: "Instant",
  uuid: "UUID",
  bytes: "byte[]",
};

const simple = (name: string): string => name.slice(name.lastIndexOf(".") + 1).replace(/\$/g, ".");

/** Mermaid's identifier of each class: its simple name, unless another class has it too. */
function identifiers(model: Model): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const meta of model.classes.values()) {
    const base = meta.simpleName.replace(/[^A-Za-z0-9_]/g, "_") || "Class";
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    ids.set(meta.name, id);
  }
  return ids;
}

function valueName(type: ValueType): string {
  switch (type.kind) {
    case "basic":
      return type.primitive ? type.basic : (BASIC_NAMES[type.basic] ?? type.basic);
    case "enum":
    case "ref":
    case "embedded":
    case "key":
      return simple(type.kind === "enum" ? type.name : type.class);
  }
}

/** The class a field links to (a reference or an embedded object, alone or as elements/values), if any. */
function linked(field: FieldMeta): { target: string; embedded: boolean; many: boolean } | undefined {
  const t = field.type;
  const one = t.kind === "collection" ? t.element : t.kind === "map" ? t.value : t;
  if (one.kind !== "ref" && one.kind !== "embedded") return undefined;
  return { target: one.class, embedded: one.kind === "embedded", many: t.kind === "collection" || t.kind === "map" };
}

/** A member line: `Type name`, with Mermaid's `~` for generics (`Set~String~`). */
function memberLine(field: FieldMeta): string {
  const t = field.type;
  const type =
    t.kind === "collection"
      ? `${t.collection[0]!.toUpperCase()}${t.collection.slice(1)}~${valueName(t.element)}~`
      : t.kind === "map"
        ? `Map~${valueName(t.key)},${valueName(t.value)}~`
        : valueName(t);
  return `${type} ${field.name}${field.primaryKey ? " «key»" : ""}`;
}

/** How many objects of its target a field holds: the far end of its association. */
function farEnd(field: FieldMeta): string {
  if (field.type.kind === "collection" || field.type.kind === "map") return "*";
  return field.nullable ? "0..1" : "1";
}

/** How many objects may hold the same target through a field without an inverse: the near end. */
function nearEnd(field: FieldMeta): string {
  switch (field.relation?.kind) {
    case "one-to-one":
    case "one-to-many":
      return "0..1";
    default:
      return "*";
  }
}

/** The Mermaid text of the model's class diagram. */
export function modelDiagram(model: Model): string {
  const ids = identifiers(model);
  const id = (name: string) => ids.get(name) ?? simple(name);
  const lines = ["classDiagram", "  direction LR"];
  const links: string[] = [];
  for (const meta of model.classes.values()) {
    lines.push(...classBlock(meta, id(meta.name)));
    if (meta.superclass) links.push(`  ${id(meta.superclass)} <|-- ${id(meta.name)}`);
    for (const field of ownFields(meta)) {
      const link = linked(field);
      if (!link) continue;
      const far = farEnd(field);
      if (link.embedded) {
        links.push(`  ${id(meta.name)} *-- "${far}" ${id(link.target)} : ${field.name}`);
        continue;
      }
      const inverse = field.relation?.inverse;
      const other = inverse === undefined ? undefined : model.classes.get(link.target)?.fields.get(inverse);
      if (other) {
        // Drawn once, from the side whose class and field name sort first.
        const key = (c: string, f: string) => `${c}#${f}`;
        if (key(other.declaringClass, other.name) < key(meta.name, field.name)) continue;
        links.push(`  ${id(meta.name)} "${farEnd(other)}" -- "${far}" ${id(link.target)} : ${field.name} / ${other.name}`);
      } else {
        const label = field.type.kind === "map" ? `${field.name} by ${valueName(field.type.key)}` : field.name;
        links.push(`  ${id(meta.name)} "${nearEnd(field)}" --> "${far}" ${id(link.target)} : ${label}`);
      }
    }
  }
  return [...lines, ...links].join("\n") + "\n";
}

/** The fields a class declares itself (inherited ones are drawn on their class). */
function ownFields(meta: ClassMeta): FieldMeta[] {
  return [...meta.fields.values()].filter((f) => f.declaringClass === meta.name);
}

function classBlock(meta: ClassMeta, id: string): string[] {
  const label = id === meta.simpleName ? "" : `["${meta.name.replace(/["\\]/g, "")}"]`;
  const body: string[] = [];
  if (meta.abstract) body.push("    <<abstract>>");
  if (meta.embeddedOnly) body.push("    <<embedded>>");
  if (meta.identity.kind === "datastore" && !meta.superclass && !meta.embeddedOnly) body.push("    long _id «key»");
  // A version field reads `_version`; an unnamed version is `_version` in the JSON.
  if (meta.version && !meta.superclass && meta.version.fieldName === undefined) body.push("    long _version");
  for (const field of ownFields(meta)) if (!linked(field)) body.push(`    ${memberLine(field)}`);
  return body.length ? [`  class ${id}${label} {`, ...body, "  }"] : [`  class ${id}${label}`];
}
