/**
 * Builds the normalized `Model` from the declarations of every metadata source:
 * merge → hierarchy → identity → field types → tables → relations → fetch groups.
 * Every problem found is collected; if there are any, `ModelError` lists them all.
 */
import type { ClassDecl, FieldDecl, MetadataDocument } from "./declarations.ts";
import { resolveFieldType } from "./field-types.ts";
import { mergeClassDecls } from "./merge.ts";
import type { ClassMeta, FieldMeta, FieldType, Generation, Identity, Model } from "./model.ts";
import { ProblemLog } from "./problem-log.ts";
import { ModelError } from "./problems.ts";
import { resolveRelation } from "./relations.ts";
import { layoutTables, simpleName } from "./tables.ts";

interface Typed {
  decl: FieldDecl;
  type: FieldType;
  optional?: boolean;
}

const INTEGRAL = new Set(["byte", "short", "int", "long", "biginteger"]);

export function buildModel(documents: readonly MetadataDocument[]): Model {
  const log = new ProblemLog();
  const decls = new Map(mergeClassDecls(documents.flatMap((d) => d.classes)).map((d) => [d.name, d]));
  const order = superclassFirst(decls, log);

  // Own persistent fields with resolved types, per class (embedded-only classes included).
  const ownTyped = new Map<string, Typed[]>();
  const identities = new Map<string, Identity>();
  for (const decl of order) {
    const root = rootOf(decl, decls);
    const keyClass = root.objectIdClass;
    const typed: Typed[] = [];
    for (const field of decl.fields) {
      if (field.persistenceModifier === "none" || field.persistenceModifier === "transactional") continue;
      if (!field.name) continue;
      const resolved = resolveFieldType(field, { classes: decls, owner: decl, keyClass });
      if (!resolved.ok) log.add(decl, resolved.message, field);
      else typed.push({ decl: field, type: resolved.type, ...(resolved.optional ? { optional: true } : {}) });
    }
    ownTyped.set(decl.name, typed);
    if (decl === root && !decl.embeddedOnly) identities.set(decl.name, identityOf(decl, typed, log));
    else if (decl !== root && decl.fields.some((f) => f.primaryKey))
      log.add(
        decl,
        "primary-key fields belong to the root class of the hierarchy",
        decl.fields.find((f) => f.primaryKey),
      );
  }

  const layouts = layoutTables({
    decls,
    order,
    ownFields: new Map(
      [...ownTyped].map(([n, fs]) => [n, fs.filter((f) => !f.decl.isVersionField && !isVersionField(decls, n, f.decl.name)).map((f) => f.decl.name)]),
    ),
    log,
  });

  const allTyped = (name: string): Typed[] => {
    const decl = decls.get(name);
    if (!decl) return [];
    return [...(decl.superclass ? allTyped(decl.superclass) : []), ...(ownTyped.get(name) ?? [])];
  };
  const keyColumns = (name: string): string[] => {
    const identity = identities.get(rootOf(decls.get(name)!, decls).name);
    if (!identity) return [];
    if (identity.kind === "datastore") return [identity.column];
    const fields = allTyped(name);
    return identity.fields.map((k) => columnName(fields.find((f) => f.decl.name === k)!.decl));
  };
  const isA = (sub: string, ancestor: string): boolean => {
    for (let c: ClassDecl | undefined = decls.get(sub); c; c = c.superclass ? decls.get(c.superclass) : undefined) if (c.name === ancestor) return true;
    return false;
  };

  const metas = new Map<string, ClassMeta>();
  for (const decl of order) {
    const root = rootOf(decl, decls);
    const layout = layouts.get(decl.name);
    const fields = new Map<string, FieldMeta>();
    const versionField = versionOf(decl, decls)?.fieldName;
    for (const { decl: f, type, optional } of allTyped(decl.name)) {
      const declaring = [...ownTyped].find(([, fs]) => fs.some((t) => t.decl === f))?.[0] ?? decl.name;
      const relation = resolveRelation({
        decl: decls.get(declaring)!,
        field: f,
        type,
        fieldOf: (c, n) => allTyped(c).find((t) => t.decl.name === n),
        inverseOf: (target) =>
          subtreeTyped(target).find((t) => {
            const back = refTarget(t.type);
            return t.decl.mappedBy === f.name && back !== undefined && (isA(declaring, back) || isA(back, declaring));
          }),
        keyColumns,
        isA,
        log: declaring === decl.name ? log : new ProblemLog(),
      });
      const meta = fieldMeta(decl, declaring, f, type, relation, identities.get(root.name), versionField, keyColumns, decls, log);
      // An empty Optional is null: an Optional field is always nullable, whatever else it says.
      if (optional) Object.assign(meta, { optional: true, nullable: !meta.primaryKey });
      fields.set(f.name, meta);
    }
    const identity = identities.get(root.name) ?? { kind: "datastore", generation: { kind: "sequence" }, column: "_id" };
    metas.set(decl.name, {
      name: decl.name,
      simpleName: simpleName(decl.name),
      entityName: decl.entityName ?? simpleName(decl.name),
      source: decl.source,
      superclass: decl.superclass,
      subclasses: order.filter((d) => d.superclass === decl.name).map((d) => d.name),
      root: root.name,
      abstract: decl.abstract ?? layout?.strategy === "subclass-table",
      embeddedOnly: decl.embeddedOnly ?? false,
      requiresExtent: decl.requiresExtent ?? true,
      identity,
      keyColumns: decl.embeddedOnly ? [] : keyColumns(decl.name),
      inheritance: layout?.strategy ?? "new-table",
      table: layout?.table,
      primaryTable: layout?.primaryTable,
      tables: layout?.tables ?? [],
      fieldTables: new Map([...(layout?.fieldTables ?? [])].filter(([f, t]) => t !== "" && fields.has(f) && storedInRow(fields.get(f)!))),
      discriminator: layout?.discriminator,
      version: versionOf(decl, decls) ? { column: versionOf(decl, decls)!.column ?? "VERSION", fieldName: versionField } : undefined,
      fields,
      fetchGroups: new Map(),
    });
  }
  function subtreeTyped(name: string): Typed[] {
    return [...allTyped(name), ...order.filter((d) => d.superclass === name).flatMap((d) => ownTyped.get(d.name) ?? [])];
  }

  for (const meta of metas.values()) Object.assign(meta, { fetchGroups: fetchGroupsOf(decls.get(meta.name)!, decls, meta, log) });
  propagateFetchPaths(metas, isA);
  validateEmbedded(metas, decls, log);
  validateColumns(metas, decls, log);
  validateValueTables(metas, decls, log);
  if (log.problems.length) throw new ModelError(log.problems);

  const bySimpleName = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const meta of metas.values()) {
    for (const n of new Set([meta.simpleName, meta.entityName])) {
      if (bySimpleName.has(n) && bySimpleName.get(n) !== meta.name) ambiguous.add(n);
      bySimpleName.set(n, meta.name);
    }
  }
  for (const n of ambiguous) bySimpleName.delete(n);
  return { classes: metas, bySimpleName };
}

