/**
 * `statement()` compiles each shape of statement once: the walk that reads a statement's shape and
 * values off its SQL tree must answer exactly what Drizzle's compiler does, text and parameters in
 * order. (The whole suite was also run with every statement checked against the compiler.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type SQL, bind, compile, ident, join, literal, qualified, sql, statement, tuple } from "../src/store/sql.ts";

const seq = (name: string, count: number, index: number) => sql`(SELECT next_value - ${count} + ${index} FROM ${ident("extent_sequence")} WHERE name = ${name})`;

const QUERIES: [string, SQL][] = [
  ["an insert with values, NULL, bytes and a sequence expression", sql`INSERT INTO ${ident("ITEM")} (${join([ident("id"), ident("title"), ident("cover"), ident("author")])}) VALUES (${join([seq("bench.Item", 5, 2), sql`${"it's"}`, sql`${new Uint8Array([1, 2])}`, sql`NULL`])})`],
  ["an update of a composite key", sql`UPDATE ${ident("PART")} SET ${ident("label")} = ${"x"} WHERE ${tuple([ident("id"), ident("kind")])} = ${tuple([sql`${5}`, sql`${"k"}`])}`],
  ["a literal, an array and a qualified name", sql`SELECT ${literal("a'b")}, ${qualified("t0", "id")} FROM ${ident("T")} t0 WHERE ${qualified("t0", "id")} IN ${[1, 2, 3]}`],
  ["a placeholder", sql`SELECT 1 WHERE ${sql.placeholder("x")} = ${7}`],
  ["no values at all", sql`DELETE FROM ${ident("T")}`],
  ["booleans, numbers and null", sql`SELECT ${true}, ${1.5}, ${null}, ${-0}`],
];

for (const [name, query] of QUERIES) {
  test(`statement() is the compiler's statement: ${name}`, () => {
    const expected = bind(compile(query), { x: 9 });
    const actual = statement(query);
    assert.equal(actual.sql, expected.sql);
    // Placeholders stay placeholders in both (statement() binds nothing); values in the same order.
    assert.equal(actual.params.length, compile(query).params.length);
    if (!name.includes("placeholder")) assert.deepEqual(actual.params, expected.params);
    // Again, from the cache.
    assert.deepEqual(statement(query), actual);
  });
}

test("one shape with other values: the same text, their own values", () => {
  const a = statement(sql`UPDATE ${ident("T")} SET ${ident("v")} = ${1} WHERE ${ident("id")} = ${2}`);
  const b = statement(sql`UPDATE ${ident("T")} SET ${ident("v")} = ${"x"} WHERE ${ident("id")} = ${3}`);
  assert.equal(a.sql, b.sql);
  assert.deepEqual(a.params, [1, 2]);
  assert.deepEqual(b.params, ["x", 3]);
  // A value in a literal is text, not a value: another shape.
  assert.notEqual(statement(sql`SELECT ${literal("a")}`).sql, statement(sql`SELECT ${literal("b")}`).sql);
});
