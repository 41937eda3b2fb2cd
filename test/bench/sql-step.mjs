// One statement run N times on the `libsql` binding, for sql-instructions.ts to count under
// callgrind. Plain JavaScript: under valgrind, TypeScript's loader would take most of the run.
import { readFileSync } from "node:fs";
import Database from "libsql";

const { db, sql, params, calls } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const statement = new Database(db).prepare(sql).raw(true);
for (let i = 0; i < calls; i++) statement.get(params);
