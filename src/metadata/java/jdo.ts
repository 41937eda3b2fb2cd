/**
 * JDO's annotations (`javax.jdo.annotations`) → the options the JDO decorators record, so the
 * Java form and the decorated form become declarations through one function (`jdoClass`).
 * JDO writes booleans as strings (`primaryKey = "true"`) and strategies as enum constants
 * (`IdGeneratorStrategy.INCREMENT`); both read as the XML's words.
 */
import type { ColumnDecl, FetchGroupDecl } from "../declarations.ts";
import { defined } from "../xml-tree.ts";
import { DISCRIMINATOR_STRATEGIES, IDENTITY_TYPES, INHERITANCE_STRATEGIES, NULL_VALUES, PERSISTENCE_MODIFIERS } from "../jdo-xml.ts";
import { type Annotation, bool, find, isAnnotation, list, num, type Report, str, type Value } from "./annotations.ts";

/** An element whose words JDO fixes: another word is a problem at the annotation, as in the XML. */
function oneOf(a: Annotation, key: string, allowed: readonly string[], report: Report): string | undefined {
  const word = jdoName(a.values.get(key));
  if (word === undefined || allowed.includes(word)) return word;
  report(a.at, `@${a.name} ${key} "${text(a.values.get(key))}" is not one of ${allowed.map((w) => w.toUpperCase().replace(/-/g, "_")).join(", ")}`);
  return undefined;
}

/** JDO's enum constants whose XML word is not their name in lower case with dashes. */
const XML_WORDS: Record<string, string> = { UUIDSTRING: "uuid-string", UUIDHEX: "uuid-hex" };

/** `NEW_TABLE` → `new-table`, as JDO XML writes it; `UNSPECIFIED` (the annotations' default) says nothing. */
const jdoName = (v: Value | undefined): string | undefined => {
  const t = text(v);
  if (t === undefined || t === "UNSPECIFIED") return undefined;
  return XML_WORDS[t] ?? t.toLowerCase().replace(/_/g, "-");
};
/** JDO's annotation elements default to "": nothing said. */
const text = (v: Value | undefined): string | undefined => str(v) || undefined;

export function jdoClassProps(
  annotations: readonly Annotation[],
  report: Report,
): { props: Record<string, unknown>; fetchGroups: Omit<FetchGroupDecl, "source">[]; versionFieldName?: string } {
  const props: Record<string, unknown> = {};
  const pc = find(annotations, "PersistenceCapable");
  if (pc) {
    const v = pc.values;
    Object.assign(props, {
      identityType: oneOf(pc, "identityType", IDENTITY_TYPES, report),
      objectIdClass: objectIdClass(v.get("objectIdClass")),
      table: text(v.get("table")),
      embeddedOnly: bool(v.get("embeddedOnly")),
      requiresExtent: bool(v.get("requiresExtent")),
    });
  }
  if (find(annotations, "EmbeddedOnly")) props.embeddedOnly = true;
  const ds = find(annotations, "DatastoreIdentity");
  if (ds)
    Object.assign(props, {
      identityType: "datastore",
      datastoreIdentity: defined({
        strategy: jdoName(ds.values.get("strategy")) ?? jdoName(ds.values.get("customStrategy")),
        column: text(ds.values.get("column")),
      }),
    });
  const inheritance = find(annotations, "Inheritance");
  if (inheritance) props.inheritanceStrategy = oneOf(inheritance, "strategy", INHERITANCE_STRATEGIES, report);
  const discriminator = find(annotations, "Discriminator");
  if (discriminator) {
    const v = discriminator.values;
    props.discriminator = defined({
      strategy: oneOf(discriminator, "strategy", DISCRIMINATOR_STRATEGIES, report),
      column: text(v.get("column")),
      value: text(v.get("value")),
    });
  }
  let versionFieldName: string | undefined;
  const version = find(annotations, "Version");
  if (version) {
    const v = version.values;
    props.version = defined({ strategy: jdoName(v.get("strategy")) ?? "version-number", column: text(v.get("column")) });
    // DataNucleus's extension naming the field that reads the version.
    versionFieldName = extensions(v.get("extensions")).get("field-name");
  }
  const groups = [
    ...annotations.filter((a) => a.name === "FetchGroup"),
    ...annotations.filter((a) => a.name === "FetchGroups").flatMap((a) => list(a.values.get("value")).filter(isAnnotation)),
  ];
  const fetchGroups = groups.map((g) =>
    defined({
      name: text(g.values.get("name")) ?? "",
      fields: list(g.values.get("members"))
        .filter(isAnnotation)
        .map((m) => text(m.values.get("name")) ?? ""),
      groups: list(g.values.get("fetchGroups")).map((x) => String(x)),
    }),
  );
  return { props: defined(props), fetchGroups, versionFieldName };
}

/** `objectIdClass = Key.class`: the class's model name, a nested one with `$`. */
const objectIdClass = (v: Value | undefined): string | undefined => (typeof v === "string" && v !== "void" && v !== "java.lang.Object" ? v : undefined);

function extensions(v: Value | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of list(v).filter(isAnnotation)) {
    const key = text(e.values.get("key"));
    if (key) out.set(key, text(e.values.get("value")) ?? "");
  }
  return out;
}

