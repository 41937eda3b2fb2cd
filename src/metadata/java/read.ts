/**
 * Java sources → declarations: the classes a persistence context makes persistent (annotated
 * `@PersistenceCapable`, `@EmbeddedOnly`, `@Entity`, `@MappedSuperclass`, `@Embeddable`, or named
 * by its XML metadata or persistence.xml `<class>` entries) with their fields' declared types,
 * superclasses, `abstract`, the constants of the enums they use, and what their annotations say.
 * Annotated classes go through the same functions as decorated TypeScript classes, so every form
 * means the same; XML, read after, overrides them field by field.
 */
import type { Parser } from "web-tree-sitter";
import type { ClassDecl, FieldDecl, MetadataDocument, SourceRef } from "../declarations.ts";
import { jdoClass, jpaClass } from "../decorators/read.ts";
import type { ClassRecord, MemberRecord } from "../decorators/registry.ts";
import { basicType, collectionKind, isMapType } from "../java-types.ts";
import { readJdoXml } from "../jdo-xml.ts";
import type { JpaClass } from "../jpa/model.ts";
import { isOrmXml, readOrmXml } from "../jpa/orm-xml.ts";
import { translateJpa } from "../jpa/translate.ts";
import type { ModelProblem } from "../problems.ts";
import { defined } from "../xml-tree.ts";
import { type Annotation, AnnotationReader, find } from "./annotations.ts";
import { jdoClassProps, jdoMemberProps } from "./jdo.ts";
import { jpaClassProps, jpaMemberProps } from "./jpa.ts";
import { JavaIndex, OBJECT, type TypeEntry } from "./names.ts";
import { parseJava } from "./parse.ts";
import type { CompilationUnit, JavaMember, JavaPos, JavaType } from "./syntax.ts";

export const JAVA_SOURCE = "Java sources";

/** An XML metadata document as text (the persistence context's `metadata`). */
export interface MetadataText {
  source: string;
  text: string;
}

export interface JavaSourceText {
  file: string;
  text: string;
}

export interface JavaReadOptions {
  /** The context's XML metadata: the classes it names are persistent, and it may state types. */
  metadata?: readonly MetadataText[];
  /** persistence.xml `<class>` entries. */
  listedClasses?: readonly string[];
  /** persistence.xml `<exclude-unlisted-classes>`: only listed (and XML-named) classes. */
  excludeUnlisted?: boolean;
  /** Where the `<class>` entries are written, for a problem with one. */
  listedIn?: SourceRef;
}

export interface JavaModel {
  documents: MetadataDocument[];
  jpaClasses: JpaClass[];
  problems: ModelProblem[];
  /** How many compilation units were read. */
  units: number;
}

const JDO_CLASS = ["PersistenceCapable", "EmbeddedOnly"];
const JPA_CLASS = ["Entity", "MappedSuperclass", "Embeddable"];

/** What the XML says about a class's fields, to know which fields it makes persistent and types. */
type XmlFields = Map<string, Map<string, { typed: boolean }>>;

export function readJavaSources(parser: Parser, sources: readonly JavaSourceText[], options: JavaReadOptions = {}): JavaModel {
  const problems: ModelProblem[] = [];
  const units: CompilationUnit[] = [];
  for (const s of sources) {
    const parsed = parseJava(parser, s.text, s.file);
    problems.push(...parsed.problems);
    units.push(parsed.unit);
  }
  return readUnits(units, options, problems);
}