function refTarget(type: FieldType): string | undefined {
  return type.kind === "ref" ? type.class : type.kind === "collection" && type.element.kind === "ref" ? type.element.class : undefined;
}

/** Whether a field's value lives in a column of the class's own row(s). */
function storedInRow(field: FieldMeta): boolean {
  if (field.isVersionField) return false;
  const s = field.relation?.storage.kind;
  return s === undefined || s === "fk-owner";
}

function rootOf(decl: ClassDecl, decls: ReadonlyMap<string, ClassDecl>): ClassDecl {
  let d = decl;
  const seen = new Set<string>();
  while (d.superclass && decls.has(d.superclass) && !seen.has(d.name)) {
    seen.add(d.name);
    d = decls.get(d.superclass)!;
  }
  return d;
}

/** Orders classes so that a superclass comes before its subclasses; reports unknown and cyclic superclasses. */
function superclassFirst(decls: Map<string, ClassDecl>, log: ProblemLog): ClassDecl[] {
  const out: ClassDecl[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (decl: ClassDecl): void => {
    if (state.get(decl.name) === "done") return;
    if (state.get(decl.name) === "visiting") {
      log.add(decl, "the class is its own superclass (an inheritance cycle)");
      decl.superclass = undefined;
      return;
    }
    state.set(decl.name, "visiting");
    if (decl.superclass) {
      const parent = decls.get(decl.superclass);
      if (!parent) {
        log.add(decl, `superclass ${decl.superclass} is not a persistent class of the model`);
        decl.superclass = undefined;
      } else visit(parent);
    }
    state.set(decl.name, "done");
    out.push(decl);
  };
  for (const decl of decls.values()) visit(decl);
  return out;
}

function generationOf(strategy: string | undefined, decl: ClassDecl, field: FieldDecl | undefined, basic: string | undefined, log: ProblemLog): Generation {
  switch (strategy?.toLowerCase()) {
    case undefined:
    case "none":
      return { kind: "none" };
    case "increment":
    case "identity":
    case "native":
    case "sequence":
    case "auto":
      if (basic && !INTEGRAL.has(basic)) log.add(decl, `value-strategy "${strategy}" generates numbers, but the field is ${basic}`, field);
      return { kind: "sequence" };
    case "uuid-string":
    case "uuid":
    case "auid":
      if (basic && basic !== "string" && basic !== "uuid") log.add(decl, `value-strategy "${strategy}" generates strings, but the field is ${basic}`, field);
      return { kind: "uuid-string" };
    case "uuid-hex":
      if (basic && basic !== "string") log.add(decl, `value-strategy "${strategy}" generates strings, but the field is ${basic}`, field);
      return { kind: "uuid-hex" };
    default:
      log.add(decl, `unknown value-strategy "${strategy}" (use increment, identity, native, sequence, uuid-string or uuid-hex)`, field);
      return { kind: "none" };
  }
}

function identityOf(decl: ClassDecl, typed: Typed[], log: ProblemLog): Identity {
  const keys = typed.filter((t) => t.decl.primaryKey);
  const kind = decl.identityType ?? (keys.length ? "application" : "datastore");
  if (kind === "nondurable") log.add(decl, 'identity-type "nondurable" is not supported: a REST resource needs an identity');
  if (kind === "application") {
    if (!keys.length) log.add(decl, 'identity-type "application" needs at least one field with primary-key="true"');
    for (const k of keys) {
      const ok = k.type.kind === "basic" || k.type.kind === "enum" || k.type.kind === "key";
      if (!ok) log.add(decl, `a primary-key field must be a basic value, an enum or an ancestor key, not ${k.type.kind}`, k.decl);
    }
    return { kind: "application", fields: keys.map((k) => k.decl.name), keyClass: decl.objectIdClass };
  }
  if (keys.length) log.add(decl, 'primary-key fields need identity-type="application"', keys[0]!.decl);
  return {
    kind: "datastore",
    generation: generationOf(decl.datastoreIdentity?.strategy ?? "native", decl, undefined, undefined, log),
    column: decl.datastoreIdentity?.column ?? "_id",
  };
}

function versionOf(decl: ClassDecl, decls: ReadonlyMap<string, ClassDecl>) {
  for (let d: ClassDecl | undefined = decl; d; d = d.superclass ? decls.get(d.superclass) : undefined) if (d.version) return d.version;
  return undefined;
}

function isVersionField(decls: ReadonlyMap<string, ClassDecl>, className: string, field: string): boolean {
  return versionOf(decls.get(className)!, decls)?.fieldName === field;
}

const columnName = (f: FieldDecl): string => f.column?.name ?? f.name;

function fieldMeta(
  owner: ClassDecl,
  declaring: string,
  f: FieldDecl,
  type: FieldType,
  relation: FieldMeta["relation"],
  identity: Identity | undefined,
  versionField: string | undefined,
  keyColumns: (c: string) => readonly string[],
  decls: ReadonlyMap<string, ClassDecl>,
  log: ProblemLog,
): FieldMeta {
  const basic = type.kind === "basic" ? type.basic : undefined;
  const primaryKey = !!f.primaryKey && identity?.kind === "application";
  const report = declaring === owner.name ? log : new ProblemLog();
  const generation = primaryKey ? generationOf(f.valueStrategy, owner, f, basic, report) : { kind: "none" as const };
  const primitive = type.kind === "basic" && type.primitive;
  const meta: FieldMeta = {
    name: f.name,
    declaringClass: declaring,
    type,
    source: f.source,
    primaryKey,
    generation,
    nullable: !primitive && !primaryKey && f.nullValue !== "exception" && f.column?.allowsNull !== false,
    defaultFetchGroup: f.defaultFetchGroup ?? (type.kind === "basic" || type.kind === "enum" || type.kind === "embedded" || type.kind === "key"),
    enumOrdinal: isOrdinal(f, type),
    relation,
    isVersionField: f.isVersionField === true || versionField === f.name,
    dependent: f.dependent ?? false,
    orphanRemoval: f.orphanRemoval ?? f.dependent ?? false,
  };
  if (relation?.storage.kind === "fk-owner") {
    const targetKeys = keyColumns(relation.target);
    meta.fkColumns = targetKeys.length === 1 ? [columnName(f)] : targetKeys.map((k) => `${columnName(f)}_${k}`);
  } else if (type.kind === "embedded") {
    const target = decls.get(type.class);
    const columns: Record<string, string> = {};
    for (const sub of target?.fields ?? []) {
      const override = f.embeddedFields?.find((e) => e.name === sub.name);
      columns[sub.name] = override?.column?.name ?? `${f.name}_${sub.name}`;
    }
    meta.embeddedColumns = columns;
  } else if (!relation) {
    const values = valueTableOf(declaring, f, type, keyColumns(owner.name));
    if (values) meta.valueTable = values;
    else meta.column = columnName(f);
  }
  return meta;
}

/**
 * A collection of basic values or enums whose metadata asks for a table (`<join>` or a field
 * `table`; JPA's `@CollectionTable`) is kept in one, so a schema a Java application made maps as
 * it is. Defaults follow the join tables': `Owner_field (Owner_key…, field[, IDX])`; the value
 * column is `<element column>`, else the field's column (JPA's `@Column` of an element collection).
 */
function valueTableOf(declaring: string, f: FieldDecl, type: FieldType, ownerKeys: readonly string[]): FieldMeta["valueTable"] {
  if (type.kind !== "collection" || (type.element.kind !== "basic" && type.element.kind !== "enum")) return undefined;
  if (!f.join && !f.joinTable) return undefined;
  const ordered = type.collection === "list" || type.collection === "array";
  const orderColumn = f.orderColumn ?? (ordered ? "IDX" : undefined);
  return {
    table: f.joinTable ?? `${simpleName(declaring)}_${f.name}`,
    ownerColumns: ownerKeys.length === 1 && f.join?.column ? [f.join.column] : ownerKeys.map((k) => `${simpleName(declaring)}_${k}`),
    valueColumn: f.elementColumn ?? columnName(f),
    ...(orderColumn ? { orderColumn } : {}),
  };
}

function isOrdinal(f: FieldDecl, type: FieldType): boolean {
  const jdbc = f.column?.jdbcType?.toUpperCase();
  const numeric = jdbc === "INTEGER" || jdbc === "SMALLINT" || jdbc === "TINYINT" || jdbc === "BIGINT" || jdbc === "ORDINAL";
  return numeric && (type.kind === "enum" || (type.kind === "collection" && type.element.kind === "enum"));
}

function fetchGroupsOf(decl: ClassDecl, decls: ReadonlyMap<string, ClassDecl>, meta: ClassMeta, log: ProblemLog): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  const chain: ClassDecl[] = [];
  for (let d: ClassDecl | undefined = decl; d; d = d.superclass ? decls.get(d.superclass) : undefined) chain.unshift(d);
  const raw = new Map<string, { fields: string[]; groups: string[] }>();
  for (const d of chain) {
    for (const g of d.fetchGroups ?? []) {
      const prior = raw.get(g.name) ?? { fields: [], groups: [] };
      for (const path of g.fields) {
        const head = path.split(".")[0]!;
        if (!meta.fields.has(head)) {
          if (d === decl) log.add(d, `fetch group "${g.name}" names "${path}", which is not a persistent field`);
          continue;
        }
        prior.fields.push(path);
      }
      prior.groups.push(...(g.groups ?? []));
      raw.set(g.name, prior);
    }
  }
  const expand = (name: string, seen: Set<string>): string[] => {
    const g = raw.get(name);
    if (!g || seen.has(name)) return [];
    seen.add(name);
    return [...g.fields, ...g.groups.flatMap((n) => expand(n, seen))];
  };
  for (const name of raw.keys()) groups.set(name, [...new Set(expand(name, new Set()))]);
  return groups;
}

