/**
 * Where each class's fields live: JDO's inheritance strategies turned into tables.
 *
 * - new-table: the class has its own table for its own fields, joined to its superclass's by key;
 * - superclass-table: the class's fields go into the nearest ancestor's table;
 * - subclass-table: the class has no table; its fields move down into each subclass's table;
 * - complete-table: the class has its own table holding every field, inherited ones included.
 *
 * The primary table of a class is where the row holding its identity lives: the root-most table
 * on its path (or its own table for complete-table). A primary table shared by several classes
 * gets a discriminator column.
 */
import type { ClassDecl, InheritanceStrategy } from "./declarations.ts";
import type { Discriminator } from "./model.ts";
import type { ProblemLog } from "./problem-log.ts";

export interface ClassLayout {
  strategy: InheritanceStrategy;
  table?: string;
  primaryTable?: string;
  /** Tables of a row of this class, primary first, then the joined new-table tables. */
  tables: string[];
  /** Table of every persistent field of the class (inherited included). */
  fieldTables: Map<string, string>;
  discriminator?: Discriminator;
}

export interface HierarchyInput {
  decls: ReadonlyMap<string, ClassDecl>;
  /** Superclass first order: every class appears after its superclass. */
  order: readonly ClassDecl[];
  /** Persistent field names each class declares itself, in order. */
  ownFields: ReadonlyMap<string, readonly string[]>;
  log: ProblemLog;
}

export function simpleName(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

export function layoutTables(input: HierarchyInput): Map<string, ClassLayout> {
  const { decls, order, ownFields, log } = input;
  const layouts = new Map<string, ClassLayout>();

  for (const decl of order) {
    if (decl.embeddedOnly) continue;
    const parent = decl.superclass ? layouts.get(decl.superclass) : undefined;
    const strategy = decl.inheritance?.strategy ?? defaultStrategy(decl, parent, decls);
    const own = ownFields.get(decl.name) ?? [];
    const fieldTables = new Map(parent?.fieldTables);
    // Fields of subclass-table ancestors have no table yet: they move into the next table down.
    const pending = [...(parent ? [...parent.fieldTables].filter(([, t]) => t === "").map(([f]) => f) : []), ...own];
    const tableName = decl.table ?? simpleName(decl.name);
    let layout: ClassLayout;

    switch (strategy) {
      case "subclass-table":
        for (const f of pending) fieldTables.set(f, "");
        layout = { strategy, tables: parent?.tables ?? [], primaryTable: parent?.primaryTable, fieldTables };
        break;
      case "superclass-table": {
        const target = parent?.tables.at(-1);
        if (!target) {
          log.add(decl, 'inheritance strategy "superclass-table" needs a superclass with a table');
          continue;
        }
        for (const f of pending) fieldTables.set(f, target);
        layout = { strategy, table: undefined, tables: [...parent!.tables], primaryTable: parent!.primaryTable, fieldTables };
        break;
      }
      case "complete-table":
        for (const f of fieldTables.keys()) fieldTables.set(f, tableName);
        for (const f of own) fieldTables.set(f, tableName);
        layout = { strategy, table: tableName, tables: [tableName], primaryTable: tableName, fieldTables };
        break;
      default: {
        for (const f of pending) fieldTables.set(f, tableName);
        const tables = parent?.primaryTable ? [...parent.tables, tableName] : [tableName];
        layout = { strategy, table: tableName, tables, primaryTable: tables[0], fieldTables };
      }
    }
    layouts.set(decl.name, layout);
  }

  assignDiscriminators(decls, order, layouts, log);
  return layouts;
}

/**
 * A class that names no strategy: a root (or a class below ancestors without a table) gets its
 * own table; below a table, an ancestor's `forSubclasses` (JPA's `@Inheritance`) decides, else the
 * vocabulary's default: JDO's new-table, JPA's SINGLE_TABLE (the superclass's table).
 */
function defaultStrategy(decl: ClassDecl, parent: ClassLayout | undefined, decls: ReadonlyMap<string, ClassDecl>): InheritanceStrategy {
  if (!parent?.primaryTable) return "new-table";
  for (let d = decl.superclass ? decls.get(decl.superclass) : undefined; d; d = d.superclass ? decls.get(d.superclass) : undefined) {
    if (d.inheritance?.forSubclasses) return d.inheritance.forSubclasses;
  }
  return decl.vocabulary === "jpa" ? "superclass-table" : "new-table";
}

function assignDiscriminators(decls: ReadonlyMap<string, ClassDecl>, order: readonly ClassDecl[], layouts: Map<string, ClassLayout>, log: ProblemLog): void {
  const byPrimary = new Map<string, ClassDecl[]>();
  for (const decl of order) {
    const primary = layouts.get(decl.name)?.primaryTable;
    if (primary) byPrimary.set(primary, [...(byPrimary.get(primary) ?? []), decl]);
  }
  for (const [, classes] of byPrimary) {
    // The table's root (or an ancestor) usually declares the discriminator; a subclass may instead.
    const declared = declaredDiscriminator(classes[0]!, decls) ?? classes.map((c) => c.inheritance?.discriminator).find((d) => d?.column || d?.strategy);
    if (classes.length < 2 && !declared) continue;
    // JPA's defaults: a DTYPE column holding entity names.
    const jpa = classes[0]!.vocabulary === "jpa";
    const column = declared?.column ?? (jpa ? "DTYPE" : "DISCRIMINATOR");
    const valuesGiven = jpa || classes.some((c) => c.inheritance?.discriminator?.value !== undefined);
    const strategy = declared?.strategy ?? (valuesGiven ? "value-map" : "class-name");
    const values: Record<string, string> = {};
    const seen = new Map<string, string>();
    for (const decl of classes) {
      const fallback = decl.vocabulary === "jpa" ? (decl.entityName ?? simpleName(decl.name)) : decl.name;
      const value = strategy === "value-map" ? (decl.inheritance?.discriminator?.value ?? fallback) : decl.name;
      const prior = seen.get(value);
      if (prior) log.add(decl, `discriminator value "${value}" is already used by class ${prior}`);
      seen.set(value, decl.name);
      values[decl.name] = value;
    }
    const discriminator: Discriminator = { strategy, column, values };
    for (const decl of classes) layouts.get(decl.name)!.discriminator = discriminator;
  }
}

/** The discriminator declared by the class or the nearest ancestor that declares one. */
function declaredDiscriminator(decl: ClassDecl, decls: ReadonlyMap<string, ClassDecl>) {
  for (let d: ClassDecl | undefined = decl; d; d = d.superclass ? decls.get(d.superclass) : undefined) {
    const disc = d.inheritance?.discriminator;
    if (disc && (disc.column || disc.strategy)) return disc;
  }
  return undefined;
}