export function readUnits(units: readonly CompilationUnit[], options: JavaReadOptions, problems: ModelProblem[] = []): JavaModel {
  const index = new JavaIndex(units);
  const at = (p: JavaPos, message: string, cls?: string, field?: string) =>
    problems.push(defined({ file: p.file, line: p.line, column: p.column, class: cls, field, message }));
  let current: { cls?: string; field?: string } = {};
  const annotations = new AnnotationReader(index, (p, m) => at(p, m, current.cls, current.field));

  const { fields: xml, keyClasses: xmlKeyClasses } = readXml(options.metadata ?? []);
  const listed = new Set(options.listedClasses ?? []);
  for (const name of listed) {
    if (!index.byBinary.has(name) && !index.byCanonical.has(name) && !xml.has(name)) {
      problems.push(
        defined({
          file: options.listedIn?.file ?? "persistence.xml",
          line: options.listedIn?.line,
          message: `<class>${name}</class> is not a class of the Java sources`,
        }),
      );
    }
  }

  // Which classes are persistent, and in which vocabulary.
  const classAnnotations = new Map<TypeEntry, Annotation[]>();
  const persistent = new Map<TypeEntry, "jdo" | "jpa" | "plain">();
  for (const entry of index.entries) {
    if (entry.cls.kind !== "class" && entry.cls.kind !== "record") continue;
    current = { cls: entry.binaryName };
    const read = annotations.read(entry.cls.annotations, entry);
    classAnnotations.set(entry, read);
    const named = xml.has(entry.binaryName) || listed.has(entry.binaryName) || listed.has(entry.canonicalName);
    const vocabulary = read.some((a) => a.vocabulary === "jdo" && JDO_CLASS.includes(a.name))
      ? "jdo"
      : read.some((a) => a.vocabulary === "jpa" && JPA_CLASS.includes(a.name))
        ? "jpa"
        : undefined;
    if (vocabulary && (named || !options.excludeUnlisted)) persistent.set(entry, vocabulary);
    else if (named) persistent.set(entry, "plain");
  }

  const persistentSuper = (entry: TypeEntry): TypeEntry | undefined => {
    const seen = new Set<TypeEntry>();
    for (let e: TypeEntry | undefined = entry; e && !seen.has(e);) {
      seen.add(e);
      e = index.superclassOf(e);
      if (e && persistent.has(e)) return e;
    }
    return undefined;
  };

  // Key classes (objectid-class, @IdClass) are plain classes a key field may be typed by (an ancestor key).
  const keyClasses = new Set<string>(xmlKeyClasses);
  for (const [entry] of persistent) {
    const own = classAnnotations.get(entry) ?? [];
    for (const v of [find(own, "PersistenceCapable")?.values.get("objectIdClass"), find(own, "IdClass")?.values.get("value")])
      if (typeof v === "string") keyClasses.add(v);
  }

  const jdo: ClassDecl[] = [];
  const jpa: JpaClass[] = [];
  for (const [entry, vocabulary] of persistent) {
    const name = entry.binaryName;
    current = { cls: name };
    const site = siteOf(entry.cls.at);
    const own = classAnnotations.get(entry) ?? [];
    const clsAnnotations = vocabulary === "plain" ? [] : own.filter((a) => a.vocabulary === vocabulary);
    const xmlOwn = xml.get(name);
    const superclass = persistentSuper(entry)?.binaryName;
    const isAbstract = entry.cls.modifiers.has("abstract") || undefined;

    // Property access when the getters carry the vocabulary's annotations and the fields do not.
    const memberAnnotationsOf = new Map<JavaMember, Annotation[]>();
    const readMember = (m: JavaMember): Annotation[] => {
      let read = memberAnnotationsOf.get(m);
      if (!read) memberAnnotationsOf.set(m, (read = m.annotations.length ? annotations.read(m.annotations, entry) : []));
      return read;
    };
    const annotated = (m: JavaMember) => readMember(m).some((a) => a.vocabulary !== undefined);
    const useGetters = vocabulary !== "plain" && entry.cls.getters.some(annotated) && !entry.cls.fields.some(annotated);
    const members = useGetters ? entry.cls.getters : entry.cls.fields;

    const records = new Map<string, MemberRecord>();
    for (const m of members) {
      current = { cls: name, field: m.name };
      const memberAnnotations = readMember(m).filter((a) => vocabulary !== "plain" && a.vocabulary === vocabulary);
      const inXml = xmlOwn?.get(m.name);
      const declared = declaredType(m.type, entry);
      const isExplicit = memberAnnotations.length > 0 || inXml !== undefined;
      const fail = (p: JavaPos, message: string) => at(p, message, name, m.name);

      // Which fields the vocabulary makes persistent without being told: not `transient` ones, nor
      // (JDO) `final` ones; a field said not to be persistent needs nothing checked unless the XML names it.
      if (!isExplicit && (m.modifiers.has("transient") || (m.modifiers.has("final") && vocabulary !== "jpa"))) continue;
      if (!inXml && memberAnnotations.some((a) => a.name === "NotPersistent" || (vocabulary === "jpa" && a.name === "Transient"))) continue;
      if (declared.unresolved) {
        if (!isExplicit && index.importsUnknownPackages(entry)) continue;
        if (!inXml?.typed) fail(declared.unresolved.at, `cannot resolve the type ${declared.unresolved.name}`);
        continue;
      }
      // The class a reference or a collection points at: a class of the tree must be persistent.
      const target = declared.valueClass ? index.byBinary.get(declared.valueClass) : undefined;
      const targetOk =
        !target ||
        target.cls.kind === "enum" ||
        keyClasses.has(target.binaryName) ||
        persistent.has(target) ||
        (target.cls.kind === "interface" && !isExplicit);
      const statesType = inXml?.typed || memberAnnotations.some((a) => a.values.has("types") || a.values.has("targetEntity") || a.values.has("targetClass"));
      if (!targetOk && !statesType) {
        if (!isExplicit && vocabulary !== "jpa") continue;
        fail(m.type.at, `${target!.canonicalName} is not persistent: annotate it (@PersistenceCapable, @Entity, @Embeddable, ...) or name it in the metadata`);
        continue;
      }
      if (target?.cls.kind === "interface" && !isExplicit) continue;
      if (!isExplicit && vocabulary !== "jpa" && !defaultPersistent(declared, target, persistent)) continue;

      const enumConstants = declared.enumClasses.map((c) => index.byBinary.get(c)?.cls.constants).find(Boolean);
      const site = siteOf(m.at);
      let props: Record<string, unknown>;
      if (vocabulary === "jpa") {
        const embeddable = target && persistent.get(target) === "jpa" && find(classAnnotations.get(target) ?? [], "Embeddable") !== undefined;
        props = jpaMemberProps(memberAnnotations, {
          type: declared.base,
          full: declared.full,
          arg0: declared.args[0],
          arg1: declared.args[1],
          isCollection: declared.isCollection,
          isMap: declared.isMap,
          isEmbeddable: !!embeddable,
        });
        if (m.modifiers.has("transient") && !memberAnnotations.length) props.kind = "transient";
      } else {
        props = jdoMemberProps(memberAnnotations, (p, message) => at(p, message, name, m.name), declared.jdo);
        // Java's `transient` is JDO's default of not persistent, unless the annotations say otherwise.
        if (m.modifiers.has("transient") && !props.persistenceModifier) props.persistenceModifier = "none";
      }
      if (enumConstants && !props.enumConstants) props.enumConstants = enumConstants;
      records.set(m.name, { name: m.name, vocabulary: vocabulary === "jpa" ? "jpa" : "jdo", site, decorators: memberAnnotations.map((a) => a.name), props });
    }

    if (vocabulary === "plain") {
      jdo.push(plainClass(name, site, superclass, isAbstract, records));
      continue;
    }
    const record: ClassRecord = { vocabulary, site, decorators: clsAnnotations.map((a) => a.name), props: {}, lists: {}, members: records };
    const resolve = (ref: unknown) => (typeof ref === "string" ? ref : undefined);
    if (vocabulary === "jdo") {
      const { props, fetchGroups, versionFieldName } = jdoClassProps(clsAnnotations, (p, message) => at(p, message, name));
      record.props = { ...props, abstract: isAbstract };
      if (fetchGroups.length) record.lists.fetchGroups = fetchGroups;
      const versionField = versionFieldName && records.get(versionFieldName);
      if (versionField) versionField.props.versionField = props.version;
      jdo.push(jdoClass(name, superclass, record, resolve, () => resolve));
    } else {
      const { props, graphs } = jpaClassProps(clsAnnotations);
      record.props = { ...props, abstract: isAbstract };
      if (graphs.length) record.lists.graphs = graphs;
      jpa.push(
        jpaClass(
          name,
          superclass,
          record,
          () => resolve,
          (s, message, cls, field) => problems.push(defined({ file: s.file, line: s.line, column: s.column, class: cls, field, message })),
        ),
      );
    }
  }

  const translated = translateJpa(jpa);
  problems.push(...translated.problems);
  const classes = [...jdo, ...translated.classes];
  return { documents: classes.length ? [{ source: JAVA_SOURCE, classes }] : [], jpaClasses: jpa, problems, units: units.length };

  /** A declared type → the names the declarations use, and what a check needs to know. */
  function declaredType(t: JavaType, from: TypeEntry) {
    // `Optional<T>` is declared as T, with its type name saying Optional (field-types.ts unwraps it).
    if (!t.dims && t.args.length === 1 && index.resolve(t.name, from) === "java.util.Optional") {
      const inner = plainDeclaredType(t.args[0]!, from);
      const full = `java.util.Optional<${inner.full}>`;
      return { ...inner, full, jdo: { ...inner.jdo, typeName: `java.util.Optional<${inner.jdo.typeName ?? inner.full}>` } };
    }
    return plainDeclaredType(t, from);
  }

  function plainDeclaredType(t: JavaType, from: TypeEntry) {
    let unresolved: JavaType | undefined;
    const resolve = (x: JavaType): string => {
      const base = index.resolve(x.name, from);
      if (!base) unresolved ??= x;
      return (base ?? x.name) + "[]".repeat(x.dims);
    };
    const base = index.resolve(t.name, from);
    if (!base) unresolved = t;
    const full0 = (base ?? t.name) + "[]".repeat(t.dims);
    const args = t.dims ? [] : t.args.map(resolve);
    const full = args.length ? `${full0}<${args.join(",")}>` : full0;
    const coll = collectionKind(full0);
    const map = isMapType(full0);
    const isCollection = !!coll && !basicType(full0);
    const isMap = !!map;
    const element = isCollection ? (coll?.element ?? args[0]) : undefined;
    const valueClass = isMap ? args[1] : isCollection ? element : basicType(full0) ? undefined : full0;
    const enumClasses = [full0, ...args, ...(coll?.element ? [coll.element] : [])].filter((n) => index.byBinary.get(n)?.cls.kind === "enum");
    return {
      unresolved,
      base: full0,
      full,
      args,
      isCollection,
      isMap,
      valueClass: valueClass === OBJECT ? undefined : valueClass,
      enumClasses,
      jdo: {
        typeName: isCollection && t.dims ? undefined : full0,
        elementType: isCollection ? element : undefined,
        keyType: isMap ? args[0] : undefined,
        valueType: isMap ? args[1] : undefined,
        isCollection,
        isMap,
      },
    };
  }
}

