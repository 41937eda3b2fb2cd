/**
 * What a PUT deletes and refuses besides what it writes: the objects it releases from a relation
 * with orphan removal (JDO `dependent`, `dependent-element`; JPA `orphanRemoval`) are deleted,
 * with whatever their own dependent relations take along (src/write/cascade-plan.ts); an object
 * it releases from a mapped-by collection whose reference is required, without orphan removal,
 * refuses the batch (409).
 *
 * The released objects are read inside the batch, before anything changes: the objects the
 * relation links the written object to now, less those the body names (anywhere in it: an object
 * that moves to another owner in the same request is not an orphan).
 */
import { type ClassMeta, type FieldMeta, type Model, classOf } from "../metadata/model.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import { type SQL, compile, bind, ident, join, literal, onStoredTables, qualified, sql, tableRef, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import type { Slot, WriteNode } from "./write-node.ts";
import { VersionSteps, jsonKeys } from "./version-steps.ts";
import { holdingTables } from "./write-steps.ts";
import { shaped, slotPlaceholders, slotValues } from "./shaped.ts";
import { closure, countRequired, deletionParts, doomedKeys, emptyDoomed, fillDoomed, guardRequired, links, modelTag, reachableRoots } from "./cascade-plan.ts";
import { guardInsert } from "../mapping/migrate.ts";

/** A piece of SQL over its own slots, placed among others' by an offset. */
export interface Piece {
  shape: string;
  slots: readonly Slot[];
  sql: (slot: (i: number) => SQL) => SQL;
}

/** Pieces combined into one statement's SQL (`build` joins them), their slots one after another. */
function combined(pieces: readonly Piece[], build: (parts: SQL[]) => SQL): { shape: string; slots: Slot[]; sql: (slot: (i: number) => SQL) => SQL } {
  const slots = pieces.flatMap((p) => p.slots);
  return {
    shape: pieces.map((p) => `${p.shape}:${p.slots.length}`).join(";"),
    slots,
    sql: (slot) => {
      let offset = 0;
      return build(
        pieces.map((p) => {
          const at = offset;
          offset += p.slots.length;
          return p.sql((i) => slot(at + i));
        }),
      );
    },
  };
}

/** A required reference a write would break, counted when the batch is refused. */
export interface WriteCheck {
  holder: string;
  field: string;
  released: boolean;
  /** The check of a one-to-one target handed to another object, whose previous holder's reference is required. */
  handover?: true;
  piece: Piece;
}

/**
 * A guard (`required`) refusing the batch when the mapped-by collection `field` of `owner` would
 * release objects (those not among `keep`) whose reference `s.owning` is required.
 */
export function releaseCheck(model: Model, field: FieldMeta, owner: readonly Slot[], keep: readonly Slot[][]): WriteCheck | undefined {
  const s = relationStorage(model, field);
  if (s.kind !== "target-fk" || s.owning.nullable || field.orphanRemoval) return undefined;
  const target = classOf(model, field.relation!.target);
  const tables = holdingTables(model, s.owning);
  const piece: Piece = {
    shape: `release-required|${tables.join(",")}|${s.columns.join(",")}|${target.keyColumns.join(",")}|${keep.map((k) => k.length).join(",")}`,
    slots: [...owner, ...keep.flat()],
    sql: (slot) =>
      onStoredTables(() => {
        let at = owner.length;
        const kept = keep.map((k) => {
          const from = at;
          at += k.length;
          return sql`(${join(k.map((_, i) => slot(from + i)))})`;
        });
        const ownerEq = tuple(owner.map((_, i) => slot(i)));
        const notKept = kept.length ? sql` AND ${tuple(target.keyColumns.map((c) => ident(c)))} NOT IN (VALUES ${join(kept)})` : sql``;
        return join(
          tables.map((t) => sql`SELECT 1 FROM ${tableRef(t)} WHERE ${tuple(s.columns.map((c) => ident(c)))} = ${ownerEq}${notKept}`),
          sql` UNION ALL `,
        );
      }),
  };
  return { holder: s.owning.declaringClass, field: s.owning.name, released: true, piece };
}

/** The guard statement of a check. */
export const checkGuard = (check: WriteCheck): Statement =>
  shaped(check.piece.shape, check.piece.slots, (slot) => guardInsert("required", sql`EXISTS (${check.piece.sql(slot)})`));

/** The deletion of the objects a write releases from relations with orphan removal. */
export interface OrphanDeletion {
  /** Fills the doomed set: before the batch's version steps. */
  fill: Statement;
  /** After the writes: the required guards, then (at `accessAt`) the access rules' guards, the changes, the rows, the doomed set emptied. */
  after: Statement[];
  accessAt: number;
  roots: string[];
  /** The read counting what the required checks find, given the write's other checks (a refused batch's diagnosis). */
  diagnose: (checks: readonly WriteCheck[]) => Diagnosis;
}

