/**
 * The SQL alone: each read operation's statement as Extent runs it (captured) against the
 * statement a person would write for it (hand-sql.ts), on the `libsql` binding in this process,
 * no HTTP and no server around them. Alternating rounds, the median per call, so a busy machine
 * moves both alike. What is left between the two is the SQL itself: its plan, and what it writes.
 * Every one of these reads answers one row (Extent's in one text), fetched with `get`, as Extent
 * fetches it: the binding's `all` would add its row iterator's cost (about 13 µs) to both.
 */
import type { Captured } from "./floor-app.ts";
import { HAND_READS } from "./hand-sql.ts";

export async function measureSqlCost(dbFile: string, captured: Record<string, Captured>, rounds = 9, roundMs = 100): Promise<void> {
  const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => any };
  const db = new Database(dbFile);
  const rows: string[][] = [];
  for (const [name, hand] of Object.entries(HAND_READS)) {
    const extent = captured[name]!.statements[0]!;
    const runs = [
      { stmt: db.prepare(extent.sql).raw(true), params: extent.params },
      { stmt: db.prepare(hand.sql).raw(true), params: hand.params },
    ].map((r) => ({ ...r, times: [] as number[] }));
    for (let round = 0; round < rounds; round++)
      for (const r of runs) {
        let calls = 0;
        const start = performance.now();
        while (performance.now() - start < roundMs) {
          r.stmt.get(r.params);
          calls++;
        }
        r.times.push(((performance.now() - start) * 1000) / calls);
      }
    const [e, h] = runs.map((r) => r.times.sort((a, b) => a - b)[r.times.length >> 1]!);
    rows.push([name, e!.toFixed(0), h!.toFixed(0), `${(h! / e!).toFixed(2)}×`]);
  }
  db.close();
  const head = ["operation", "Extent's SQL µs", "hand-written SQL µs", "/hand (speed)"];
  const widths = head.map((x, i) => Math.max(x.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(`The SQL alone (one statement per read, in process, median of ${rounds} alternating rounds):`);
  console.log([line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n") + "\n");
}
