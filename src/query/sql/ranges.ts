/**
 * Variables in generated SQL: what each of a query's variables ranges over (the collection of a
 * `contains`, the keys or values of a map, else its class's extent), bound in the order their
 * ranges allow, and the `EXISTS` that a condition over variables not bound yet becomes. The
 * expression compiler (expressions.ts) extends it with values and conditions.
 */
import { type ClassMeta, subtree } from "../../metadata/model.ts";
import { type GroupLayout, discriminatorFilter } from "../../read/row-layout.ts";
import { type SQL, ident, join, sql } from "../../store/sql.ts";
import { fail } from "../shared/errors.ts";
import type { Binding, QExpr } from "../shared/model.ts";
import { forEachChild } from "../shared/walk.ts";
import type { GenContext } from "./context.ts";
import { fromItem, rowInFrom, singleGroup } from "./entities.ts";
import { CollectionCompiler } from "./collections.ts";

export abstract class RangeCompiler extends CollectionCompiler {
  abstract cond(e: QExpr, ctx: GenContext, truth?: boolean): SQL;

  /** A condition over variables not bound yet: `EXISTS` over their ranges, the items left its WHERE. */
  protected existsOver(vars: Binding[], items: QExpr[], ctx: GenContext): SQL {
    const inner = ctx.child();
    const from: SQL[] = [];
    const where: SQL[] = [];
    const ranges = this.bindRanges(vars, items, inner, from, where);
    where.push(...items.filter((i) => !ranges.has(i)).map((i) => this.cond(i, inner, true)));
    return sql`EXISTS (SELECT 1 FROM ${join(from, sql`, `)}${where.length ? sql` WHERE ${join(where, sql` AND `)}` : sql``})`;
  }

  /**
   * Binds `vars` in `ctx`, each over its range: the collection of a `coll.contains(v)` among
   * `items` (or the map of a `containsKey(v)`/`containsValue(v)`), else its class's extent. A
   * range is compiled only once every variable it names is bound, so the variables are taken in
   * the order their ranges allow, whatever order the query declares or writes them in
   * (`a.friends.contains(b) && people.contains(a)` binds a, then b); when no range is ready (none
   * left, or ranges naming each other) an entity variable is taken from its extent, and the
   * memberships not used stay conditions. Returns the items used as ranges.
   */
  bindRanges(vars: readonly Binding[], items: readonly QExpr[], ctx: GenContext, from: SQL[], where: SQL[]): Set<QExpr> {
    const used = new Set<QExpr>();
    const ready = (e: QExpr) => !unboundVariables(e, ctx).length;
    const rangeOf = (v: Binding) =>
      items.find((i) => !used.has(i) && i.kind === "contains" && i.element.kind === "binding" && i.element.binding === v && ready(i.collection)) ??
      items.find(
        (i) =>
          !used.has(i) &&
          ((i.kind === "containsKey" && i.key.kind === "binding" && i.key.binding === v) ||
            (i.kind === "containsValue" && i.value.kind === "binding" && i.value.binding === v)) &&
          ready(i.map),
      );
    const pending = [...vars];
    while (pending.length) {
      let v = pending.find((p) => rangeOf(p));
      const range = v && rangeOf(v);
      v ??= pending.find((p) => p.type.kind === "entity") ?? pending[0]!;
      pending.splice(pending.indexOf(v), 1);
      if (range) used.add(range);
      from.push(...this.range(v, range?.kind === "contains" ? range.collection : undefined, range?.kind === "contains" ? undefined : range, ctx, where));
    }
    return used;
  }

  /** FROM items for a variable, binding it in `ctx`; its membership condition goes into `where`. */
  range(v: Binding, collection: QExpr | undefined, mapRange: QExpr | undefined, ctx: GenContext, where: SQL[]): SQL[] {
    const x = ctx.nextAlias();
    if (mapRange && (mapRange.kind === "containsKey" || mapRange.kind === "containsValue")) {
      const source = this.value(mapRange.map, ctx);
      ctx.bind(v, { kind: "value", value: sql`${ident(x)}.${sql.raw(mapRange.kind === "containsKey" ? "key" : "value")}` });
      return [sql`json_each(${source}) ${ident(x)}`];
    }
    if (v.type.kind === "entity") {
      const meta = v.type.meta;
      const prefix = ctx.prefix();
      const group = singleGroup(ctx.model, meta, v.pos);
      const row = rowInFrom(meta, group, prefix);
      const { ref } = row;
      ctx.bind(v, { kind: "entity", ref });
      const filter = classFilter(ctx, meta, group, prefix);
      if (filter) where.push(filter);
      // A class declared without an extent gives an unconstrained variable nothing to range over.
      if (!collection && !meta.requiresExtent) where.push(sql`0`);
      if (collection) where.push(this.membership(ref, collection, ctx));
      return [fromItem(row)];
    }
    if (!collection) fail(`variable "${v.name}" must be taken from a collection with contains()`, v.pos);
    // json_each in FROM may read columns of the other FROM items and of outer queries; over a map
    // it also gives each entry's key.
    ctx.bind(v, {
      kind: "value",
      value: sql`${ident(x)}.${ident("value")}`,
      // Over a map it is the entry's key; over a list the element's position (JPQL INDEX).
      key: collection.type.kind === "map" || (collection.type.kind === "collection" && collection.type.ordered) ? sql`${ident(x)}.${ident("key")}` : undefined,
    });
    return [sql`json_each(${this.jsonSource(collection, ctx)}) ${ident(x)}`];
  }
}

/** Restricts a group's rows to a class's extent (and, when asked, leaves subclasses out). */
export function classFilter(ctx: GenContext, meta: ClassMeta, group: GroupLayout, prefix: string, excludeSubclasses = false): SQL | undefined {
  return discriminatorFilter(group, excludeSubclasses ? [meta] : subtree(ctx.model, meta.name), prefix);
}

/** Variables an expression uses that no enclosing scope has bound yet. */
export function unboundVariables(e: QExpr, ctx: GenContext): Binding[] {
  return ctx.variables.size ? bindingsIn(e).filter((b) => ctx.variables.has(b) && !ctx.lookup(b)) : [];
}

/**
 * The bindings a subtree names, in the order a walk meets them, worked out once per node: the
 * compiler asks again at every level of a nesting (`!!!!…`), which walked the subtree anew each
 * time, quadratic in the depth (a 1,500-character filter took 1.1 s).
 */
const bindingsOfNode = new WeakMap<QExpr, Binding[]>();
function bindingsIn(e: QExpr): Binding[] {
  let out = bindingsOfNode.get(e);
  if (out) return out;
  const seen = new Set<Binding>(e.kind === "binding" ? [e.binding] : []);
  forEachChild(e, (child) => bindingsIn(child).forEach((b) => seen.add(b)));
  bindingsOfNode.set(e, (out = [...seen]));
  return out;
}