/** JDO's default persistence: basic types, enums, persistent classes, collections and maps. */
function defaultPersistent(
  declared: { base: string; isCollection: boolean; isMap: boolean; enumClasses: string[] },
  target: TypeEntry | undefined,
  persistent: Map<TypeEntry, unknown>,
): boolean {
  if (declared.isCollection || declared.isMap || declared.enumClasses.includes(declared.base)) return true;
  if (basicType(declared.base)) return true;
  return !!target && persistent.has(target);
}

function plainClass(
  name: string,
  source: SourceRef,
  superclass: string | undefined,
  isAbstract: boolean | undefined,
  records: Map<string, MemberRecord>,
): ClassDecl {
  const fields: FieldDecl[] = [...records.values()].map((m) => {
    const p = m.props as Record<string, any>;
    return defined<FieldDecl>({
      name: m.name,
      source: m.site,
      typeName: p.typeName,
      elementType: p.elementType,
      keyType: p.keyType,
      valueType: p.valueType,
      enumConstants: p.enumConstants,
      persistenceModifier: p.persistenceModifier,
    });
  });
  return defined<ClassDecl>({ name, source, superclass, abstract: isAbstract, fields });
}

const siteOf = (p: JavaPos): SourceRef => ({ file: p.file, line: p.line, column: p.column });

