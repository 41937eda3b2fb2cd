/**
 * A digest of every table of a database, to prove that a refused request changed nothing: the
 * rows of each table (Extent's and the sequence table alike, SQLite's own excluded) are written
 * as JSON, sorted so that row order does not matter, and hashed with SHA-256.
 */
export type RunSql = (text: string, args?: unknown[]) => Promise<unknown[][]>;

export async function databaseDigest(sql: RunSql): Promise<string> {
  const tables = (await sql("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")).map((r) => String(r[0]));
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql(`SELECT * FROM "${table.replaceAll('"', '""')}"`);
    const lines = rows
      .map((row) =>
        JSON.stringify(row, (_, v) =>
          typeof v === "bigint" ? `${v}n` : v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? [...new Uint8Array(v as ArrayBuffer)] : v,
        ),
      )
      .sort();
    parts.push(`${table}\n${lines.join("\n")}`);
  }
  const bytes = new TextEncoder().encode(parts.join("\n\n"));
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
}
