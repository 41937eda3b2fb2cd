/**
 * Decorated classes → declarations. A persistence context names some classes; the classes they
 * reach (JavaScript superclasses, types named by class) come along, so registering the classes
 * a model's users see is enough. JDO-decorated classes become declarations directly; JPA ones
 * go through `translateJpa`, like orm.xml.
 */
import type { ClassDecl, FetchGroupDecl, FieldDecl, MetadataDocument, SourceRef } from "../declarations.ts";
import { qualifyType } from "../java-types.ts";
import { JPA_GENERATION, JPA_INHERITANCE, type GraphNodeSpec, graphPaths, type JpaAttribute, type JpaClass, type JpaEntityGraph } from "../jpa/model.ts";
import { translateJpa } from "../jpa/translate.ts";
import type { ModelProblem } from "../problems.ts";
import { defined } from "../xml-tree.ts";
import type { NamedEntityGraphOptions } from "./jpa.ts";
import { classRecord, hasMemberDecorators, ownMemberRecords, type ClassRecord, type MemberRecord, type TypeRef } from "./registry.ts";

export const DECORATED_SOURCE = "decorated classes";

/** JavaScript constructors standing for the Java types they hold. */
const BUILTIN_TYPES = new Map<unknown, string>([
  [String, "java.lang.String"],
  [Number, "double"],
  [Boolean, "boolean"],
  [Date, "java.util.Date"],
  [BigInt, "java.math.BigInteger"],
  [Uint8Array, "byte[]"],
]);

type Class = abstract new (...args: never[]) => unknown;

export interface DecoratedModel {
  documents: MetadataDocument[];
  /** The JPA classes, for orm.xml documents whose embedded ids name a decorated embeddable. */
  jpaClasses: JpaClass[];
  problems: ModelProblem[];
}

export interface ReadOptions {
  /** The Java package of classes that do not name one. */
  package?: string;
}

export function readDecoratedClasses(classes: readonly unknown[], options: ReadOptions = {}): DecoratedModel {
  const problems: ModelProblem[] = [];
  const report = (site: SourceRef, message: string, cls?: string, field?: string) =>
    problems.push(defined({ file: site.file, line: site.line, class: cls, field, message }));

  // The closure of the given classes over superclasses and referenced classes.
  const records = new Map<Class, ClassRecord>();
  const queue: unknown[] = [...classes];
  const names = new Map<Class, string>();
  const visit = (value: unknown, from?: { site: SourceRef; cls?: string; field?: string }) => {
    if (typeof value !== "function") {
      report(from?.site ?? { file: DECORATED_SOURCE }, `classes must be decorated classes, not ${value === null ? "null" : typeof value}`);
      return;
    }
    const cls = value as Class;
    if (records.has(cls)) return;
    const record = classRecord(cls);
    if (!record) {
      const fix = "add @PersistenceCapable (JDO) or @Entity, @MappedSuperclass, @Embeddable (JPA)";
      // Its field decorators know where the class is written; without any, the referrer does.
      const member = ownMemberRecords(cls)[0];
      if (member)
        report(member.site, `class ${cls.name} has decorated fields but no class decorator: ${fix}`, qualified(cls.name, options.package), member.name);
      else report(from?.site ?? { file: DECORATED_SOURCE }, `class ${cls.name || "(anonymous)"} carries no Extent decorator: ${fix}`, from?.cls, from?.field);
      return;
    }
    records.set(cls, record);
    const parent = persistentSuperclass(cls, (c) => report(record.site, `superclass ${c.name} has decorated fields but no class decorator`, nameOf(cls)));
    if (parent) queue.push(parent);
  };

  // Names first (types refer to classes by name), then every reference found in options.
  const pkgOf = (cls: Class): string | undefined => {
    for (let c: Class | undefined = cls; c; c = persistentSuperclass(c)) {
      const pkg = records.get(c)?.props.package ?? classRecord(c)?.props.package;
      if (typeof pkg === "string") return pkg;
    }
    return options.package;
  };
  const nameOf = (cls: Class): string => {
    let name = names.get(cls);
    if (!name) {
      const record = records.get(cls) ?? classRecord(cls);
      const own = typeof record?.props.name === "string" ? record.props.name : cls.name;
      const pkg = pkgOf(cls);
      name = qualified(own, pkg);
      names.set(cls, name);
    }
    return name;
  };

  while (queue.length) visit(queue.shift());

  const resolver =
    (owner: Class, site: SourceRef, field?: string) =>
    (ref: unknown): string | undefined => {
      if (ref === undefined || ref === null) return undefined;
      if (typeof ref === "string") return qualifyType(ref, pkgOf(owner) ?? "");
      if (typeof ref !== "function") {
        report(site, `a type must be a type name, a class or a function returning a class, not ${typeof ref}`, nameOf(owner), field);
        return undefined;
      }
      const builtin = BUILTIN_TYPES.get(ref);
      if (builtin) return builtin;
      if (classRecord(ref)) {
        if (!records.has(ref as Class)) {
          visit(ref, { site, cls: nameOf(owner), field });
          while (queue.length) visit(queue.shift());
        }
        return nameOf(ref as Class);
      }
      // An arrow function (no prototype) defers the reference: `() => Book`.
      if (!("prototype" in ref) || ref.prototype === undefined) return resolver(owner, site, field)((ref as () => unknown)());
      // A plain class is fine as a key class (JDO objectid-class, JPA @IdClass), named in the owner's package.
      return qualifyType((ref as Class).name, pkgOf(owner) ?? "");
    };

  const jdo: ClassDecl[] = [];
  const jpa: JpaClass[] = [];
  // Resolving a reference may add classes: iterate until the closure stops growing.
  const done = new Set<Class>();
  while (done.size < records.size) {
    for (const [cls, record] of [...records]) {
      if (done.has(cls)) continue;
      done.add(cls);
      const name = nameOf(cls);
      if (record.props.mixedVocabulary) report(record.site, "the class mixes JDO and JPA decorators: use one vocabulary per class", name);
      for (const m of record.members.values()) {
        if (m.vocabulary !== record.vocabulary || m.props.mixedVocabulary)
          report(m.site, `@${m.decorators.join(", @")} mixes JDO and JPA decorators on a ${record.vocabulary.toUpperCase()} class`, name, m.name);
      }
      const parent = persistentSuperclass(cls);
      const superclass = parent && nameOf(parent);
      if (record.vocabulary === "jdo") jdo.push(jdoClass(name, superclass, record, resolver(cls, record.site), (m) => resolver(cls, m.site, m.name)));
      else jpa.push(jpaClass(name, superclass, record, (m) => resolver(cls, m.site, m.name), report));
    }
  }

  const translated = translateJpa(jpa);
  problems.push(...translated.problems);
  const classesOut = [...jdo, ...translated.classes];
  return { documents: classesOut.length ? [{ source: DECORATED_SOURCE, classes: classesOut }] : [], jpaClasses: jpa, problems };
}

