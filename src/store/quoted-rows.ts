/**
 * Rows carried as one text of SQL literals: a read wrapped as
 *
 *   WITH q(a0, a1, ...) AS (<the read>) SELECT group_concat(quote(a0) || ',' || quote(a1) ..., ',') FROM q
 *
 * answers one row whatever the number of rows it reads, and SQLite's quote() writes every storage
 * class without loss: integers and NULL as they are, reals in as many digits as read back the same
 * double (`3.00000000000000044e-01`, `Inf`), text between single quotes (doubled inside), blobs as
 * X'hex'. The embedded store reads rows this way because the `libsql` binding (0.5 and 0.6) keeps
 * about 930 bytes of native memory for every call of its row iterator, which nothing frees, while
 * fetching one row (`get`) keeps none; the text is also faster to read than the iterator's rows.
 */

/** The wrapper of a read of `width` columns (its `?` parameters stay where they were). */
export function quotedRowsSql(sql: string, width: number): string {
  const names = Array.from({ length: width }, (_, i) => `a${i}`);
  return `WITH q(${names.join(", ")}) AS (${sql}) SELECT group_concat(${names.map((n) => `quote(${n})`).join(" || ',' || ")}, ',') FROM q`;
}

/** The rows of a wrapper's text (null when the read found none), `width` values each. */
export function decodeQuotedRows(text: string | null, width: number): unknown[][] {
  const rows: unknown[][] = [];
  if (!text) return rows;
  let row: unknown[] = [];
  const end = text.length;
  for (let i = 0; i < end; i++) {
    const first = text.charCodeAt(i);
    let value: unknown;
    if (first === QUOTE) {
      // Text: up to the quote that is not doubled.
      let out = "";
      let from = i + 1;
      for (;;) {
        const at = text.indexOf("'", from);
        if (text.charCodeAt(at + 1) === QUOTE) {
          out += text.slice(from, at + 1);
          from = at + 2;
        } else {
          out += text.slice(from, at);
          i = at + 1;
          break;
        }
      }
      value = out;
    } else if (first === X && text.charCodeAt(i + 1) === QUOTE) {
      const close = text.indexOf("'", i + 2);
      const bytes = new Uint8Array((close - i - 2) / 2);
      for (let b = 0; b < bytes.length; b++) bytes[b] = parseInt(text.slice(i + 2 + 2 * b, i + 4 + 2 * b), 16);
      value = bytes;
      i = close + 1;
    } else {
      let comma = text.indexOf(",", i);
      if (comma < 0) comma = end;
      const literal = text.slice(i, comma);
      value = literal === "NULL" ? null : literal === "Inf" ? Infinity : literal === "-Inf" ? -Infinity : Number(literal);
      i = comma;
    }
    row.push(value);
    if (row.length === width) {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

const QUOTE = 39;
const X = 88;
