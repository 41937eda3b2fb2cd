/**
 * Write plans: a resolved object graph becomes one atomic batch of statements, with no
 * conversation with the database in between. Generated numbers come from Extent's sequence
 * table inside the batch (the batch reserves a range first; each new object's key is an
 * expression over it), so statements can refer to keys that no one has seen yet. Preconditions
 * established by the read before the batch (an object still exists) are checked inside the
 * batch by guard statements that abort it.
 */
import { keyFieldColumns } from "../mapping/keys.ts";
import { type ClassMeta, type FieldMeta, type Model, classOf, isAncestor, subtree } from "../metadata/model.ts";
import type { GraphNode } from "../json/read-graph.ts";
import { SEQUENCE_TABLE, guardInsert } from "../store/migrate.ts";
import { type SQL, ident, join, sql, statement, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { NUL_CHAR } from "../json/values.ts";
import { findInSubtree, owningJoinTable } from "./read-plan.ts";
import { clearReference } from "./release-reference.ts";

/** A node after resolution: created, or an existing object (with its runtime class). */
export interface WriteNode {
  node: GraphNode;
  meta: ClassMeta;
  mode: "create" | "update";
  /** Key parts, as SQL: bound values, or expressions over the sequence table. */
  key: SQL[];
  /** How each key part was obtained, for reading the object back. */
  keySource: KeySource[];
}

export type KeySource = { kind: "value"; value: unknown } | { kind: "sequence"; name: string; count: number; index: number };

export interface WriteBatch {
  statements: Statement[];
}

const seqExpr = (name: string, count: number, index: number): SQL =>
  sql`(SELECT next_value - ${count} + ${index} FROM ${ident(SEQUENCE_TABLE)} WHERE name = ${name})`;

/** Chooses keys for created objects: given ones, UUIDs now, sequence numbers inside the batch. */
export function assignKeys(nodes: readonly { node: GraphNode; meta: ClassMeta; mode: "create" | "update"; key?: unknown[] }[]): { writes: WriteNode[]; prelude: Statement[] } {
  const counts = new Map<string, number>();
  const given = new Map<string, SQL[]>();
  const writes: WriteNode[] = [];
  for (const n of nodes) {
    const parts = keyFieldColumns(n.meta);
    const key: SQL[] = [];
    const keySource: KeySource[] = [];
    parts.forEach((part, i) => {
      const value = n.key?.[i] ?? n.node.key?.[i];
      if (value !== undefined) {
        key.push(sql`${value}`);
        keySource.push({ kind: "value", value });
        // Only a new object's number can be past the sequence; an existing one was counted when created.
        if (part.generation.kind === "sequence" && typeof value === "number" && n.mode === "create") {
          given.set(n.meta.root, [...(given.get(n.meta.root) ?? []), sql`${value}`]);
        }
        return;
      }
      if (part.generation.kind === "uuid-string" || part.generation.kind === "uuid-hex") {
        const uuid = crypto.randomUUID();
        const v = part.generation.kind === "uuid-hex" ? uuid.replace(/-/g, "") : uuid;
        key.push(sql`${v}`);
        keySource.push({ kind: "value", value: v });
        return;
      }
      // A sequence number: the index within this batch's reservation; the count is known below.
      const index = counts.get(n.meta.root) ?? 0;
      counts.set(n.meta.root, index + 1);
      keySource.push({ kind: "sequence", name: n.meta.root, count: -1, index });
      key.push(sql``);
    });
    writes.push({ node: n.node, meta: n.meta, mode: n.mode, key, keySource });
  }
  for (const w of writes) {
    w.keySource.forEach((s, i) => {
      if (s.kind !== "sequence") return;
      s.count = counts.get(s.name)!;
      w.key[i] = seqExpr(s.name, s.count, s.index);
    });
  }
  const prelude: Statement[] = [];
  for (const [name, values] of given) {
    // Client-given numbers move the sequence past them, so later generated keys never collide.
    prelude.push(statement(sql`UPDATE ${ident(SEQUENCE_TABLE)} SET next_value = MAX(next_value, (SELECT MAX(column1) FROM (VALUES ${join(values.map((v) => sql`(${v})`))})) + 1) WHERE name = ${name}`));
  }
  for (const [name, count] of counts) prelude.push(statement(sql`UPDATE ${ident(SEQUENCE_TABLE)} SET next_value = next_value + ${count} WHERE name = ${name}`));
  return { writes, prelude };
}

/** `(a, b) = (x, y)`, or `a = x`. */
function keyEquals(columns: readonly string[], key: readonly SQL[]): SQL {
  return sql`${tuple(columns.map((c) => ident(c)))} = ${tuple(key)}`;
}

/** Aborts the batch unless a row of exactly this class has the key (the discriminator says so, where there is one). */
export function guardExists(meta: ClassMeta, key: readonly SQL[], guard: "missing" | "changed"): Statement {
  const value = meta.discriminator?.values[meta.name];
  const ofClass = value === undefined ? sql`` : sql` AND ${ident(meta.discriminator!.column)} = ${value}`;
  return statement(guardInsert(guard, sql`NOT EXISTS (SELECT 1 FROM ${ident(meta.primaryTable!)} WHERE ${keyEquals(meta.keyColumns, key)}${ofClass})`));
}

/**
 * The version condition of a conditional request (`If-Match`, `If-None-Match`) on one object:
 * `versions` are the tags' numbers, `"*"` any version.
 */
export interface VersionCondition {
  /** `match`: the batch goes on only if the version is one of `versions`; `none`: only if it is not. */
  want: "match" | "none";
  versions: readonly number[] | "*";
}

/** Aborts the batch (guard `stale`) unless the object's version meets the condition; the list is one JSON parameter. */
export function guardVersion(meta: ClassMeta, key: readonly SQL[], condition: VersionCondition): Statement {
  const inList = condition.versions === "*" ? sql`` : sql` AND COALESCE(${ident(meta.version!.column)}, 0) IN (SELECT value FROM json_each(${JSON.stringify(condition.versions)}))`;
  const has = sql`EXISTS (SELECT 1 FROM ${ident(meta.primaryTable!)} WHERE ${keyEquals(meta.keyColumns, key)}${inList})`;
  return statement(guardInsert("stale", condition.want === "match" ? sql`NOT ${has}` : has));
}

const DEFAULTS: Record<string, unknown> = { boolean: 0, byte: 0, short: 0, int: 0, long: 0, float: 0, double: 0, char: NUL_CHAR };

/** Builds the statements that write every node of the graph. */
export function writeStatements(model: Model, writes: readonly WriteNode[]): Statement[] {
  const byNode = new Map(writes.map((w) => [w.node, w]));
  const keyOf = (n: GraphNode): SQL[] => byNode.get(n)!.key;

  // Inverse collections are stored in the elements' rows: each element's foreign key names its owner.
  const assigned = new Map<GraphNode, Map<string, GraphNode>>();
  const extra: Statement[] = [];
  const changed = new Set<WriteNode>();
  for (const w of writes) {
    for (const [fieldName, elements] of w.node.many) {
      const field = w.meta.fields.get(fieldName)!;
      const s = field.relation!.storage;
      const target = classOf(model, field.relation!.target);
      if (s.kind === "fk-inverse") {
        for (const e of elements) {
          if (!assigned.has(e)) assigned.set(e, new Map());
          assigned.get(e)!.set(s.targetField, w.node);
        }
        if (w.mode === "update") extra.push(...releaseInverse(model, target, s.targetField, w.key, elements.map(keyOf)));
      } else if (s.kind === "join-table") {
        if (w.mode === "update") extra.push(statement(sql`DELETE FROM ${ident(s.table)} WHERE ${keyEquals(s.ownerColumns, w.key)}`));
        elements.forEach((e, i) => extra.push(joinRow(s, w.key, keyOf(e), i)));
        changed.add(w);
      } else if (s.kind === "join-inverse") {
        const jt = owningJoinTable(model, target, s.targetField)!;
        if (w.mode === "update") extra.push(statement(sql`DELETE FROM ${ident(jt.table)} WHERE ${keyEquals(jt.elementColumns, w.key)}`));
        for (const e of elements) extra.push(joinRow(jt, keyOf(e), w.key, undefined));
        changed.add(w);
      }
    }
  }

  const out: Statement[] = [];
  for (const w of writes) {
    for (const [fieldName, target] of w.node.refs) {
      const field = w.meta.fields.get(fieldName)!;
      // One-to-one: the target leaves whichever other object held it through this field.
      const release = target && field.relation?.kind === "one-to-one" && field.fkColumns ? releaseOneToOne(model, w, field, target, keyOf(target)) : undefined;
      if (release) extra.push(release);
    }
    const refs = new Map<string, GraphNode | null>(w.node.refs);
    for (const [f, owner] of assigned.get(w.node) ?? []) refs.set(f, owner);
    const rows = rowValues(model, w, refs, keyOf);
    if (w.mode === "create") {
      w.meta.tables.forEach((table, i) => {
        const values = rows.get(table) ?? new Map<string, SQL>();
        const columns = [...w.meta.keyColumns.map((c, j) => [c, w.key[j]!] as const)];
        if (i === 0 && w.meta.discriminator) columns.push([w.meta.discriminator.column, sql`${w.meta.discriminator.values[w.meta.name]!}`]);
        if (i === 0 && w.meta.version) columns.push([w.meta.version.column, sql`1`]);
        for (const [c, v] of values) if (!columns.some(([k]) => k.toLowerCase() === c.toLowerCase())) columns.push([c, v]);
        out.push(statement(sql`INSERT INTO ${ident(table)} (${join(columns.map(([c]) => ident(c)))}) VALUES (${join(columns.map(([, v]) => v))})`));
      });
    } else {
      for (const [table, values] of rows) {
        if (!values.size) continue;
        const sets = [...values].map(([c, v]) => sql`${ident(c)} = ${v}`);
        out.push(statement(sql`UPDATE ${ident(table)} SET ${join(sets)} WHERE ${keyEquals(w.meta.keyColumns, w.key)}`));
        changed.add(w);
      }
    }
  }
  out.push(...extra);
  for (const w of changed) {
    if (w.mode === "update" && w.meta.version) {
      out.push(statement(sql`UPDATE ${ident(w.meta.primaryTable!)} SET ${ident(w.meta.version.column)} = COALESCE(${ident(w.meta.version.column)}, 0) + 1 WHERE ${keyEquals(w.meta.keyColumns, w.key)}`));
    }
  }
  return out;
}

/** Column values per table for the fields present (all fields when creating). */
function rowValues(model: Model, w: WriteNode, refs: Map<string, GraphNode | null>, keyOf: (n: GraphNode) => SQL[]): Map<string, Map<string, SQL>> {
  const rows = new Map<string, Map<string, SQL>>();
  const set = (table: string, column: string, value: SQL) => {
    if (!rows.has(table)) rows.set(table, new Map());
    rows.get(table)!.set(column, value);
  };
  for (const table of w.meta.tables) rows.set(table, new Map());
  for (const [name, table] of w.meta.fieldTables) {
    const field = w.meta.fields.get(name)!;
    if (field.primaryKey) continue;
    if (field.fkColumns) {
      if (!refs.has(name)) {
        if (w.mode === "create") field.fkColumns.forEach((c) => set(table, c, sql`NULL`));
        continue;
      }
      const target = refs.get(name);
      const key = target ? keyOf(target) : undefined;
      field.fkColumns.forEach((c, i) => set(table, c, key ? key[i]! : sql`NULL`));
    } else if (field.embeddedColumns) {
      if (!w.node.values.has(name) && w.mode === "update") continue;
      const record = (w.node.values.get(name) ?? null) as Record<string, unknown> | null;
      for (const [sub, column] of Object.entries(field.embeddedColumns)) set(table, column, sql`${record?.[sub] ?? null}`);
    } else if (field.column) {
      if (w.node.values.has(name)) set(table, field.column, sql`${w.node.values.get(name)}`);
      else if (w.mode === "create") set(table, field.column, sql`${defaultValue(field)}`);
    }
  }
  return rows;
}

function defaultValue(field: FieldMeta): unknown {
  if (field.type.kind === "basic" && field.type.primitive) return DEFAULTS[field.type.basic] ?? null;
  if (field.type.kind === "key") return "";
  return null;
}

function joinRow(s: { table: string; ownerColumns: readonly string[]; elementColumns: readonly string[]; orderColumn?: string }, owner: SQL[], element: SQL[], index: number | undefined): Statement {
  const columns = [...s.ownerColumns, ...s.elementColumns];
  const values = [...owner, ...element];
  if (s.orderColumn) {
    columns.push(s.orderColumn);
    values.push(index !== undefined ? sql`${index}` : sql`(SELECT COALESCE(MAX(${ident(s.orderColumn)}) + 1, 0) FROM ${ident(s.table)} WHERE ${keyEquals(s.ownerColumns, owner)})`);
  }
  return statement(sql`INSERT INTO ${ident(s.table)} (${join(columns.map((c) => ident(c)))}) VALUES (${join(values)})`);
}

/** Elements that left an inverse collection no longer point at its owner. */
function releaseInverse(model: Model, target: ClassMeta, fieldName: string, owner: SQL[], keep: SQL[][]): Statement[] {
  const field = findInSubtree(model, target, fieldName);
  if (!field?.fkColumns) return [];
  const tables = new Set<string>();
  for (const c of model.classes.values()) if (c.fields.get(fieldName)?.declaringClass === field.declaringClass && c.fieldTables.get(fieldName)) tables.add(c.fieldTables.get(fieldName)!);
  return [...tables].flatMap((table) => {
    const notKept = keep.length ? sql` AND ${tuple(target.keyColumns.map((c) => ident(c)))} NOT IN (VALUES ${join(keep.map((k) => sql`(${join(k)})`))})` : sql``;
    // Only rows that still point at the owner: a row that already left changes no more.
    return clearReference(model, table, field.fkColumns!, sql`${keyEquals(field.fkColumns!, owner)}${notKept}`).map(statement);
  });
}

function releaseOneToOne(model: Model, w: WriteNode, field: FieldMeta, target: GraphNode, targetKey: SQL[]): Statement | undefined {
  // Only the inverse to-one field that covers this object's class is one-to-one: an Insurance.employee
  // may be both Employee.dentalInsurance's and Employee.medicalInsurance's other side.
  const inverse = [...target.meta.fields.values()].find((f) => {
    const s = f.relation?.storage;
    return s?.kind === "fk-inverse" && s.targetField === field.name && f.type.kind !== "collection" && isAncestor(model, f.relation!.target, w.meta.name);
  });
  if (!inverse) return undefined;
  const table = w.meta.fieldTables.get(field.name)!;
  const sets = field.fkColumns!.map((c) => sql`${ident(c)} = NULL`);
  const scope = classOf(model, inverse.relation!.target);
  const primary = scope.primaryTable!;
  const others = sql`${keyEquals(field.fkColumns!, targetKey)} AND NOT ${keyEquals(w.meta.keyColumns, w.key)}`;
  const filter = scope.discriminator
    ? sql` AND ${tuple(w.meta.keyColumns.map((c) => ident(c)))} IN (SELECT ${join(w.meta.keyColumns.map((c) => ident(c)))} FROM ${ident(primary)} WHERE ${ident(scope.discriminator.column)} IN (${join(subtree(model, scope.name).map((c) => sql`${c.discriminator?.values[c.name] ?? c.name}`))}))`
    : sql``;
  return statement(sql`UPDATE ${ident(table)} SET ${join(sets)} WHERE ${others}${filter}`);
}