function column(a: Annotation | undefined): ColumnDecl | undefined {
  if (!a) return undefined;
  const v = a.values;
  const c = defined<ColumnDecl>({
    name: text(v.get("name")),
    jdbcType: text(v.get("jdbcType"))?.toUpperCase(),
    sqlType: text(v.get("sqlType")),
    length: num(v.get("length")),
    scale: num(v.get("scale")),
    allowsNull: bool(text(v.get("allowsNull"))),
    defaultValue: text(v.get("defaultValue")),
  });
  return Object.keys(c).length ? c : undefined;
}

/** The first column of `column = "X"` or `columns = {@Column(...)}`. */
function columnOf(v: Map<string, Value>): ColumnDecl | undefined {
  const name = text(v.get("column"));
  const first = list(v.get("columns")).find(isAnnotation);
  const c = column(first);
  return name ? { ...c, name } : c;
}

/** `types = {Book.class}`: the persistent type of a field typed by an interface. */
const firstType = (v: Value | undefined): string | undefined => list(v).find((t): t is string => typeof t === "string");

/**
 * A member's annotations → the JDO decorators' member options. `declared` is what the Java
 * declaration says (type names); `types` on an annotation states the persistent type instead.
 */
export function jdoMemberProps(
  annotations: readonly Annotation[],
  report: Report,
  declared: { typeName?: string; elementType?: string; keyType?: string; valueType?: string; isCollection: boolean; isMap: boolean },
): Record<string, unknown> {
  const props: Record<string, unknown> = { ...declared };
  delete props.isCollection;
  delete props.isMap;
  const persistent = find(annotations, "Persistent");
  const pk = find(annotations, "PrimaryKey");
  for (const a of [persistent, pk]) {
    if (!a) continue;
    const v = a.values;
    const types = firstType(v.get("types"));
    if (types) {
      if (declared.isCollection) props.elementType = types;
      else if (declared.isMap) props.valueType = types;
      else props.typeName = types;
    }
    Object.assign(
      props,
      defined({
        persistenceModifier: oneOf(a, "persistenceModifier", PERSISTENCE_MODIFIERS, report),
        primaryKey: a === pk ? true : bool(text(v.get("primaryKey"))),
        valueStrategy: jdoName(v.get("valueStrategy")) ?? jdoName(v.get("customValueStrategy")),
        nullValue: oneOf(a, "nullValue", NULL_VALUES, report),
        defaultFetchGroup: bool(text(v.get("defaultFetchGroup"))),
        mappedBy: text(v.get("mappedBy")),
        embedded: bool(text(v.get("embedded"))),
        column: columnOf(v),
        joinTable: text(v.get("table")),
        dependent: bool(text(v.get("dependent"))) || bool(text(v.get("dependentElement"))) || undefined,
      }),
    );
  }
  // @Persistent with nothing else on a transient field makes it persistent, as in JDO.
  if (persistent && !props.persistenceModifier) props.persistenceModifier = "persistent";
  if (find(annotations, "NotPersistent")) props.persistenceModifier = "none";
  if (find(annotations, "Transactional")) props.persistenceModifier = "transactional";
  const col = column(find(annotations, "Column")) ?? column(list(find(annotations, "Columns")?.values.get("value")).find(isAnnotation));
  if (col) props.column = { ...(props.column as object), ...col };
  const embedded = find(annotations, "Embedded");
  if (embedded) {
    props.embedded = true;
    const members = list(embedded.values.get("members")).filter(isAnnotation);
    if (members.length)
      props.embeddedColumns = Object.fromEntries(
        members.map((m) => [
          text(m.values.get("name")) ?? "",
          text(m.values.get("column")) ?? column(list(m.values.get("columns")).find(isAnnotation))?.name ?? "",
        ]),
      );
    props.nullIndicatorColumn = text(embedded.values.get("nullIndicatorColumn"));
  }
  const join = find(annotations, "Join");
  if (join) {
    props.join = defined({ column: text(join.values.get("column")) ?? columnOf(join.values)?.name });
    if (text(join.values.get("table"))) props.joinTable = text(join.values.get("table"));
  }
  const element = find(annotations, "Element");
  if (element) {
    const v = element.values;
    Object.assign(
      props,
      defined({
        elementColumn: text(v.get("column")) ?? columnOf(v)?.name,
        elementType: firstType(v.get("types")) ?? props.elementType,
        dependent: bool(text(v.get("dependent"))) || props.dependent,
      }),
    );
    if (bool(text(v.get("embedded")))) props.embedded = true;
    if (text(v.get("mappedBy"))) props.mappedBy = text(v.get("mappedBy"));
  }
  const key = find(annotations, "Key");
  if (key)
    Object.assign(
      props,
      defined({ keyColumn: text(key.values.get("column")) ?? columnOf(key.values)?.name, keyType: firstType(key.values.get("types")) ?? props.keyType }),
    );
  const value = find(annotations, "Value");
  if (value)
    Object.assign(
      props,
      defined({
        valueColumn: text(value.values.get("column")) ?? columnOf(value.values)?.name,
        valueType: firstType(value.values.get("types")) ?? props.valueType,
      }),
    );
  const order = find(annotations, "Order");
  if (order) props.orderColumn = text(order.values.get("column")) ?? columnOf(order.values)?.name ?? "IDX";
  return defined(props);
}
