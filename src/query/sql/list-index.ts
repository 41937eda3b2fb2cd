/**
 * JPQL `INDEX(v)` (Jakarta Persistence 3.2 §4.6.17.2.2): the position, from 0, of the list element
 * a variable ranges over. A list of values is a JSON array (a list kept in its own table is read
 * as one, in its order column's order), ranged over by json_each, whose key is the position. A list of objects in an owning join table keeps its positions in the order
 * column: the variable's row is joined by key, so its position is read from the join table's row
 * of (owner, element); an element in the list twice has its first position.
 */
import { relationStorage } from "../../mapping/relation-storage.ts";
import { type SQL, ident, sql, tableRef } from "../../store/sql.ts";
import { fail } from "../shared/errors.ts";
import type { QExpr } from "../shared/model.ts";
import type { GenContext } from "./context.ts";
import { type EntityRef, keyEquals, keyOf } from "./entities.ts";

/** `entity` compiles the list's owner (the expression compiler's, passed in so that the files import one way). */
export function listIndexSql(e: Extract<QExpr, { kind: "listIndex" }>, ctx: GenContext, entity: (owner: QExpr) => EntityRef): SQL {
  const binding = e.operand.kind === "binding" ? e.operand.binding : undefined;
  const bound = binding && ctx.lookup(binding);
  if (bound?.kind === "value" && bound.key) return bound.key;
  const source = binding?.source;
  if (bound?.kind === "entity" && source?.kind === "field" && source.field.relation) {
    const s = relationStorage(ctx.model, source.field);
    const order = s.kind === "join-table" && !s.inverse ? s.links.orderColumn : undefined;
    if (s.kind === "join-table" && order) {
      const owner = keyOf(entity(source.from));
      const where = sql`${keyEquals(s.ownerColumns, owner)} AND ${keyEquals(s.elementColumns, keyOf(bound.ref))}`;
      return sql`(SELECT min(${ident(order)}) FROM ${tableRef(s.table)} WHERE ${where})`;
    }
  }
  return fail("INDEX needs a variable joined over a list that keeps its order (a list of values, or a list of objects with an order column)", e.pos);
}