const qualified = (name: string, pkg: string | undefined) => (name.includes(".") || !pkg ? name : `${pkg}.${name}`);

/** Whether a value is a class carrying a class decorator of either vocabulary. */
export function isDecoratedClass(value: unknown): boolean {
  return typeof value === "function" && classRecord(value) !== undefined;
}

/** The nearest JavaScript superclass carrying a class decorator; plain classes in between are skipped. */
function persistentSuperclass(cls: Class, onHalfDecorated?: (c: Class) => void): Class | undefined {
  for (let p = Object.getPrototypeOf(cls) as Class | null; p && p !== Function.prototype; p = Object.getPrototypeOf(p) as Class | null) {
    if (classRecord(p)) return p;
    if (hasMemberDecorators(p)) onHalfDecorated?.(p);
  }
  return undefined;
}

type Resolve = (ref: unknown) => string | undefined;

/** A JDO class's recorded options → its declaration (shared with the Java sources' reader, src/metadata/java/). */
export function jdoClass(
  name: string,
  superclass: string | undefined,
  record: ClassRecord,
  resolve: Resolve,
  resolveFor: (m: MemberRecord) => Resolve,
): ClassDecl {
  const p = record.props as Record<string, any>;
  const site = record.site;
  const fields: FieldDecl[] = [];
  let version = p.version as ClassDecl["version"];
  for (const m of record.members.values()) {
    const f = m.props as Record<string, any>;
    const r = resolveFor(m);
    if (f.versionField) version = { ...f.versionField, fieldName: m.name };
    fields.push(
      defined<FieldDecl>({
        name: m.name,
        source: m.site,
        typeName: r(f.typeName),
        elementType: r(f.elementType),
        collectionKind: f.collectionKind,
        keyType: r(f.keyType),
        valueType: r(f.valueType),
        persistenceModifier: f.persistenceModifier,
        primaryKey: f.primaryKey,
        valueStrategy: f.valueStrategy,
        nullValue: f.nullValue,
        defaultFetchGroup: f.defaultFetchGroup,
        mappedBy: f.mappedBy,
        embedded: f.embedded,
        embeddedFields:
          f.embeddedColumns && Object.entries(f.embeddedColumns as Record<string, string>).map(([n, c]) => ({ name: n, source: m.site, column: { name: c } })),
        nullIndicatorColumn: f.nullIndicatorColumn,
        column: f.column && defined({ ...f.column }),
        joinTable: f.joinTable,
        join: f.join && defined({ ...f.join }),
        elementColumn: f.elementColumn,
        keyColumn: f.keyColumn,
        valueColumn: f.valueColumn,
        orderColumn: f.orderColumn,
        enumConstants: f.enumConstants,
        dependent: f.dependent,
        isVersionField: f.versionField ? true : undefined,
      }),
    );
  }
  const discriminator = p.discriminator && defined({ ...p.discriminator });
  return defined<ClassDecl>({
    name,
    source: site,
    vocabulary: "jdo",
    identityType: p.identityType,
    objectIdClass: resolve(p.objectIdClass),
    superclass,
    embeddedOnly: p.embeddedOnly,
    abstract: p.abstract,
    requiresExtent: p.requiresExtent,
    table: p.table,
    datastoreIdentity: p.datastoreIdentity && defined({ ...p.datastoreIdentity }),
    inheritance: p.inheritanceStrategy || discriminator ? defined({ strategy: p.inheritanceStrategy, discriminator }) : undefined,
    version: version && defined({ ...version }),
    fetchGroups: (record.lists.fetchGroups as FetchGroupDecl[] | undefined)?.map((g) => defined({ ...g, source: site })),
    fields,
  });
}