/** A refused write's diagnosis: the read, and the checks it counts in its order. */
export interface Diagnosis {
  diagnose: Statement;
  required: { holder: string; field: string; released: boolean; handover?: true }[];
}

/** The orphan deletion of `writes`, its steps added to `steps`; undefined when no relation with orphan removal is written. */
export function orphanDeletion(model: Model, writes: readonly WriteNode[], steps: VersionSteps<Slot>): OrphanDeletion | undefined {
  const seeds: Piece[] = [];
  const targets: ClassMeta[] = [];
  for (const w of writes) {
    if (w.mode !== "update") continue;
    const fields = [...w.node.many.keys(), ...w.node.refs.keys()].map((name) => w.meta.fields.get(name)!).filter((f) => f.relation && f.orphanRemoval);
    for (const field of fields) {
      const target = classOf(model, field.relation!.target);
      targets.push(target);
      // Every existing object of the target's hierarchy that the body names stays.
      const named = writes.filter((n) => n.mode === "update" && n.meta.root === target.root).map((n) => n.key.map((s) => (s as { value: unknown }).value));
      for (const link of links(model, w.meta, field)) seeds.push(seed(target, link, w.key, JSON.stringify(named)));
    }
  }
  if (!seeds.length) return undefined;
  const roots = reachableRoots(
    model,
    targets.map((t) => t.root),
  );
  const shape = `orphans|${modelTag(model)}|${roots.join(",")}`;
  const parts = deletionParts(
    model,
    roots.map((r) => ({ scope: classOf(model, r), keys: doomedKeys(model, r) })),
    steps,
    shape,
  );
  const fillPiece = combined(seeds, (parts) => fillDoomed(model, parts));
  const whole = (name: string, q: SQL): Statement => shaped(`${shape}|${name}`, [], () => q);
  const required = parts.required.map((c, i) => whole(`required${i}|${c.holder}.${c.field}`, guardRequired(c)));
  const diagnose = (others: readonly WriteCheck[]) => {
    // Over the state before the batch: the doomed keys from the closure recomputed inline.
    const inline = deletionParts(
      model,
      roots.map((r) => ({ scope: classOf(model, r), keys: doomedKeys(model, r, "closure") })),
      new VersionSteps<Slot>(model),
    ).required.map((c) => ({ holder: c.holder, field: c.field, released: false, piece: { shape: "", slots: [], sql: () => c.rows } }));
    return diagnosis(model, [...others, ...inline], seeds);
  };
  return {
    fill: shaped(`${shape}|fill|${fillPiece.shape}`, fillPiece.slots, fillPiece.sql),
    after: [
      ...required,
      ...parts.changes.map((q, i) => whole(`change${i}`, q)),
      ...parts.rows.map((q, i) => whole(`rows${i}`, q)),
      whole("empty", emptyDoomed()),
    ],
    accessAt: required.length,
    roots,
    diagnose,
  };
}

/** The objects `link` ties `owner` to now, less the JSON list of keys `named`: (root, key) rows. */
function seed(target: ClassMeta, link: { table: string; owner: readonly string[]; taken: readonly string[] }, owner: readonly Slot[], named: string): Piece {
  return {
    shape: `orphan-seed|${link.table}|${link.owner.join(",")}|${link.taken.join(",")}|${target.root}`,
    slots: [...owner, { kind: "value", value: named }],
    sql: (slot) =>
      onStoredTables(() => {
        const taken = link.taken.map((c) => qualified("x_o", c));
        const ownerEq = sql`${tuple(link.owner.map((c) => qualified("x_o", c)))} = ${tuple(owner.map((_, i) => slot(i)))}`;
        return sql`SELECT ${literal(target.root)}, json_array(${join(taken)}) FROM ${tableRef(link.table)} ${ident("x_o")} WHERE ${ownerEq} AND ${taken[0]!} IS NOT NULL AND ${tuple(taken)} NOT IN (${jsonKeys(taken.length, slot(owner.length))})`;
      }),
  };
}

/** The read that counts what each check finds, the closure of `seeds` (if any) inline. */
export function diagnosis(model: Model, checks: readonly WriteCheck[], seeds: readonly Piece[]): Diagnosis {
  const all = combined([...seeds, ...checks.map((c) => c.piece)], (parts) => {
    const seedParts = parts.slice(0, seeds.length);
    const rows = parts.slice(seeds.length).map((q, i) => ({ holder: checks[i]!.holder, field: checks[i]!.field, rows: q }));
    return sql`${seedParts.length ? closure(model, seedParts) : sql``}${countRequired(rows)}`;
  });
  // An error path, and rare: compiled for this request alone.
  return {
    diagnose: bind(compile(all.sql(slotPlaceholders(all.slots))), slotValues(all.slots)),
    required: checks.map(({ holder, field, released, handover }) => ({ holder, field, released, ...(handover ? { handover } : {}) })),
  };
}
