/**
 * The version steps of a write batch (src/write/version-steps.ts): the existing objects it writes,
 * and the objects on the other side of the relations it rewrites whose links change (a foreign
 * key set or cleared, join-table rows written anew), gathered per relation shape into one
 * condition of three JSON values each, so the batch's step statements (one per versioned table)
 * have as many values whatever the number of objects.
 */
import { type ClassMeta, type FieldMeta, type Model, classOf } from "../metadata/model.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import type { Slot, WriteNode } from "./write-node.ts";
import { VersionSteps, jsonKeys, mirrored } from "./version-steps.ts";

/** A key's values, when every part is known now (an existing object's always are). */
const known = (key: readonly Slot[]): unknown[] | undefined =>
  key.every((s) => s.kind === "value") ? key.map((s) => (s as { value: unknown }).value) : undefined;

const json = (v: unknown): Slot => ({ kind: "value", value: JSON.stringify(v) });

/** The links of one relation shape that a batch rewrites (see VersionSteps.relinked). */
class Links {
  readonly sides: unknown[][] = [];
  readonly links: unknown[][] = [];
  readonly fresh: unknown[][] = [];
  constructor(
    readonly stepped: ClassMeta,
    readonly table: string,
    readonly sideColumns: readonly string[],
    readonly otherColumns: readonly string[],
  ) {}
}

export class WriteSteps {
  readonly steps: VersionSteps<Slot>;
  private readonly links = new Map<string, Links>();
  private readonly own = new Map<ClassMeta, unknown[][]>();

  constructor(private readonly model: Model) {
    this.steps = new VersionSteps<Slot>(model);
  }

  /** `w` is written: an existing object steps. */
  written(w: WriteNode): void {
    const key = known(w.key);
    if (w.mode !== "update" || !key) return;
    if (!this.own.has(w.meta)) this.own.set(w.meta, []);
    this.own.get(w.meta)!.push(key);
  }

  /**
   * `w` is given what its relation field `field` holds now (`elements`; one or none for a to-one):
   * the objects whose JSON shows that relation from the other side and whose link to `w`
   * appears or goes step.
   */
  relation(w: WriteNode, field: FieldMeta, elements: readonly Slot[][]): void {
    const s = relationStorage(this.model, field);
    const target = classOf(this.model, field.relation!.target);
    if (s.kind === "owner-fk") {
      // A foreign key in w's row: the referenced objects show it in a mapped-by field, if any.
      if (mirrored(this.model, field)) this.rewrite(target, w.meta.fieldTables.get(field.name)!, w.meta.keyColumns, s.columns, w, elements);
    } else if (s.kind === "join-table") {
      // The owning side's collection always shows the link; the other side's, when there is one.
      if (s.inverse || mirrored(this.model, field)) this.rewrite(target, s.table, s.ownerColumns, s.elementColumns, w, elements);
    } else {
      // The elements hold the foreign key: those that leave lose their reference to w.
      for (const table of holdingTables(this.model, s.owning)) this.rewrite(target, table, s.columns, target.keyColumns, w, elements);
    }
  }

  private rewrite(
    stepped: ClassMeta,
    table: string,
    sideColumns: readonly string[],
    otherColumns: readonly string[],
    w: WriteNode,
    elements: readonly Slot[][],
  ): void {
    const id = `${stepped.name}|${table}|${sideColumns.join(",")}|${otherColumns.join(",")}`;
    let links = this.links.get(id);
    if (!links) this.links.set(id, (links = new Links(stepped, table, sideColumns, otherColumns)));
    const side = known(w.key);
    // A new object has no links yet: only an existing one's are rewritten.
    if (side && w.mode === "update") links.sides.push(side);
    for (const element of elements) {
      const other = known(element);
      if (!other) continue; // created by this batch: it starts at version 1
      if (side) links.links.push([...side, ...other]);
      else links.fresh.push(other);
    }
  }

  /** The batch's step statements' conditions, once every write is told. */
  finish(): VersionSteps<Slot> {
    for (const [meta, keys] of this.own) this.steps.keysIn(meta, "own", [json(keys)], (at) => jsonKeys(meta.keyColumns.length, at(0)));
    for (const l of this.links.values()) {
      // Only new objects on both sides (a POST of a new graph): no link of an existing object changes, nothing steps.
      if (!l.sides.length && !l.links.length && !l.fresh.length) continue;
      this.steps.relinked(l.stepped, l.table, l.sideColumns, l.otherColumns, [json(l.sides), json(l.links), json(l.fresh)]);
    }
    return this.steps;
  }
}

/** The tables whose rows hold the foreign key of `field` (its class's, and its subclasses' that keep it elsewhere). */
export function holdingTables(model: Model, field: FieldMeta): string[] {
  const tables = new Set<string>();
  for (const c of model.classes.values()) {
    const table = c.fieldTables.get(field.name);
    if (table && c.fields.get(field.name)?.declaringClass === field.declaringClass) tables.add(table);
  }
  return [...tables];
}