/**
 * A dotted member of a fetch group (`purchases.lines`) reaches into the related class: the tail
 * joins the group of the same name on the target class and its subclasses, so objects loaded
 * through that relation under that group fetch it. Repeated until nothing changes (`a.b.c`).
 */
function propagateFetchPaths(metas: ReadonlyMap<string, ClassMeta>, isA: (sub: string, ancestor: string) => boolean): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const meta of metas.values()) {
      for (const [group, paths] of meta.fetchGroups) {
        for (const path of paths) {
          const dot = path.indexOf(".");
          if (dot < 0) continue;
          const target = meta.fields.get(path.slice(0, dot))?.relation?.target;
          if (!target) continue;
          const tail = path.slice(dot + 1);
          for (const other of metas.values()) {
            if (!isA(other.name, target) || !other.fields.has(tail.split(".")[0]!)) continue;
            const members = other.fetchGroups.get(group) ?? [];
            if (members.includes(tail)) continue;
            (other.fetchGroups as Map<string, string[]>).set(group, [...members, tail]);
            changed = true;
          }
        }
      }
    }
  }
}

/** Two different fields of one class stored in the same column of the same table cannot work. */
function validateColumns(metas: ReadonlyMap<string, ClassMeta>, decls: ReadonlyMap<string, ClassDecl>, log: ProblemLog): void {
  for (const meta of metas.values()) {
    const used = new Map<string, string>();
    for (const [name, table] of meta.fieldTables) {
      const field = meta.fields.get(name)!;
      const columns = field.column ? [field.column] : [...(field.fkColumns ?? []), ...Object.values(field.embeddedColumns ?? {})];
      for (const c of columns) {
        const key = `${table}.${c.toLowerCase()}`;
        const prior = used.get(key);
        const keyCol = meta.keyColumns.some((k) => k.toLowerCase() === c.toLowerCase()) && !field.primaryKey;
        if ((prior && prior !== name) || keyCol) {
          if (field.declaringClass === meta.name)
            log.add(
              decls.get(meta.name)!,
              `column ${c} of table ${table} is also used by ${prior ?? "the identity"}`,
              decls.get(meta.name)!.fields.find((f) => f.name === name),
            );
        }
        used.set(key, name);
      }
    }
  }
}

