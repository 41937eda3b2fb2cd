/**
 * JPA's meaning, in one place: entities, mapped superclasses and embeddables (from orm.xml or
 * from the JPA decorators) become the declarations every metadata form shares.
 *
 * - an entity's `@Inheritance` applies to its whole hierarchy: SINGLE_TABLE puts subclasses in
 *   the root's table, JOINED gives each its own table joined by key, TABLE_PER_CLASS a complete
 *   table each (the subclass defaults themselves are applied by `layoutTables`, which knows the
 *   hierarchy across sources);
 * - a mapped superclass is not persistent itself (no resource, no table, no extent): its
 *   attributes are copied into each entity that extends it, and the entity's superclass is the
 *   nearest entity above it;
 * - `@GeneratedValue` strategies map onto JDO's value strategies (AUTO by the id's type);
 * - an embedded id contributes its embeddable's attributes as the entity's key fields, with the
 *   embeddable as the key class (as an `@IdClass` would);
 * - fetch defaults follow JPA: to-one relationships and basics are eager, collections lazy.
 */
import type { ClassDecl, FetchGroupDecl, FieldDecl } from "../declarations.ts";
import type { ModelProblem } from "../problems.ts";
import { defined } from "../xml-tree.ts";
import { JPA_GENERATION, type JpaAttribute, type JpaClass, type JpaGeneration } from "./model.ts";

const STRATEGY_FOR_SUBCLASSES = {
  SINGLE_TABLE: "superclass-table",
  JOINED: "new-table",
  TABLE_PER_CLASS: "complete-table",
} as const;

const UUID_TYPES = new Set(["java.util.UUID", "java.lang.String", "String"]);

function valueStrategy(generated: JpaGeneration | undefined, type: string | undefined): string | undefined {
  switch (generated) {
    case undefined:
      return undefined;
    case "IDENTITY":
      return "identity";
    case "SEQUENCE":
      return "sequence";
    case "TABLE":
      return "increment";
    case "UUID":
      return "uuid-string";
    case "AUTO":
      return type && UUID_TYPES.has(type) ? "uuid-string" : "native";
  }
}

export interface TranslatedJpa {
  classes: ClassDecl[];
  problems: ModelProblem[];
}

/**
 * Translates the JPA classes of one source. `others` are JPA classes of other sources the
 * embedded ids may name (an orm.xml entity whose embeddable is a decorated class).
 */
export function translateJpa(classes: readonly JpaClass[], others: readonly JpaClass[] = []): TranslatedJpa {
  const problems: ModelProblem[] = [];
  const byName = new Map([...others, ...classes].map((c) => [c.className, c]));
  // Another source may declare the same class (orm.xml over a decorated class): the id, the
  // superclass may be said there.
  const declarations = new Map<string, JpaClass[]>();
  for (const c of [...others, ...classes]) declarations.set(c.className, [...(declarations.get(c.className) ?? []), c]);
  const out = classes.filter((c) => c.kind !== "mapped-superclass").map((c) => translateClass(c, byName, declarations, problems));
  return { classes: out, problems };
}

