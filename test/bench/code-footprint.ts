/**
 * Does a statement cost more when much other code runs between two of its calls? The same SQLite
 * read (a JSON object by key, as Extent's GET writes it) is called in a loop, with K distinct small
 * JavaScript functions called once each between two calls, and only the call itself is timed. The
 * functions touch no memory beyond a three-field object, and every one is monomorphic: what grows
 * with K is the code run (instructions, branches, pages of JIT-compiled code), not data.
 *
 * It is the in-process model of what the bench's log (test/bench/README.md) found in servers: the same
 * statement costs more inside Extent's request than in a bare server, and every part of the
 * request (kernel, SQLite, runtime) costs more, none alone; this machine has no hardware counters
 * to show cache or branch misses directly. K rounds alternate, medians of 9.
 *
 *   node --import tsx test/bench/code-footprint.ts [K,K,...]
 *   bun test/bench/code-footprint.ts [K,K,...]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Stmt {
  raw(on: boolean): Stmt;
  get(params: unknown[], options: { queryTimeout: number }): unknown;
  run(params: unknown[]): unknown;
}
interface Db {
  prepare(sql: string): Stmt;
  exec(sql: string): void;
  close(): void;
}

const ROWS = 5000;
const ROUNDS = 9;
const ROUND_MS = 150;

const { default: Database } = (await import("libsql")) as unknown as { default: new (path: string) => Db };
const dir = mkdtempSync(join(tmpdir(), "extent-footprint-"));
const db = new Database(join(dir, "footprint.db"));
db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, a INTEGER, b TEXT)");
const insert = db.prepare("INSERT INTO t VALUES (?, ?, ?, ?)");
db.exec("BEGIN");
for (let i = 1; i <= ROWS; i++) insert.run([i, `name ${i}`, i * 3, `text of row ${i} `.repeat(3)]);
db.exec("COMMIT");
const read = db
  .prepare(
    "SELECT json_object('id', id, 'name', name, 'a', a, 'b', b, 'near', (SELECT count(*) FROM t u WHERE u.id BETWEEN t.id AND t.id + 3)) FROM t WHERE id = ?",
  )
  .raw(true);

type Fn = (o: { a: number; b: number; c: number }) => number;
/** K functions, each its own source text (so its own bytecode and machine code), all alike in cost. */
function distinctFunctions(k: number): Fn[] {
  return Array.from(
    { length: k },
    (_, i) =>
      new Function(
        "o",
        `let s = ${i}; s += o.a * ${i + 1}; s ^= o.b << ${i % 7}; s += (o.c + ${i}) % ${i + 3}; if (s % ${i + 7} === 3) s ^= ${i}; s = (s * ${(i % 11) + 2}) | 0; return s + (o.a > ${i % 5} ? ${i} : -${i});`,
      ) as Fn,
  );
}

const ks = (process.argv[2] ?? "0,100,300,1000,3000").split(",").map(Number);
const sets = new Map(ks.map((k) => [k, distinctFunctions(k)]));
const input = { a: 1, b: 2, c: 3 };
const untimed = { queryTimeout: 0 };
let sink = 0;

/** One round of `ms`: µs per statement call and per whole iteration. */
function round(k: number, ms: number): { statement: number; iteration: number } {
  const fns = sets.get(k)!;
  let inStatement = 0;
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const fn of fns) sink += fn(input);
    const before = performance.now();
    read.get([1 + (calls % ROWS)], untimed);
    inStatement += performance.now() - before;
    calls++;
  }
  return { statement: (inStatement * 1000) / calls, iteration: ((performance.now() - start) * 1000) / calls };
}

for (const k of ks) round(k, 300); // JIT compilation, SQLite's pages
const runs = new Map(ks.map((k) => [k, [] as { statement: number; iteration: number }[]]));
for (let r = 0; r < ROUNDS; r++) for (const k of ks) runs.get(k)!.push(round(k, ROUND_MS));
const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!;
const base = median(runs.get(ks[0]!)!.map((r) => r.statement));
console.log(`${"Bun" in globalThis ? "Bun" : "Node"}: one SQLite read by key, K distinct functions run between two calls (median of ${ROUNDS} rounds)`);
console.log("K      statement µs  ×K=" + ks[0] + "  whole iteration µs");
for (const k of ks) {
  const statement = median(runs.get(k)!.map((r) => r.statement));
  const iteration = median(runs.get(k)!.map((r) => r.iteration));
  console.log(
    `${String(k).padEnd(7)}${statement.toFixed(2).padStart(12)}  ${(statement / base).toFixed(2).padStart(5)}×  ${iteration.toFixed(2).padStart(18)}`,
  );
}
if (sink === 0.5) console.log(); // keeps the functions' results alive
db.close();
rmSync(dir, { recursive: true, force: true });
