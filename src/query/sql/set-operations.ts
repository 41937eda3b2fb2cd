/**
 * JPQL 3.2 set operations in SQLite: `left op right` over two projections whose columns are
 * named `r0`, `r1`... (src/query/sql/select.ts names every projection's columns so), and the
 * ORDER BY of the combined rows.
 *
 * SQLite has UNION [ALL], INTERSECT and EXCEPT, but neither INTERSECT ALL nor EXCEPT ALL. Those
 * keep duplicates by count: a row m times on the left and n times on the right is min(m, n)
 * times in the INTERSECT ALL and max(m - n, 0) times in the EXCEPT ALL. Numbering the copies of
 * each row (ROW_NUMBER() over a partition by every column) makes every copy distinct, so that the
 * set operation on (row, copy number) pairs keeps exactly those copies: the first min(m, n) copies
 * are on both sides, copies n + 1 ... m only on the left. Partitions, like set operations, take
 * NULLs as equal.
 */
import { type SQL, join, sql } from "../../store/sql.ts";

export interface SetOrderItem {
  /** The first column of the result item ordered by, and how many columns it takes (an object's key parts). */
  column: number;
  width: number;
  descending: boolean;
  nulls?: "first" | "last";
}

const columnNames = (width: number): SQL[] => Array.from({ length: width }, (_, i) => sql.raw(`r${i}`));

/** `SELECT * FROM (left) op SELECT * FROM (right)`, each side wrapped so that its own clauses stay its own. */
export function setOperationSql(
  op: "UNION" | "INTERSECT" | "EXCEPT",
  all: boolean,
  left: SQL,
  right: SQL,
  width: number,
  orderBy: readonly SetOrderItem[],
): SQL {
  let combined: SQL;
  if (all && op !== "UNION") {
    const names = columnNames(width);
    const numbered = (side: SQL) => sql`SELECT *, row_number() OVER (PARTITION BY ${join(names)}) AS _copy FROM (${side})`;
    combined = sql`SELECT ${join(names)} FROM (${numbered(left)} ${sql.raw(op)} ${numbered(right)})`;
  } else {
    combined = sql`SELECT * FROM (${left}) ${sql.raw(`${op}${all ? " ALL" : ""}`)} SELECT * FROM (${right})`;
  }
  if (!orderBy.length) return combined;
  const items = orderBy.flatMap((o) =>
    Array.from({ length: o.width }, (_, i) => {
      const nulls = o.nulls ? (o.nulls === "first" ? " NULLS FIRST" : " NULLS LAST") : "";
      return sql.raw(`r${o.column + i}${o.descending ? " DESC" : ""}${nulls}`);
    }),
  );
  return sql`SELECT * FROM (${combined}) ORDER BY ${join(items)}`;
}
