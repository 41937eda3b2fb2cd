/**
 * SQL that reads a value more than once (a bound check before `substr`, an overflow test before
 * the result) computes it once: the values become the columns of a one-row derived table, and
 * `body` reads them by name. Repeating a value's SQL instead would run it again for each use and,
 * when such expressions nest, grow the statement exponentially. SQLite evaluates the derived table
 * per outer row (it may read the outer query's columns, aggregates included).
 */
import { type SQL, join, sql } from "../../store/sql.ts";

export function computedOnce(values: readonly SQL[], body: (names: SQL[]) => SQL): SQL {
  const names = values.map((_, i) => sql.raw(`_v${i}`));
  return sql`(SELECT ${body(names)} FROM (SELECT ${join(values.map((v, i) => sql`${v} AS ${names[i]!}`))}))`;
}