/** A JPA class's recorded options → its JPA class, for translateJpa (shared with the Java sources' reader). */
export function jpaClass(
  name: string,
  superclass: string | undefined,
  record: ClassRecord,
  resolveFor: (m: MemberRecord) => Resolve,
  report: (site: SourceRef, message: string, cls?: string, field?: string) => void,
): JpaClass {
  const p = record.props as Record<string, any>;
  const resolve = resolveFor({ name: "", vocabulary: "jpa", site: record.site, decorators: [], props: {} });
  if (p.inheritance && !(JPA_INHERITANCE as readonly string[]).includes(p.inheritance)) {
    report(record.site, `@Inheritance strategy "${p.inheritance}" is not one of ${JPA_INHERITANCE.join(", ")}`, name);
  }
  const attributes: JpaAttribute[] = [];
  for (const m of record.members.values()) {
    const a = m.props as Record<string, any>;
    const r = resolveFor(m);
    if (a.generated && !(JPA_GENERATION as readonly string[]).includes(a.generated)) {
      report(m.site, `@GeneratedValue strategy "${a.generated}" is not one of ${JPA_GENERATION.join(", ")}`, name, m.name);
    }
    attributes.push(
      defined<JpaAttribute>({
        // @Column or @Enumerated alone makes a basic attribute, as in JPA.
        kind: a.kind ?? "basic",
        name: m.name,
        source: m.site,
        type: r(a.type),
        target: r(a.target),
        mapKeyClass: r(a.mapKeyClass),
        mappedBy: a.mappedBy,
        fetch: a.fetch,
        optional: a.optional,
        generated: a.generated,
        column: a.column && defined({ ...a.column }),
        joinColumn: a.joinColumn,
        joinColumnNullable: a.joinColumnNullable,
        joinTable: a.joinTable && defined({ ...a.joinTable }),
        orderColumn: a.orderColumn === true ? `${m.name}_ORDER` : a.orderColumn,
        mapKeyColumn: a.mapKeyColumn,
        enumerated: a.enumerated,
        enumConstants: a.enumConstants,
        overrides: a.overrides,
        dependent: a.dependent,
        orphanRemoval: a.orphanRemoval,
      }),
    );
  }
  const simple = name.slice(name.lastIndexOf(".") + 1);
  return defined<JpaClass>({
    kind: p.kind ?? "entity",
    className: name,
    source: record.site,
    entityName: p.entityName,
    parentClass: superclass,
    table: p.table,
    idClass: resolve(p.idClass),
    inheritance: p.inheritance,
    discriminatorColumn: p.discriminatorColumn && defined({ ...p.discriminatorColumn }),
    discriminatorValue: p.discriminatorValue,
    datastoreId: p.datastoreId && defined({ ...p.datastoreId }),
    abstract: p.abstract,
    attributes,
    graphs: ((record.lists.graphs ?? []) as NamedEntityGraphOptions[]).map((g) => graphOf(g, p.entityName ?? simple, record.site)),
  });
}

function graphOf(g: NamedEntityGraphOptions, entityName: string, source: SourceRef): JpaEntityGraph {
  const specs = (list: NamedEntityGraphOptions["attributeNodes"]): GraphNodeSpec[] => list.map((n) => (typeof n === "string" ? { name: n } : n));
  const subgraphs = new Map((g.subgraphs ?? []).map((s) => [s.name, specs(s.attributeNodes)]));
  return { name: g.name ?? entityName, source, nodes: graphPaths(specs(g.attributeNodes), subgraphs) };
}

export type { TypeRef };