function translateClass(
  c: JpaClass,
  byName: ReadonlyMap<string, JpaClass>,
  declarations: ReadonlyMap<string, JpaClass[]>,
  problems: ModelProblem[],
): ClassDecl {
  const problem = (message: string, a?: JpaAttribute) =>
    problems.push(defined({ file: (a ?? c).source.file, line: (a ?? c).source.line, class: c.className, field: a?.name, message }));

  // Mapped superclasses above the class lend their attributes (and id class); the nearest entity
  // above is the superclass.
  const lent: JpaAttribute[] = [];
  let idClass = c.idClass;
  let parent = c.parentClass ? byName.get(c.parentClass) : undefined;
  const seen = new Set([c.className]);
  while (parent?.kind === "mapped-superclass" && !seen.has(parent.className)) {
    seen.add(parent.className);
    lent.unshift(...parent.attributes);
    idClass ??= parent.idClass;
    parent = parent.parentClass ? byName.get(parent.parentClass) : undefined;
  }
  const superclass = parent ? parent.className : byName.has(c.parentClass ?? "") ? undefined : c.parentClass;
  const attributes = [...lent, ...c.attributes];

  const decl: ClassDecl = {
    name: c.className,
    source: c.source,
    vocabulary: "jpa",
    superclass,
    embeddedOnly: c.kind === "embeddable" || undefined,
    abstract: c.abstract,
    entityName: c.entityName,
    table: c.table,
    objectIdClass: idClass,
    fields: [],
  };
  const everyDeclaration = declarations.get(c.className) ?? [c];
  // A root entity has no entity above it, mapped superclasses skipped (an unknown parent may be one).
  const entityAbove = (d: JpaClass): boolean => {
    const chain = new Set<string>();
    for (let p = d.parentClass; p && !chain.has(p); p = byName.get(p)?.parentClass) {
      chain.add(p);
      if (byName.get(p)?.kind !== "mapped-superclass") return true;
    }
    return false;
  };
  const rootEntity = c.kind === "entity" && !everyDeclaration.some(entityAbove);
  const hasId = (d: JpaClass): boolean => !!d.datastoreId || d.attributes.some((a) => a.kind === "id" || a.kind === "embedded-id");
  const idElsewhere = everyDeclaration.some((d) => d !== c && hasId(d));
  if (c.datastoreId) {
    const strategy = c.datastoreId.strategy;
    const jpaName = (JPA_GENERATION as readonly string[]).includes(strategy ?? "") ? (strategy as JpaGeneration) : undefined;
    decl.identityType = "datastore";
    decl.datastoreIdentity = defined({ strategy: jpaName ? valueStrategy(jpaName, "long") : strategy, column: c.datastoreId.column });
  } else if (rootEntity && !idElsewhere && !attributes.some((a) => a.kind === "id" || a.kind === "embedded-id")) {
    problem("an entity needs an id: an <id> or <embedded-id> attribute (@Id or @EmbeddedId), here or in a mapped superclass, or <datastore-id> (@DatastoreId)");
  }
  if (c.kind === "entity" && (c.inheritance || c.discriminatorColumn || c.discriminatorValue !== undefined)) {
    const column = c.discriminatorColumn;
    decl.inheritance = defined({
      // On an entity below another entity, @Inheritance also says how this class itself is
      // stored (Extent's addition: JPA leaves it to the root alone), so hierarchies may mix.
      strategy: c.inheritance && (superclass || c.inheritance === "TABLE_PER_CLASS") ? STRATEGY_FOR_SUBCLASSES[c.inheritance] : undefined,
      forSubclasses: c.inheritance && STRATEGY_FOR_SUBCLASSES[c.inheritance],
      discriminator:
        column || c.discriminatorValue !== undefined
          ? defined({
              strategy: column ? ("value-map" as const) : undefined,
              column: column?.name,
              jdbcType: column?.type === "INTEGER" ? "INTEGER" : undefined,
              value: c.discriminatorValue,
            })
          : undefined,
    });
  }

  for (const a of attributes) {
    if (a.kind === "version") {
      decl.version = { strategy: "version-number", column: a.column?.name ?? a.name, fieldName: a.name };
      decl.fields.push(defined({ name: a.name, source: a.source, typeName: a.type, isVersionField: true }));
    } else if (a.kind === "embedded-id") {
      const key = a.type ? byName.get(a.type) : undefined;
      if (!a.type) problem("an embedded id needs its embeddable class (attribute-type, or type in @EmbeddedId)", a);
      else if (!key || key.kind !== "embeddable") problem(`the embedded id's class ${a.type} is not an embeddable of the model`, a);
      else {
        decl.objectIdClass = key.className;
        for (const k of key.attributes) {
          if (k.kind !== "basic" && k.kind !== "id") {
            problem(`the embedded id class ${key.className} may hold basic attributes only; ${k.name} is ${k.kind}`, a);
            continue;
          }
          const column = a.overrides?.[k.name] ?? k.column?.name;
          decl.fields.push(defined({ ...fieldOf(k, problem), primaryKey: true, source: a.source, column: column ? { ...k.column, name: column } : k.column }));
        }
      }
    } else decl.fields.push(fieldOf(a, problem));
  }

  if (c.graphs.length) decl.fetchGroups = c.graphs.map((g): FetchGroupDecl => ({ name: g.name, source: g.source, fields: g.nodes }));
  return defined(decl);
}