/** What the XML says that the Java reader needs: the classes it names, their fields, the key classes. */
function readXml(metadata: readonly MetadataText[]): { fields: XmlFields; keyClasses: string[] } {
  const fields: XmlFields = new Map();
  const keyClasses: string[] = [];
  const note = (cls: string, field: string, typed: boolean) => {
    const own = fields.get(cls) ?? new Map();
    // An .orm after its .jdo rarely repeats the type: a field is typed when any document types it.
    own.set(field, { typed: own.get(field)?.typed || typed });
    fields.set(cls, own);
  };
  for (const { source, text } of metadata) {
    if (isOrmXml(text)) {
      for (const c of readOrmXml(text, source).classes) {
        if (!fields.has(c.className)) fields.set(c.className, new Map());
        if (c.idClass) keyClasses.push(c.idClass);
        for (const a of c.attributes) note(c.className, a.name, !!(a.type || a.target));
      }
      continue;
    }
    for (const c of readJdoXml(text, source).document.classes) {
      if (!fields.has(c.name)) fields.set(c.name, new Map());
      if (c.objectIdClass) keyClasses.push(c.objectIdClass);
      for (const f of c.fields) note(c.name, f.name, !!(f.typeName || f.elementType || f.valueType));
    }
  }
  return { fields, keyClasses };
}
