/**
 * Collections inside generated SQL: a collection's elements as a subquery (the foreign key or join
 * table of a relation, the JSON of a collection of values, a parameter's array), in list order
 * when asked, and whether a row is one of them. The variables' ranges (ranges.ts) extend it, and
 * the expression compiler (expressions.ts) extends those with values and conditions.
 */
import { classOf } from "../../metadata/model.ts";
import { relationStorage } from "../../mapping/relation-storage.ts";
import { valueRows } from "../../mapping/value-tables.ts";
import { type SQL, ident, join, qualified, sql, tuple, tableRef } from "../../store/sql.ts";
import { fail } from "../shared/errors.ts";
import type { QExpr } from "../shared/model.ts";
import type { GenContext } from "./context.ts";
import { placeholder } from "./context.ts";
import { type EntityRef, elementByForeignKey, keyEquals, keyOf, rowsOfClass, tableOfField } from "./entities.ts";

export abstract class CollectionCompiler {
  abstract entity(e: QExpr, ctx: GenContext): EntityRef;
  abstract value(e: QExpr, ctx: GenContext): SQL;
  abstract fieldValue(e: Extract<QExpr, { kind: "field" }>, ctx: GenContext): SQL;

  /** A subquery of a collection's elements: their keys (objects) or values; `width` columns. */
  elements(coll: QExpr, ctx: GenContext): { sql: SQL; width: number } {
    if (coll.kind === "param" && coll.type.kind === "collection" && coll.type.element.kind === "entity" && coll.type.element.meta.keyColumns.length > 1) {
      // Objects of a composite key come as arrays of their key parts (params.ts): a column each.
      const width = coll.type.element.meta.keyColumns.length;
      const parts = Array.from({ length: width }, (_, i) => sql`json_extract(value, ${sql.raw(`'$[${i}]'`)})`);
      return { sql: sql`SELECT ${join(parts)} FROM json_each(${this.jsonSource(coll, ctx)})`, width };
    }
    if (coll.kind === "param" || coll.kind === "list") return { sql: sql`SELECT value FROM json_each(${this.jsonSource(coll, ctx)})`, width: 1 };
    if (coll.kind !== "field") fail("contains(), isEmpty() and size() need a collection field or parameter", coll.pos);
    const field = coll.field;
    const rel = field.relation;
    // A collection kept in its own table: its rows, by the owner's index (no JSON array built).
    if (field.valueTable) return { sql: valueRows(field, keyOf(this.entity(coll.from, ctx))), width: 1 };
    if (!rel) {
      // Collections and maps of values are JSON in one column.
      return { sql: sql`SELECT value FROM json_each(${this.fieldValue(coll, ctx)})`, width: 1 };
    }
    const owner = this.entity(coll.from, ctx);
    const ownerKey = keyOf(owner);
    const target = classOf(ctx.model, rel.target);
    const s = relationStorage(ctx.model, field);
    switch (s.kind) {
      case "target-fk":
        return {
          sql: rowsOfClass(
            ctx.model,
            target,
            tableOfField(ctx.model, target, s.owning),
            (x) => target.keyColumns.map((k) => qualified(x, k)),
            (x) => keyEquals(s.columns, ownerKey, x),
            ctx.nextAlias,
          ),
          width: target.keyColumns.length,
        };
      case "join-table":
        return {
          sql: sql`SELECT ${join(s.elementColumns.map((c) => ident(c)))} FROM ${tableRef(s.table)} WHERE ${keyEquals(s.ownerColumns, ownerKey)}`,
          width: s.elementColumns.length,
        };
      default:
        return fail(`${field.name} is not a collection`, coll.pos);
    }
  }

  /**
   * The row `ref` is an element of `collection`: its foreign key equal to the owner's key when
   * the collection is that foreign key (an index search, no subquery), else its key among the
   * collection's elements.
   */
  membership(ref: EntityRef, collection: QExpr, ctx: GenContext): SQL {
    if (collection.kind === "field" && collection.field.relation) {
      const direct = elementByForeignKey(ctx.model, ref, collection.field, () => keyOf(this.entity(collection.from, ctx)));
      if (direct) return direct;
    }
    return sql`${tuple(keyOf(ref))} IN (${this.elements(collection, ctx).sql})`;
  }

  /** A list's elements in list order, as columns `_e0`, `_e1`... */
  protected orderedElements(list: QExpr, ctx: GenContext): SQL {
    if (list.kind === "field" && !list.field.relation) {
      return sql`SELECT value AS _e0 FROM json_each(${this.fieldValue(list, ctx)}) ORDER BY key`;
    }
    const s = list.kind === "field" && list.field.relation ? relationStorage(ctx.model, list.field) : undefined;
    // An owning join table keeps the list's order; a mapped-by side has none of its own.
    if (list.kind === "field" && s?.kind === "join-table" && !s.inverse) {
      const ownerKey = keyOf(this.entity(list.from, ctx));
      return sql`SELECT ${join(s.elementColumns.map((c, i) => sql`${ident(c)} AS ${sql.raw(`_e${i}`)}`))} FROM ${tableRef(s.table)} WHERE ${keyEquals(s.ownerColumns, ownerKey)} ORDER BY ${join(s.order.map((c) => ident(c)))}`;
    }
    const elements = this.elements(list, ctx);
    return sql`SELECT * FROM (${elements.sql})`;
  }

  /** The JSON array a collection of values is: a JSON column, a parameter, a literal list. */
  protected jsonSource(coll: QExpr, ctx: GenContext): SQL {
    if (coll.kind === "param") return placeholder(coll.ref);
    if (coll.kind === "list") return sql`json_array(${join(coll.items.map((i) => this.value(i, ctx)))})`;
    if (coll.kind === "field" && !coll.field.relation) return this.fieldValue(coll, ctx);
    return fail("a variable of values must be taken from a collection of values", coll.pos);
  }
}