function fieldOf(a: JpaAttribute, problem: (message: string, a: JpaAttribute) => void): FieldDecl {
  // A cascade REMOVE deletes along with the owner only; orphanRemoval also what the relation releases.
  const base: FieldDecl = {
    name: a.name,
    source: a.source,
    column: a.column,
    dependent: a.dependent,
    orphanRemoval: a.dependent ? a.orphanRemoval === true : undefined,
  };
  const lazy = a.fetch === "LAZY";
  const eager = a.fetch === "EAGER";
  const required = a.optional === false ? ("exception" as const) : undefined;
  switch (a.kind) {
    case "transient":
      return { name: a.name, source: a.source, persistenceModifier: "none" };
    case "id":
      return defined({ ...base, typeName: a.type, primaryKey: true, valueStrategy: valueStrategy(a.generated, a.type), column: enumColumn(a) });
    case "basic":
      return defined({
        ...base,
        typeName: a.type,
        nullValue: required,
        defaultFetchGroup: lazy ? false : undefined,
        enumConstants: a.enumConstants,
        column: enumColumn(a),
      });
    case "many-to-one":
    case "one-to-one":
      if (a.joinTable) problem(`a ${a.kind} through a join table is not supported: use a join column`, a);
      return defined({
        ...base,
        typeName: a.target ?? a.type,
        mappedBy: a.mappedBy,
        // optional=false, or a join column that may not be null.
        nullValue: required ?? (a.joinColumnNullable === false ? "exception" : undefined),
        // JPA loads to-one relationships eagerly unless told otherwise.
        defaultFetchGroup: !lazy,
        column: a.joinColumn ? { name: a.joinColumn } : undefined,
      });
    case "one-to-many":
    case "many-to-many":
      if (a.joinColumn && !a.joinTable) {
        problem(`a ${a.kind} with a join column in the target's table needs mapped-by (a bidirectional relationship) or a join table`, a);
      }
      return defined({
        ...base,
        typeName: a.type ?? "java.util.Set",
        elementType: a.target,
        mappedBy: a.mappedBy,
        defaultFetchGroup: eager ? true : undefined,
        joinTable: a.joinTable?.name,
        join: a.joinTable ? defined({ column: a.joinTable.joinColumn }) : undefined,
        elementColumn: a.joinTable?.inverseJoinColumn,
        orderColumn: a.orderColumn,
        manyToMany: a.kind === "many-to-many" || undefined,
      });
    case "element-collection": {
      const type = a.type ?? "java.util.Set";
      const isMap = /^java\.util\.(\w*Map)$/.test(type);
      return defined({
        ...base,
        typeName: type,
        elementType: isMap ? undefined : a.target,
        keyType: isMap ? a.mapKeyClass : undefined,
        valueType: isMap ? a.target : undefined,
        defaultFetchGroup: eager ? true : undefined,
        joinTable: a.joinTable?.name,
        join: a.joinTable ? defined({ column: a.joinTable.joinColumn }) : undefined,
        keyColumn: a.mapKeyColumn,
        orderColumn: a.orderColumn,
        enumConstants: a.enumConstants,
        column: enumColumn(a),
      });
    }
    case "embedded":
      return defined({
        ...base,
        typeName: a.type,
        embedded: true,
        embeddedFields: a.overrides && Object.entries(a.overrides).map(([name, column]) => ({ name, source: a.source, column: { name: column } })),
      });
    default:
      problem(`${a.kind} cannot appear here`, a);
      return base;
  }
}

/** `@Enumerated(ORDINAL)` stores the ordinal: the column's JDBC type says so, as in JDO. */
function enumColumn(a: JpaAttribute) {
  return a.enumerated === "ORDINAL" ? { ...a.column, jdbcType: "INTEGER" } : a.column;
}
