/**
 * The rows a write creates, one INSERT per table and column list rather than one per row: a POST
 * of an author with twenty books runs one INSERT of twenty rows into each of the books' tables,
 * so a write's statements grow with the kinds of rows it creates, not with the objects.
 *
 * The new rows of one batch can go in any order among themselves: the schema declares no foreign
 * keys (a reference is checked by the write's guards, which come before), and a new row is read by
 * no statement before the batch's read-back. An INSERT binds at most `PARAMETERS_PER_STATEMENT`
 * values (Cloudflare D1 takes no more than 100 in a statement), so a long run of rows is split.
 */
import { ident, join, sql } from "../store/sql.ts";
import type { Statement } from "../store/store.ts";
import { range, shaped } from "./shaped.ts";
import type { Slot } from "./write-node.ts";

/** The most values an INSERT of several rows binds (D1's limit); a single row binds what it needs. */
export const PARAMETERS_PER_STATEMENT = 100;

/** Parameters a slot binds: a value one, a sequence number three (src/write/shaped.ts `seqExpr`). */
const parameters = (slot: Slot): number => (slot.kind === "value" ? 1 : 3);

interface Rows {
  table: string;
  columns: string[];
  rows: Slot[][];
}

export class InsertRows {
  private readonly byColumns = new Map<string, Rows>();

  /** A new row of `table`: its columns and their values, in the order the INSERT names them. */
  add(table: string, columns: readonly [string, Slot][]): void {
    const names = columns.map(([c]) => c);
    const key = `${table}|${names.join(",")}`;
    let rows = this.byColumns.get(key);
    if (!rows) this.byColumns.set(key, (rows = { table, columns: names, rows: [] }));
    rows.rows.push(columns.map(([, v]) => v));
  }

  /** The INSERTs, in the order their tables and column lists first came. */
  statements(): Statement[] {
    const out: Statement[] = [];
    for (const { table, columns, rows } of this.byColumns.values()) {
      for (let from = 0; from < rows.length;) {
        let to = from + 1;
        let bound = rows[from]!.reduce((n, s) => n + parameters(s), 0);
        for (; to < rows.length; to++) {
          const more = rows[to]!.reduce((n, s) => n + parameters(s), 0);
          if (bound + more > PARAMETERS_PER_STATEMENT) break;
          bound += more;
        }
        out.push(insert(table, columns, rows.slice(from, to)));
        from = to;
      }
    }
    return out;
  }
}

/** `INSERT INTO table (columns) VALUES (…), (…)`: a shape per table, columns and number of rows. */
function insert(table: string, columns: readonly string[], rows: readonly Slot[][]): Statement {
  const width = columns.length;
  return shaped(
    `insert|${table}|${columns.join(",")}|${rows.length}`,
    rows.flat(),
    (slot) =>
      sql`INSERT INTO ${ident(table)} (${join(columns.map((c) => ident(c)))}) VALUES ${join(rows.map((_, r) => sql`(${join(range(slot, r * width, width))})`))}`,
  );
}