/**
 * A collection's table of values holds nothing else: not a class's rows, not another
 * collection's values, not a relation's links (each would read the others' rows as its own).
 */
function validateValueTables(metas: ReadonlyMap<string, ClassMeta>, decls: ReadonlyMap<string, ClassDecl>, log: ProblemLog): void {
  const users = new Map<string, string>();
  for (const meta of metas.values()) for (const t of meta.tables) users.set(t.toLowerCase(), `class ${meta.name}`);
  for (const meta of metas.values())
    for (const field of meta.fields.values()) {
      const s = field.relation?.storage;
      if (s?.kind === "join-table" && field.declaringClass === meta.name) users.set(s.table.toLowerCase(), `${meta.name}.${field.name}`);
    }
  for (const meta of metas.values())
    for (const field of meta.fields.values()) {
      if (!field.valueTable || field.declaringClass !== meta.name) continue;
      const key = field.valueTable.table.toLowerCase();
      const prior = users.get(key);
      const decl = decls.get(meta.name)!;
      if (prior && prior !== `${meta.name}.${field.name}`)
        log.add(
          decl,
          `table ${field.valueTable.table} of this collection's values is also used by ${prior}`,
          decl.fields.find((f) => f.name === field.name),
        );
      else users.set(key, `${meta.name}.${field.name}`);
    }
}

/** Embedded objects live in their owner's columns: they may hold basic values and enums only. */
function validateEmbedded(metas: ReadonlyMap<string, ClassMeta>, decls: ReadonlyMap<string, ClassDecl>, log: ProblemLog): void {
  for (const meta of metas.values()) {
    if (!meta.embeddedOnly) continue;
    for (const field of meta.fields.values()) {
      if (field.type.kind === "basic" || field.type.kind === "enum") continue;
      const decl = decls.get(meta.name)!;
      log.add(
        decl,
        `an embedded class may hold basic values and enums only; this field is a ${field.type.kind}`,
        decl.fields.find((f) => f.name === field.name),
      );
    }
  }
}
