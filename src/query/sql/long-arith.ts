/**
 * Java's long arithmetic in SQLite. SQLite computes integers in 64 bits too, but a result beyond
 * them turns into an approximate double (9223372036854775807 + 1 gives 9.223372036854776e18),
 * where Java wraps around: Long.MAX_VALUE + 1 == Long.MIN_VALUE. So a long +, -, * or / whose
 * exact result leaves 64 bits gives Java's result, the exact one modulo 2^64 in two's complement,
 * computed with operations that cannot overflow (SQLite's shifts and bitwise operators work on
 * the 64 bits, so they wrap). `%` never overflows.
 */
import { type SQL, sql } from "../../store/sql.ts";
import type { ArithOp } from "../shared/model.ts";
import { computedOnce } from "./once.ts";

/** Long.MIN_VALUE as SQLite reads it: the literal 9223372036854775808 alone would be a double. */
const MIN = sql.raw("(-9223372036854775807 - 1)");
const LOW32 = sql.raw("4294967295");
const LOW16 = sql.raw("65535");

export function longArith(op: Exclude<ArithOp, "%">, left: SQL, right: SQL): SQL {
  // Operands as integers: numbers from the query and its parameters are bound as doubles.
  return computedOnce([sql`CAST(${left} AS INTEGER)`, sql`CAST(${right} AS INTEGER)`], ([l, r]) => {
    const result = sql`(${l} ${sql.raw(op)} ${r})`;
    // From two integers, only a result beyond 64 bits is a double.
    return sql`(CASE WHEN typeof(${result}) <> 'real' THEN ${result} ELSE ${wrapped(op, l!, r!)} END)`;
  });
}

/** The result modulo 2^64 of an operation that overflowed. */
function wrapped(op: Exclude<ArithOp, "%">, l: SQL, r: SQL): SQL {
  switch (op) {
    // Both operands had the sign of the overflow: subtracting (or adding) 2^63 from each first
    // takes 2^64 off the sum (or puts it on) without leaving 64 bits.
    case "+":
      return sql`(CASE WHEN ${l} > 0 THEN (${l} + ${MIN}) + (${r} + ${MIN}) ELSE (${l} - ${MIN}) + (${r} - ${MIN}) END)`;
    case "-":
      return sql`(CASE WHEN ${l} >= 0 THEN (${l} + ${MIN}) - (${r} - ${MIN}) ELSE (${l} - ${MIN}) - (${r} + ${MIN}) END)`;
    // Only Long.MIN_VALUE / -1 overflows, and Java answers Long.MIN_VALUE.
    case "/":
      return MIN;
    case "*":
      return product(l, r);
  }
}

/**
 * l * r modulo 2^64 from 32-bit halves (l = a1·2^32 + a0, r = b1·2^32 + b0, each half unsigned):
 * a0·b0 + ((a0·b1 + a1·b0) mod 2^32)·2^32. Products of a 32-bit half and a 16-bit part stay
 * below 2^48; the high word is put in place by a shift, which drops what is beyond 64 bits.
 */
function product(l: SQL, r: SQL): SQL {
  const a0 = sql`(${l} & ${LOW32})`;
  const a1 = sql`((${l} >> 32) & ${LOW32})`;
  const b0 = sql`(${r} & ${LOW32})`;
  const b1 = sql`((${r} >> 32) & ${LOW32})`;
  // a0·b0 = high·2^32 + low, from a0's two 16-bit parts.
  const p = sql`((${a0} & ${LOW16}) * ${b0})`;
  const q = sql`((${a0} >> 16) * ${b0})`;
  const s = sql`((${p} >> 16) + ${q})`;
  const low = sql`(((${s} & ${LOW16}) << 16) | (${p} & ${LOW16}))`;
  const high = sql`(${s} >> 16)`;
  // x·y mod 2^32 for 32-bit halves x and y.
  const low32 = (x: SQL, y: SQL) => sql`((${x} * (${y} & ${LOW16}) + (((${x} * (${y} >> 16)) & ${LOW16}) << 16)) & ${LOW32})`;
  const top = sql`((${high} + ${low32(a0, b1)} + ${low32(b0, a1)}) & ${LOW32})`;
  return sql`((${top} << 32) | ${low})`;
}
