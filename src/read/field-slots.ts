/**
 * The fields of a table group's classes as the slots a row of the group writes: one order that is
 * every class's own (inherited fields first, each class's in declaration order), each slot with
 * the field as each class has it. The JSON select (json-select.ts) writes a row's slots in it.
 */
import { NotInSql } from "../json/sql-values.ts";
import type { ClassMeta, FieldMeta } from "../metadata/model.ts";
import type { GroupLayout } from "./row-layout.ts";

/** A field as the classes of a group have it (each class has its own FieldMeta for an inherited field). */
export interface FieldSlot {
  name: string;
  byClass: Map<ClassMeta, FieldMeta>;
}

const slotsByGroup = new WeakMap<GroupLayout, FieldSlot[]>();

/**
 * The fields of a group's classes in one order that is every class's own order (inherited fields
 * first): each class writes its fields in its declaration order, and a row writes the slots its
 * class has. Cached per group (a model's groups are built once).
 */
export function fieldSlots(group: GroupLayout): FieldSlot[] {
  let slots = slotsByGroup.get(group);
  if (slots) return slots;
  const byId = new Map<string, FieldSlot>();
  const order: FieldSlot[] = [];
  for (const c of group.classes) {
    let last = -1;
    for (const f of c.fields.values()) {
      if (f.primaryKey || f.isVersionField) continue;
      const id = `${f.declaringClass}.${f.name}`;
      let slot = byId.get(id);
      if (!slot) (byId.set(id, (slot = { name: f.name, byClass: new Map() })), order.push(slot));
      slot.byClass.set(c, f);
      const at = order.indexOf(slot);
      if (at < last) throw new NotInSql(`fields of ${c.name} in an order its superclass does not have`);
      last = at;
    }
  }
  slotsByGroup.set(group, (slots = order));
  return slots;
}
