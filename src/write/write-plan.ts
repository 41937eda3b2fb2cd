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
import type { GraphNode } from "../mapping/read-graph.ts";
import { SEQUENCE_TABLE } from "../store/reserved-tables.ts";
import { ident, join, onStoredTables, oneOf, qualified, sql, tableRef, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { NUL_CHAR } from "../json/values.ts";
import { type JoinTable, type RelationStorage, relationStorage } from "../mapping/relation-storage.ts";
import { insertValueRows, ownerMatch } from "../mapping/value-tables.ts";
import { int, keyEquals, range, shaped, value } from "./shaped.ts";
export { shaped, slotPattern, slotPlaceholders, slotValues } from "./shaped.ts";
import { type At, type VersionSteps, clearReference, jsonKeys } from "./version-steps.ts";
import { WriteSteps, holdingTables } from "./write-steps.ts";
import { InsertRows } from "./insert-rows.ts";
import { type KeyGenerator, type Slot, type WriteNode, newUuid } from "./write-node.ts";
export { type KeyGenerator, newUuid } from "./write-node.ts";
import { type Diagnosis, type WriteCheck, checkGuard, diagnosis, orphanDeletion, releaseCheck } from "./orphan-plan.ts";
import { append } from "../util/lists.ts";

/** Chooses keys for created objects: given ones, UUIDs now (`generate`), sequence numbers inside the batch. */
export function assignKeys(
  nodes: readonly { node: GraphNode; meta: ClassMeta; mode: "create" | "update"; key?: unknown[] }[],
  generate: KeyGenerator = newUuid,
): {
  writes: WriteNode[];
  prelude: Statement[];
} {
  const counts = new Map<string, number>();
  const given = new Map<string, Slot[]>();
  const writes: WriteNode[] = [];
  for (const n of nodes) {
    const parts = keyFieldColumns(n.meta);
    const key: Slot[] = [];
    parts.forEach((part, i) => {
      const known = n.key?.[i] ?? n.node.key?.[i];
      if (known !== undefined) {
        key.push(value(known));
        // Only a new object's number can be past the sequence; an existing one was counted when created.
        // (A number past 2^53 is held as its digits.)
        if (part.generation.kind === "sequence" && (typeof known === "number" || typeof known === "string") && n.mode === "create") {
          append(given, n.meta.root, value(known));
        }
        return;
      }
      if (part.generation.kind === "uuid-string" || part.generation.kind === "uuid-hex") {
        key.push(value(generate(part.generation.kind)));
        return;
      }
      // A sequence number: the index within this batch's reservation; the count is known below.
      const index = counts.get(n.meta.root) ?? 0;
      counts.set(n.meta.root, index + 1);
      key.push({ kind: "sequence", name: n.meta.root, count: -1, index });
    });
    writes.push({ node: n.node, meta: n.meta, mode: n.mode, key });
  }
  for (const w of writes) for (const s of w.key) if (s.kind === "sequence") s.count = counts.get(s.name)!;
  const prelude: Statement[] = [];
  for (const [name, values] of given) {
    // Client-given numbers move the sequence past them, so later generated keys never collide.
    // (`+ 0`: a number past 2^53 is bound as its digits, which MAX would order as text; the
    // sequence stops at the largest long, see below.)
    prelude.push(
      shaped(
        `seq-past|${values.length}`,
        [...values, value(name)],
        (slot) =>
          sql`UPDATE ${ident(SEQUENCE_TABLE)} SET next_value = MAX(next_value, MIN((SELECT MAX(column1 + 0) FROM (VALUES ${join(range(slot, 0, values.length).map((v) => sql`(${v})`))})), ${LAST_NUMBER} - 1) + 1) WHERE name = ${slot(values.length)}`,
      ),
    );
  }
  for (const [name, count] of counts) {
    // Numbers past the largest long do not exist: a reservation that would reach it sets NULL,
    // which the NOT NULL column refuses, and the batch with it (store-errors.ts: "sequence").
    prelude.push(
      shaped(
        "seq-reserve",
        [value(count), value(name)],
        (slot) =>
          sql`UPDATE ${ident(SEQUENCE_TABLE)} SET next_value = iif(next_value > ${LAST_NUMBER} - ${int(slot(0))}, NULL, next_value + ${int(slot(0))}) WHERE name = ${slot(1)}`,
      ),
    );
  }
  return { writes, prelude };
}

/** The largest long: a sequence's numbers end below it (its next number is always one more). */
const LAST_NUMBER = sql.raw("9223372036854775807");

/** A key's slots from its stored values (a DELETE's key). */
export const keySlots = (key: readonly unknown[]): Slot[] => key.map(value);

const DEFAULTS: Record<string, unknown> = { boolean: 0, byte: 0, short: 0, int: 0, long: 0, float: 0, double: 0, char: NUL_CHAR };

/**
 * Builds the statements that write every node of the graph: first the version steps of every
 * existing object the batch changes, written or relinked (src/write/write-steps.ts), then the rows.
 */
export function writeStatements(
  model: Model,
  writes: readonly WriteNode[],
  cascadeGuards: (roots: string[]) => Statement[] = () => [],
): { statements: Statement[]; diagnose: () => Diagnosis; primaryUpdate: (w: WriteNode) => Statement | undefined } {
  const byNode = new Map(writes.map((w) => [w.node, w]));
  // Each updated object's UPDATE of its primary table (the row its existence guard looks for).
  const primaryUpdates = new Map<WriteNode, { update: Statement; sets: [string, Slot][] }>();
  const keyOf = (n: GraphNode): Slot[] => byNode.get(n)!.key;
  const steps = new WriteSteps(model);
  // Objects released from relations with orphan removal are deleted (src/write/orphan-plan.ts);
  // released from a mapped-by collection whose reference is required, they refuse the batch.
  const orphans = orphanDeletion(model, writes, steps.steps);
  const checks: WriteCheck[] = [];

  // Inverse collections are stored in the elements' rows: each element's foreign key names its owner.
  const assigned = new Map<GraphNode, Map<string, GraphNode>>();
  const extra: Statement[] = [];
  const changed = new Set<WriteNode>();
  for (const w of writes) {
    for (const [fieldName, elements] of w.node.many) {
      const field = w.meta.fields.get(fieldName)!;
      const s = relationStorage(model, field);
      steps.relation(w, field, elements.map(keyOf));
      changed.add(w);
      if (s.kind === "target-fk") {
        for (const e of elements) {
          if (!assigned.has(e)) assigned.set(e, new Map());
          assigned.get(e)!.set(s.owning.name, w.node);
        }
        if (w.mode === "update") {
          const check = releaseCheck(model, field, w.key, elements.map(keyOf));
          if (check) (extra.push(checkGuard(check)), checks.push(check));
          extra.push(...releaseInverse(model, classOf(model, field.relation!.target), s, w.key, elements.map(keyOf)));
        }
      } else if (s.kind === "join-table") {
        // An update writes the links anew: in list order from the owning side, appended from the other.
        if (w.mode === "update") extra.push(deleteLinks(s.table, s.ownerColumns, w.key));
        if (!s.inverse) elements.forEach((e, i) => extra.push(joinRow(s.links, w.key, keyOf(e), i)));
        else {
          // A reference (the owning side a to-one) holds one link: existing elements leave their
          // previous owners, which step as when the reference itself is written.
          const taken = s.owning.type.kind === "collection" ? [] : elements.map((e) => byNode.get(e)!).filter((e) => e.mode === "update");
          if (taken.length)
            extra.push(
              unlinkAll(
                s.table,
                s.elementColumns,
                taken.map((e) => e.key),
              ),
            );
          for (const e of taken) steps.relation(e, s.owning, [w.key]);
          for (const e of elements) extra.push(joinRow(s.links, keyOf(e), w.key, undefined));
        }
      }
    }
  }

  // The new objects' rows (merged by table, src/write/insert-rows.ts), and the existing objects' UPDATEs.
  const inserts = new InsertRows();
  const out: Statement[] = [];
  for (const w of writes) {
    for (const [fieldName, target] of w.node.refs) {
      const field = w.meta.fields.get(fieldName)!;
      // One-to-one: the target leaves whichever other object held it through this field.
      const s = target && field.relation?.kind === "one-to-one" ? relationStorage(model, field) : undefined;
      const release = s?.kind === "owner-fk" ? releaseOneToOne(model, steps.steps, w, field, s.columns, target!, keyOf(target!)) : undefined;
      // A required reference cannot be left null by the handover: the batch is refused (409) if another object holds the target.
      if (release?.check) (extra.push(checkGuard(release.check)), checks.push(release.check));
      if (release) extra.push(release.statement);
    }
    const refs = new Map<string, GraphNode | null>(w.node.refs);
    for (const [f, owner] of assigned.get(w.node) ?? []) refs.set(f, owner);
    for (const [fieldName, target] of refs) {
      const field = w.meta.fields.get(fieldName)!;
      const s = relationStorage(model, field);
      if (s.kind === "owner-fk") steps.relation(w, field, target ? [keyOf(target)] : []);
      else if (s.kind === "join-table" && !s.inverse) {
        // A reference kept in a join table: its one link row is written anew (rowValues writes foreign keys).
        steps.relation(w, field, target ? [keyOf(target)] : []);
        changed.add(w);
        if (w.mode === "update") extra.push(deleteLinks(s.table, s.ownerColumns, w.key));
        if (target) extra.push(joinRow(s.links, w.key, keyOf(target), 0));
      }
    }
    const rows = rowValues(model, w, refs, keyOf);
    for (const field of valueTableFields(w)) {
      // A collection kept in its own table: its rows are written anew from the JSON array.
      if (w.mode === "update") (extra.push(deleteValues(field, w.key)), changed.add(w));
      extra.push(insertValues(field, w.key, value(w.node.values.get(field.name) ?? null)));
    }
    if (w.mode === "create") {
      w.meta.tables.forEach((table, i) => {
        const values = rows.get(table) ?? new Map<string, Slot>();
        const columns: [string, Slot][] = w.meta.keyColumns.map((c, j) => [c, w.key[j]!]);
        if (i === 0 && w.meta.discriminator) columns.push([w.meta.discriminator.column, value(w.meta.discriminator.values[w.meta.name]!)]);
        if (i === 0 && w.meta.version) columns.push([w.meta.version.column, value(1)]);
        for (const [c, v] of values) if (!columns.some(([k]) => k.toLowerCase() === c.toLowerCase())) columns.push([c, v]);
        inserts.add(table, columns);
      });
    } else {
      for (const [table, values] of rows) {
        if (!values.size) continue;
        const sets = [...values];
        const update = updateRow(w, table, sets);
        out.push(update);
        if (table === w.meta.primaryTable) primaryUpdates.set(w, { update, sets });
        changed.add(w);
      }
    }
  }
  const diagnose = () => orphans?.diagnose(checks) ?? diagnosis(model, checks, []);
  const primaryUpdate = (w: WriteNode) => primaryUpdates.get(w)?.update;
  const created = inserts.statements();
  const own = writes.length === 1 && !orphans && !extra.length && !created.length && out.length === 1 ? primaryUpdates.get(writes[0]!) : undefined;
  if (own && own.update === out[0] && stepsInOwnRow(model, writes[0]!, own.sets)) {
    // One existing object's own row and nothing else: its version steps in that row's UPDATE,
    // which checks the row's class, where a step statement would find the row by its key alone.
    const update = updateRow(writes[0]!, writes[0]!.meta.primaryTable!, own.sets, true);
    primaryUpdates.set(writes[0]!, { update, sets: own.sets });
    return { statements: [update], diagnose, primaryUpdate };
  }
  for (const w of changed) steps.written(w);
  // The steps read the rows as they were, so they come before every change.
  const stepping = steps
    .finish()
    .statements()
    .map((s) => shaped(s.shape, s.values, s.sql));
  if (!orphans) return { statements: [...stepping, ...created, ...out, ...extra], diagnose, primaryUpdate };
  const after = [...orphans.after];
  after.splice(orphans.accessAt, 0, ...cascadeGuards(orphans.roots));
  return { statements: [orphans.fill, ...stepping, ...created, ...out, ...extra, ...after], diagnose, primaryUpdate };
}

/**
 * `UPDATE` of an existing object's row in `table`, found by its key; in the table that says each
 * row's class (its discriminator), only a row of exactly its class, as the existence guard checks
 * it: so an update changes a row exactly when the guard would pass, and the count of rows it
 * changed can stand for that guard (src/service/write.ts, `plan`).
 */
function updateRow(w: WriteNode, table: string, sets: readonly [string, Slot][], stepVersion = false): Statement {
  const disc = table === w.meta.primaryTable ? w.meta.discriminator?.values[w.meta.name] : undefined;
  const slots = [...sets.map(([, v]) => v), ...w.key];
  if (disc !== undefined) slots.push(value(disc));
  const column = disc === undefined ? "" : w.meta.discriminator!.column;
  const version = stepVersion ? w.meta.version!.column : "";
  return shaped(`update|${table}|${sets.map(([c]) => c).join(",")}|${column}|${version}`, slots, (slot) => {
    const assignments = sets.map(([c], i) => sql`${ident(c)} = ${slot(i)}`);
    if (version) assignments.push(sql`${ident(version)} = COALESCE(${ident(version)}, 0) + 1`);
    const ofClass = disc === undefined ? sql`` : sql` AND ${ident(column)} = ${slot(slots.length - 1)}`;
    return sql`UPDATE ${ident(table)} SET ${join(assignments)} WHERE ${keyEquals(w.meta.keyColumns, range(slot, sets.length, w.key.length))}${ofClass}`;
  });
}

/**
 * Whether an update of `w`'s primary-table row that sets `sets`, and nothing else, can also step
 * its version: the object is versioned in that row (every versioned class of its subtree keeps
 * the same column there, so the separate step would touch that row alone), names no relation
 * (whose other side would step too) and does not set the version itself.
 */
function stepsInOwnRow(model: Model, w: WriteNode, sets: readonly [string, Slot][]): boolean {
  const version = w.meta.version;
  if (w.mode !== "update" || !version || w.node.refs.size || w.node.many.size) return false;
  if (sets.some(([c]) => c.toLowerCase() === version.column.toLowerCase())) return false;
  return subtree(model, w.meta.name).every((c) => !c.version || (c.primaryTable === w.meta.primaryTable && c.version.column === version.column));
}

/** Column values per table for the fields present (all fields when creating). */
function rowValues(model: Model, w: WriteNode, refs: Map<string, GraphNode | null>, keyOf: (n: GraphNode) => Slot[]): Map<string, Map<string, Slot>> {
  const rows = new Map<string, Map<string, Slot>>();
  const set = (table: string, column: string, slot: Slot) => {
    if (!rows.has(table)) rows.set(table, new Map());
    rows.get(table)!.set(column, slot);
  };
  const NULL = value(null);
  for (const table of w.meta.tables) rows.set(table, new Map());
  for (const [name, table] of w.meta.fieldTables) {
    const field = w.meta.fields.get(name)!;
    if (field.primaryKey) continue;
    if (field.fkColumns) {
      if (!refs.has(name)) {
        if (w.mode === "create") field.fkColumns.forEach((c) => set(table, c, NULL));
        continue;
      }
      const target = refs.get(name);
      const key = target ? keyOf(target) : undefined;
      field.fkColumns.forEach((c, i) => set(table, c, key ? key[i]! : NULL));
    } else if (field.embeddedColumns) {
      if (!w.node.values.has(name) && w.mode === "update") continue;
      const record = (w.node.values.get(name) ?? null) as Record<string, unknown> | null;
      for (const [sub, column] of Object.entries(field.embeddedColumns)) set(table, column, value(record?.[sub] ?? null));
    } else if (field.column) {
      if (w.node.values.has(name)) set(table, field.column, value(w.node.values.get(name)));
      else if (w.mode === "create") set(table, field.column, value(defaultValue(field)));
    }
  }
  return rows;
}

/** The collections kept in tables of their own that the body of `w` gives. */
function valueTableFields(w: WriteNode): FieldMeta[] {
  return [...w.meta.fieldTables.keys()].map((n) => w.meta.fields.get(n)!).filter((f) => f.valueTable && w.node.values.has(f.name));
}

/** The rows of a collection kept in its own table for one owner go (an update writes them anew). */
function deleteValues(field: FieldMeta, owner: Slot[]): Statement {
  const s = field.valueTable!;
  return shaped(
    `unvalue|${s.table}|${s.ownerColumns.join(",")}`,
    owner,
    (slot) => sql`DELETE FROM ${ident(s.table)} WHERE ${ownerMatch(field, range(slot, 0, owner.length))}`,
  );
}

/** One owner's rows of a collection kept in its own table, from its JSON array text: one statement. */
function insertValues(field: FieldMeta, owner: Slot[], array: Slot): Statement {
  const s = field.valueTable!;
  const slots = [...owner, array];
  return shaped(`values|${s.table}|${s.ownerColumns.join(",")}|${s.valueColumn}|${s.orderColumn ?? ""}`, slots, (slot) =>
    insertValueRows(field, range(slot, 0, owner.length), slot(owner.length)),
  );
}

function defaultValue(field: FieldMeta): unknown {
  if (field.type.kind === "basic" && field.type.primitive) return DEFAULTS[field.type.basic] ?? null;
  if (field.type.kind === "key") return "";
  return null;
}

/** The link rows of a join table that name `owner` (in `columns`) go: an update writes them anew. */
function deleteLinks(table: string, columns: readonly string[], owner: Slot[]): Statement {
  return shaped(
    `unlink|${table}|${columns.join(",")}`,
    owner,
    (slot) => sql`DELETE FROM ${ident(table)} WHERE ${keyEquals(columns, range(slot, 0, owner.length))}`,
  );
}

/** The link rows of a join table that name any of `keys` (existing objects', given as values) go: one statement, one JSON value. */
function unlinkAll(table: string, columns: readonly string[], keys: readonly Slot[][]): Statement {
  const values = JSON.stringify(keys.map((k) => k.map((s) => (s as { value: unknown }).value)));
  return shaped(
    `unlink-all|${table}|${columns.join(",")}`,
    [value(values)],
    (slot) => sql`DELETE FROM ${ident(table)} WHERE ${tuple(columns.map((c) => ident(c)))} IN (${jsonKeys(columns.length, slot(0))})`,
  );
}

/** A link row, in the table as its owning side declares it (`index`: the position in an owning list). */
function joinRow(s: JoinTable, owner: Slot[], element: Slot[], index: number | undefined): Statement {
  const columns = [...s.ownerColumns, ...s.elementColumns];
  const slots = [...owner, ...element];
  const ordered = s.orderColumn !== undefined;
  // A given position, or after the owner's last link.
  if (ordered && index !== undefined) slots.push(value(index));
  const key = `link|${s.table}|${columns.join(",")}|${ordered ? (index !== undefined ? "at" : "last") : ""}`;
  return shaped(key, slots, (slot) => {
    const values = range(slot, 0, columns.length);
    if (ordered) {
      values.push(
        index !== undefined
          ? slot(columns.length)
          : sql`(SELECT COALESCE(MAX(${ident(s.orderColumn!)}) + 1, 0) FROM ${ident(s.table)} WHERE ${keyEquals(s.ownerColumns, range(slot, 0, owner.length))})`,
      );
    }
    return sql`INSERT INTO ${ident(s.table)} (${join([...columns, ...(ordered ? [s.orderColumn!] : [])].map((c) => ident(c)))}) VALUES (${join(values)})`;
  });
}

/** Elements that left an inverse collection no longer point at its owner (their steps: WriteSteps.relation). */
function releaseInverse(model: Model, target: ClassMeta, s: Extract<RelationStorage, { kind: "target-fk" }>, owner: Slot[], keep: Slot[][]): Statement[] {
  const slots = [...owner, ...keep.flat()];
  return holdingTables(model, s.owning).map((table) =>
    // Only rows that still point at the owner: a row that already left changes no more.
    shaped(`release|${table}|${s.columns.join(",")}|${keep.map((k) => k.length).join(",")}`, slots, (slot) => {
      let at = owner.length;
      const kept = keep.map((k) => sql`(${join(range(slot, (at += k.length) - k.length, k.length))})`);
      const notKept = kept.length ? sql` AND ${tuple(target.keyColumns.map((c) => ident(c)))} NOT IN (VALUES ${join(kept)})` : sql``;
      return sql`UPDATE ${ident(table)} SET ${join(s.columns.map((c) => sql`${ident(c)} = NULL`))} WHERE ${keyEquals(s.columns, range(slot, 0, owner.length))}${notKept}`;
    }),
  );
}

/** The target of a one-to-one leaves the other objects that held it through `field`; they step. */
function releaseOneToOne(
  model: Model,
  steps: VersionSteps<Slot>,
  w: WriteNode,
  field: FieldMeta,
  fk: readonly string[],
  target: GraphNode,
  targetSlots: Slot[],
): { statement: Statement; check?: WriteCheck } | undefined {
  // Only the inverse to-one field that covers this object's class is one-to-one: an Insurance.employee
  // may be both Employee.dentalInsurance's and Employee.medicalInsurance's other side.
  const inverse = [...target.meta.fields.values()].find((f) => {
    if (!f.relation || f.type.kind === "collection") return false;
    const s = relationStorage(model, f);
    return s.kind === "target-fk" && s.owning.name === field.name && isAncestor(model, f.relation.target, w.meta.name);
  });
  if (!inverse) return undefined;
  const table = w.meta.fieldTables.get(field.name)!;
  const scope = classOf(model, inverse.relation!.target);
  const primary = scope.primaryTable!;
  const slots = [...targetSlots, ...w.key];
  const where = (slot: At) => {
    const others = sql`${keyEquals(fk, range(slot, 0, targetSlots.length))} AND NOT ${keyEquals(w.meta.keyColumns, range(slot, targetSlots.length, w.key.length))}`;
    if (!scope.discriminator) return others;
    const values = subtree(model, scope.name).map((c) => sql`${c.discriminator?.values[c.name] ?? c.name}`);
    // Correlated, so only the rows that held the target are looked up (not every row of the class).
    const sameRow = join(
      w.meta.keyColumns.map((c) => sql`${qualified("x_d", c)} = ${qualified(table, c)}`),
      sql` AND `,
    );
    return sql`${others} AND EXISTS (SELECT 1 FROM ${ident(primary)} ${ident("x_d")} WHERE ${sameRow} AND ${oneOf(qualified("x_d", scope.discriminator.column), values)})`;
  };
  const shape = `release-one|${table}|${field.name}|${scope.name}`;
  const statement = shaped(shape, slots, clearReference(steps, table, fk, shape, slots, where));
  if (field.nullable) return { statement };
  const piece = {
    shape: `handover-required|${shape}`,
    slots,
    sql: (slot: At) => onStoredTables(() => sql`SELECT 1 FROM ${tableRef(table)} WHERE ${where(slot)}`),
  };
  return { statement, check: { holder: field.declaringClass, field: field.name, released: true, handover: true, piece } };
}
