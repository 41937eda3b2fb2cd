/**
 * Write statements by shape: a statement's text depends on its kind, tables and columns, and on
 * whether each slot is a value or a sequence number; a request's values fill its placeholders.
 */
import { type Compiled, type SQL, bind, compile, ident, sql, tuple } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { STATEMENT_SHAPE_LIMIT, STATEMENT_SHAPE_WEIGHT, processCache } from "../cache/bounded-cache.ts";
import { SEQUENCE_TABLE } from "../store/reserved-tables.ts";
import type { Slot } from "./write-node.ts";
import { withFields } from "../util/objects.ts";

/**
 * Drivers bind a JavaScript number as a REAL (all of them: the embedded binding, @libsql/client,
 * D1), and integer arithmetic with a REAL is a double's: past 2^53 it rounds. Numbers that take
 * part in a key's arithmetic are made integers first.
 */
export const int = (x: SQL): SQL => sql`CAST(${x} AS INTEGER)`;
const seqExpr = (count: SQL, index: SQL, name: SQL): SQL =>
  sql`(SELECT next_value - ${int(count)} + ${int(index)} FROM ${ident(SEQUENCE_TABLE)} WHERE name = ${name})`;

/**
 * Compiled write statements by shape: the statement kind, its table and columns, and whether each
 * slot is a value or a sequence number. A request's values fill the placeholders of its shape, so
 * the statements of a write are built and compiled once per shape, not per request.
 */
const shapes = processCache<Compiled>("statementShapes", STATEMENT_SHAPE_LIMIT, {
  limit: STATEMENT_SHAPE_WEIGHT,
  weigh: (key, c) => key.length + c.sql.length,
});

/** The statement of shape `key` over `slots`; `build` writes its SQL from each slot's placeholders (on a first use only). */
export function shaped(key: string, slots: readonly Slot[], build: (slot: (i: number) => SQL) => SQL, values?: Record<string, unknown>): Statement {
  const shape = `${key}\u0000${slotPattern(slots)}`;
  const compiled = shapes.get(shape, () => compile(build(slotPlaceholders(slots))));
  return bind(compiled, values ? withFields(values, slotValues(slots)) : slotValues(slots));
}

/** Which slots are values (`v`) and which sequence numbers (`s`): what a shape depends on. */
export const slotPattern = (slots: readonly Slot[]): string => slots.map((s) => (s.kind === "value" ? "v" : "s")).join("");

/** Slot `i` as SQL with placeholders (`s<i>`, or `s<i>c`, `s<i>i`, `s<i>n` for a sequence number). */
export function slotPlaceholders(slots: readonly Slot[]): (i: number) => SQL {
  return (i) =>
    slots[i]!.kind === "value"
      ? sql`${sql.placeholder(`s${i}`)}`
      : seqExpr(sql`${sql.placeholder(`s${i}c`)}`, sql`${sql.placeholder(`s${i}i`)}`, sql`${sql.placeholder(`s${i}n`)}`);
}

/** The values of `slotPlaceholders`' placeholders. */
export function slotValues(slots: readonly Slot[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  slots.forEach((s, i) => {
    if (s.kind === "value") values[`s${i}`] = s.value;
    else Object.assign(values, { [`s${i}c`]: s.count, [`s${i}i`]: s.index, [`s${i}n`]: s.name });
  });
  return values;
}

/** A slot of a value bound as it is. */
export const value = (v: unknown): Slot => ({ kind: "value", value: v });

/** Slot placeholders `from` … `from + n - 1`. */
export const range = (slot: (i: number) => SQL, from: number, n: number): SQL[] => Array.from({ length: n }, (_, i) => slot(from + i));

/** `(a, b) = (x, y)`, or `a = x`. */
export function keyEquals(columns: readonly string[], key: readonly SQL[]): SQL {
  return sql`${tuple(columns.map((c) => ident(c)))} = ${tuple(key)}`;
}
