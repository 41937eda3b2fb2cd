/**
 * JPQL features of Jakarta Persistence 3.2 (issue 23, item 4), over HTTP on a real database:
 * ID() and VERSION() as values, TYPE() compared with a parameter and in CASE TYPE(e) WHEN ...,
 * ORDER BY after set operations, INTERSECT ALL and EXCEPT ALL, FUNCTION() over the documented
 * SQLite functions, INDEX() over ordered lists, ENTRY() and embeddables as result items.
 * Queries follow the specification's own examples where it has them (§4.6.8, §4.7.9, §4.7.10).
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startHarness, type Harness, type Reply } from "./support/harness.ts";
import { withParams, ok } from "./support/query-client.ts";

const MODEL = readFileSync(new URL("./models/jpql32/package.jdo", import.meta.url), "utf8");

let h: Harness;
before(async () => {
  h = await startHarness({ metadata: [{ source: "jpql32/package.jdo", text: MODEL }] });
  const seed: [string, unknown][] = [
    ["/j3.Department", { id: 1, name: "Engineering" }],
    ["/j3.Department", { id: 2, name: "Sales" }],
    [
      "/j3.Employee",
      {
        id: 1,
        name: "Ann",
        salary: 50,
        dept: { id: 1 },
        address: { street: "1 Main St", city: "Paris" },
        phones: { home: "111", work: "222" },
        notes: ["a", "b", "c"],
        sizes: [30, 10, 20],
      },
    ],
    ["/j3.Manager", { id: 2, name: "Meg", salary: 90, bonus: 10, dept: { id: 1 }, phones: {}, notes: [] }],
    ["/j3.Exempt", { id: 3, name: "Xan", salary: 120, bonus: 50, dept: { id: 1 }, address: { street: "3 High St", city: null }, phones: { cell: "333" } }],
    ["/j3.Contractor", { id: 4, name: "Cid", salary: 70, dept: { id: 2 } }],
    ["/j3.Student", { id: 1, name: "Sam" }],
    ["/j3.Student", { id: 2, name: "Tia" }],
    ["/j3.Student", { id: 3, name: "Uma" }],
    ["/j3.Course", { id: 1, name: "Calculus", studentWaitlist: [{ id: 3 }, { id: 1 }, { id: 2 }], students: [{ id: 1 }, { id: 2 }] }],
    ["/j3.Course", { id: 2, name: "Algebra", studentWaitlist: [{ id: 2 }], students: [{ id: 2 }, { id: 3 }] }],
  ];
  for (const [path, body] of seed) {
    const r = await h.post(path, body);
    assert.equal(r.status, 201, `seed ${path} ${JSON.stringify(body)}: ${r.status} ${r.text}`);
  }
  // Meg is updated twice: her version is 3.
  for (const salary of [91, 92]) assert.equal((await h.put("/j3.Manager/2", { id: 2, name: "Meg", salary, bonus: 10, dept: { id: 1 } })).status, 200);
});
after(() => h?.close());

const jpql = (q: string, params?: unknown): Promise<Reply> => h.get(withParams(`/jpql?query=${encodeURIComponent(q)}`, params));
const run = async (q: string, params?: unknown): Promise<any> => ok(await jpql(q, params));
/** A query that must be a 400 problem document at `at` (the offset of that text in q). */
const refused = async (q: string, at?: string, params?: unknown): Promise<any> => {
  const r = await jpql(q, params);
  assert.equal(r.status, 400, `expected 400 for ${q}, got ${r.status}: ${r.text}`);
  assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
  if (at !== undefined) {
    const offset = q.indexOf(at);
    assert.ok(offset >= 0, at);
    assert.deepEqual(r.body.position, { line: 1, column: offset + 1, offset }, `${q}: ${r.text}`);
  }
  return r.body;
};

describe("ID() and VERSION() (3.2 §4.7.10)", () => {
  test("ID(e) is the primary key's value, a synonym for the key field", async () => {
    assert.deepEqual(await run("SELECT ID(e), e.name FROM Employee e ORDER BY ID(e)"), [
      [1, "Ann"],
      [2, "Meg"],
      [3, "Xan"],
      [4, "Cid"],
    ]);
    assert.deepEqual(await run("SELECT e.name FROM Employee e WHERE ID(e) = :id", { id: 3 }), ["Xan"]);
    // Over a many-to-one path.
    assert.deepEqual(await run("SELECT DISTINCT ID(e.dept) FROM Employee e ORDER BY ID(e.dept)"), [1, 2]);
  });

  test("VERSION(e) is the version number; compared with a parameter", async () => {
    assert.deepEqual(await run("SELECT e.name, VERSION(e) FROM Employee e WHERE e.id IN (1, 2) ORDER BY e.id"), [
      ["Ann", 1],
      ["Meg", 3],
    ]);
    assert.deepEqual(await run("SELECT e.name FROM Employee e WHERE VERSION(e) = :v", { v: 3 }), ["Meg"]);
  });

  test("VERSION of an entity without a version, ID of a value: 400 at the function", async () => {
    const q = "SELECT VERSION(d) FROM Department d";
    assert.match((await refused(q, "VERSION")).detail, /Department is not versioned/);
    await refused("SELECT ID(e.name) FROM Employee e", "ID");
  });
});

describe("TYPE() (3.2 §4.7.9, §4.8.1)", () => {
  test("TYPE(e) = :t with the entity name or the class name bound", async () => {
    const q = "SELECT e.name FROM Employee e WHERE TYPE(e) = :t ORDER BY e.id";
    assert.deepEqual(await run(q, { t: "Exempt" }), ["Xan"]);
    assert.deepEqual(await run(q, { t: "j3.Manager" }), ["Meg"]);
    assert.deepEqual(await run(q, { t: "Employee" }), ["Ann"]);
    assert.deepEqual(await run("SELECT e.name FROM Employee e WHERE TYPE(e) <> :t ORDER BY e.id", { t: "Employee" }), ["Meg", "Xan", "Cid"]);
    // An entity outside the hierarchy is no type of an Employee.
    assert.deepEqual(await run(q, { t: "Department" }), []);
    assert.deepEqual(await run("SELECT e.name FROM Employee e WHERE :t = TYPE(e)", { t: "Contractor" }), ["Cid"]);
  });

  test("TYPE(e) IN (:t1, :t2) (the specification's example)", async () => {
    assert.deepEqual(
      await run("SELECT e.name FROM Employee e WHERE TYPE(e) IN (:empType1, :empType2) ORDER BY e.id", { empType1: "Exempt", empType2: "Contractor" }),
      ["Xan", "Cid"],
    );
  });

  test("a parameter naming no entity is a 400", async () => {
    const r = await jpql("SELECT e FROM Employee e WHERE TYPE(e) = :t", { t: "Nope" });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /Nope/);
  });

  test("CASE TYPE(e) WHEN Exempt THEN ... (the specification's example)", async () => {
    const q =
      "SELECT e.name, CASE TYPE(e) WHEN Exempt THEN 'Exempt' WHEN Contractor THEN 'Contractor' WHEN Manager THEN 'Manager' ELSE 'NonExempt' END " +
      "FROM Employee e WHERE e.dept.name = 'Engineering' OR e.dept.name = 'Sales' ORDER BY e.id";
    assert.deepEqual(await run(q), [
      ["Ann", "NonExempt"],
      ["Meg", "Manager"],
      ["Xan", "Exempt"],
      ["Cid", "Contractor"],
    ]);
    assert.deepEqual(await run("SELECT e.name FROM Employee e WHERE CASE TYPE(e) WHEN Manager THEN TREAT(e AS Manager).bonus ELSE 0 END > 5 ORDER BY e.id"), [
      "Meg",
    ]);
  });

  test("CASE TYPE(e) WHEN with a name that is no entity is a 400 at the name", async () => {
    const q = "SELECT CASE TYPE(e) WHEN Nope THEN 1 ELSE 0 END FROM Employee e";
    assert.match((await refused(q, "Nope")).detail, /unknown entity "Nope"/);
  });
});

describe("ORDER BY after set operations, INTERSECT ALL and EXCEPT ALL (3.2 §4.2.1)", () => {
  test("the trailing ORDER BY orders the combined rows, by a repeated select item or a result variable", async () => {
    const union = "SELECT e.name FROM Employee e WHERE e.salary > 80 UNION SELECT s.name FROM Student s";
    assert.deepEqual(await run(`${union} ORDER BY e.name`), ["Meg", "Sam", "Tia", "Uma", "Xan"]);
    assert.deepEqual(await run(`${union} ORDER BY E.name DESC`), ["Xan", "Uma", "Tia", "Sam", "Meg"]);
    assert.deepEqual(await run("SELECT e.name AS n, e.salary AS pay FROM Employee e UNION ALL SELECT s.name, s.id FROM Student s ORDER BY pay DESC, n"), [
      ["Xan", 120],
      ["Meg", 92],
      ["Cid", 70],
      ["Ann", 50],
      ["Uma", 3],
      ["Tia", 2],
      ["Sam", 1],
    ]);
    // Entities are ordered by their keys.
    const objects = await run("SELECT e FROM Employee e WHERE e.id > 2 UNION SELECT f FROM Employee f WHERE f.id = 1 ORDER BY e DESC");
    assert.deepEqual(
      objects.map((o: any) => o.id),
      [4, 3, 1],
    );
    // NULLS FIRST / LAST.
    assert.deepEqual(
      await run("SELECT e.address.city FROM Employee e WHERE e.id IN (1, 3) UNION SELECT d.name FROM Department d ORDER BY e.address.city NULLS FIRST"),
      [null, "Engineering", "Paris", "Sales"],
    );
  });

  test("an ORDER BY item that is no select item of the first query is a 400 at the item", async () => {
    const q = "SELECT e.name FROM Employee e UNION SELECT s.name FROM Student s ORDER BY e.salary";
    assert.match((await refused(q, "e.salary")).detail, /ORDER BY after UNION/);
  });

  test("INTERSECT ALL keeps min(m, n) copies of a row, EXCEPT ALL max(m - n, 0)", async () => {
    // Department ids of the employees: 1, 1, 1, 2; course ids of the waitlisted students: 1, 1, 1, 2.
    const depts = "SELECT e.dept.id FROM Employee e";
    const twice = "SELECT d.id FROM Department d WHERE d.id = 1 UNION ALL SELECT d.id FROM Department d";
    const sorted = (rows: number[]) => [...rows].sort();
    assert.deepEqual(sorted(await run(`${depts} INTERSECT ALL (${twice})`)), [1, 1, 2]);
    assert.deepEqual(sorted(await run(`${depts} INTERSECT (${twice})`)), [1, 2]);
    assert.deepEqual(sorted(await run(`${depts} EXCEPT ALL (${twice})`)), [1]);
    assert.deepEqual(sorted(await run(`${depts} EXCEPT (${twice})`)), []);
    assert.deepEqual(sorted(await run(`(${twice}) EXCEPT ALL ${depts}`)), []);
    // Rows of several columns, NULLs equal, and an ORDER BY over the result.
    assert.deepEqual(
      await run(
        "SELECT e.address.city, e.dept.id FROM Employee e INTERSECT ALL SELECT f.address.city, f.dept.id FROM Employee f WHERE f.id <> 2 ORDER BY e.dept.id DESC, e.address.city",
      ),
      [
        [null, 2],
        [null, 1],
        ["Paris", 1],
      ],
    );
  });

  test("objects combine with INTERSECT ALL and EXCEPT ALL as their keys", async () => {
    const a = "SELECT e FROM Employee e WHERE e.salary > 60";
    const b = "SELECT f FROM Employee f WHERE TYPE(f) = Contractor";
    assert.deepEqual(
      (await run(`${a} EXCEPT ALL ${b} ORDER BY e`)).map((o: any) => o.id),
      [2, 3],
    );
    assert.deepEqual(
      (await run(`${a} INTERSECT ALL ${b}`)).map((o: any) => o.id),
      [4],
    );
  });
});

describe("FUNCTION() over SQLite's functions (3.2 §4.6.17.3)", () => {
  test("values, in every clause", async () => {
    assert.deepEqual(
      await run("SELECT FUNCTION('instr', e.name, 'n'), FUNCTION('concat_ws', '-', e.name, e.id), FUNCTION('upper', e.name) FROM Employee e WHERE e.id = 1"),
      [[2, "Ann-1", "ANN"]],
    );
    assert.deepEqual(await run("SELECT e.name FROM Employee e WHERE FUNCTION('length', e.name) = 3 AND FUNCTION('substr', e.name, 1, 1) = :c", { c: "M" }), [
      "Meg",
    ]);
    assert.deepEqual(await run("SELECT e.name FROM Employee e ORDER BY FUNCTION('unicode', FUNCTION('substr', e.name, 2)) DESC, e.id"), [
      "Ann",
      "Cid",
      "Meg",
      "Xan",
    ]);
    assert.deepEqual(
      await run(
        "SELECT FUNCTION('round', FUNCTION('sqrt', 2.0), 3), FUNCTION('floor', FUNCTION('pi')), FUNCTION('max', 1, 7, 3) FROM Department d WHERE d.id = 1",
      ),
      [[1.414, 3, 7]],
    );
    assert.deepEqual(await run("SELECT FUNCTION('coalesce', e.address.city, 'none') FROM Employee e WHERE e.id IN (1, 4) ORDER BY e.id"), ["Paris", "none"]);
  });

  test("every function of the documented list runs on the database", async () => {
    const { DATABASE_FUNCTIONS } = await import("../src/query/jpql/database-functions.ts");
    for (const [name, f] of DATABASE_FUNCTIONS) {
      const args = Array.from({ length: f.min }, (_, i) => (i === 0 && name === "char" ? "65" : name === "atanh" ? "0.5" : "1"));
      const q = `SELECT FUNCTION('${name}'${args.map((a) => `, ${a}`).join("")}) FROM Department d WHERE d.id = 1`;
      const r = await jpql(q);
      assert.equal(r.status, 200, `${q}: ${r.text}`);
    }
  });

  test("a function outside the list is a 400 at its name; wrong arity or an object argument too", async () => {
    // printf's width would let a short query build a string of a billion characters: not on the list.
    await refused("SELECT FUNCTION('printf', '%.900000000c', 'x') FROM Department d", "'printf'");
    // The specification's own example: a user-defined function.
    const q = "SELECT c FROM Department c WHERE FUNCTION('hasGoodCredit', c.id, c.name)";
    const body = await refused(q, "'hasGoodCredit'");
    assert.match(body.detail, /FUNCTION\('hasGoodCredit'\): not a database function/);
    assert.match(body.detail, /instr/);
    for (const name of ["date", "group_concat", "load_extension", "sqlite_version"])
      await refused(`SELECT FUNCTION('${name}', d.name) FROM Department d`, `'${name}'`);
    assert.match((await refused("SELECT FUNCTION('instr', d.name) FROM Department d", "FUNCTION")).detail, /takes 2 arguments, not 1/);
    assert.match((await refused("SELECT FUNCTION('upper', e.dept) FROM Employee e", "e.dept")).detail, /takes values/);
  });
});

describe("reserved identifiers are exactly those of 3.2 §4.4.1", () => {
  // The specification's list, as it prints it.
  const RESERVED = `ABS ALL AND ANY AS ASC AVG BETWEEN BIT_LENGTH BOTH BY CASE CEILING CHAR_LENGTH CHARACTER_LENGTH CLASS COALESCE
    CONCAT COUNT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DELETE DESC DISTINCT ELSE EMPTY END ENTRY ESCAPE EXISTS EXP EXTRACT
    FALSE FETCH FIRST FLOOR FROM FUNCTION GROUP HAVING IN INDEX INNER IS JOIN KEY LEADING LAST LEFT LENGTH LIKE LOCAL LN LOCATE
    LOWER MAX MEMBER MIN MOD NEW NOT NULL NULLS NULLIF OBJECT OF ON OR ORDER OUTER POSITION POWER REPLACE RIGHT ROUND SELECT SET
    SIGN SIZE SOME SQRT SUBSTRING SUM THEN TRAILING TREAT TRIM TRUE TYPE UNKNOWN UPDATE UPPER VALUE WHEN WHERE`.split(/\s+/);

  test("each is refused as an identification variable and as a result variable, in any case", async () => {
    assert.equal(RESERVED.length, 96);
    for (const word of RESERVED) {
      for (const v of [word, word.toLowerCase()]) {
        const r = await jpql(`SELECT ${v}.name FROM Student ${v}`);
        assert.equal(r.status, 400, `${v}: ${r.text}`);
      }
      const r = await jpql(`SELECT s.name AS ${word} FROM Student s`);
      assert.equal(r.status, 400, `AS ${word}: ${r.text}`);
    }
  });

  test("other words, SQL and 3.2 keywords included, are names", async () => {
    for (const word of [
      "UNION",
      "INTERSECT",
      "EXCEPT",
      "CAST",
      "ID",
      "VERSION",
      "DATE",
      "TIME",
      "DATETIME",
      "LIMIT",
      "OFFSET",
      "INSERT",
      "INTO",
      "VALUES",
      "TABLE",
      "STRING",
    ]) {
      assert.deepEqual(await run(`SELECT ${word}.name FROM Student ${word} WHERE ${word}.id = 1`), ["Sam"], word);
      assert.deepEqual(await run(`SELECT s.name AS ${word} FROM Student s WHERE s.id = 1 ORDER BY ${word}`), ["Sam"], word);
    }
  });
});

describe("INDEX() over ordered lists (3.2 §4.6.17.2.2)", () => {
  test("the specification's example: the first student on the Calculus waitlist", async () => {
    assert.deepEqual(await run("SELECT w.name FROM Course c JOIN c.studentWaitlist w WHERE c.name = 'Calculus' AND INDEX(w) = 0"), ["Uma"]);
  });

  test("positions as values, in ORDER BY and BETWEEN; each list its own", async () => {
    assert.deepEqual(await run("SELECT c.name, w.name, INDEX(w) FROM Course c JOIN c.studentWaitlist w ORDER BY c.id, INDEX(w) DESC"), [
      ["Calculus", "Tia", 2],
      ["Calculus", "Sam", 1],
      ["Calculus", "Uma", 0],
      ["Algebra", "Tia", 0],
    ]);
    assert.deepEqual(await run("SELECT w.name FROM Course c JOIN c.studentWaitlist w WHERE INDEX(w) BETWEEN 1 AND 9 ORDER BY INDEX(w)"), ["Sam", "Tia"]);
    // LEFT JOIN, IN (path), and a subquery.
    assert.deepEqual(await run("SELECT c.name, INDEX(w) FROM Course c LEFT JOIN c.studentWaitlist w WHERE w.id = 2 ORDER BY c.id"), [
      ["Calculus", 2],
      ["Algebra", 0],
    ]);
    assert.deepEqual(await run("SELECT s.name FROM Course c, IN (c.studentWaitlist) s WHERE c.id = 1 AND INDEX(s) > 0 ORDER BY INDEX(s)"), ["Sam", "Tia"]);
    assert.deepEqual(await run("SELECT c.name FROM Course c WHERE EXISTS (SELECT w FROM c.studentWaitlist w WHERE INDEX(w) = 0 AND w.name = 'Tia')"), [
      "Algebra",
    ]);
  });

  test("a list of values: its JSON array's positions", async () => {
    assert.deepEqual(await run("SELECT e.name, n, INDEX(n) FROM Employee e JOIN e.notes n ORDER BY e.id, INDEX(n)"), [
      ["Ann", "a", 0],
      ["Ann", "b", 1],
      ["Ann", "c", 2],
    ]);
  });

  test("a list of values in its own table: its order column's positions", async () => {
    assert.deepEqual(await run("SELECT s, INDEX(s) FROM Employee e JOIN e.sizes s WHERE e.id = 1 ORDER BY s"), [
      [10, 1],
      [20, 2],
      [30, 0],
    ]);
    assert.deepEqual(await run("SELECT s FROM Employee e JOIN e.sizes s WHERE INDEX(s) = 2"), [20]);
  });

  test("INDEX of a set, of a map, of a root variable is a 400 at INDEX", async () => {
    for (const [q, mentions] of [
      ["SELECT INDEX(s) FROM Course c JOIN c.students s", "without positions"],
      ["SELECT INDEX(p) FROM Employee e JOIN e.phones p", "without positions"],
      ["SELECT INDEX(c) FROM Course c", "needs a variable joined over a list"],
      ["SELECT c FROM Course c WHERE INDEX(x) = 0", 'unknown identification variable "x"'],
    ] as const) {
      const body = await refused(q, "INDEX");
      assert.ok(body.detail.includes(mentions), `${q}: ${body.detail}`);
    }
  });
});

describe("ENTRY() and embeddables as result items (3.2 §4.4.4, §4.8)", () => {
  test("ENTRY(p) is the map entry, as an object of its key and value", async () => {
    assert.deepEqual(await run("SELECT e.name, ENTRY(p) FROM Employee e JOIN e.phones p ORDER BY e.id, KEY(p)"), [
      ["Ann", { key: "home", value: "111" }],
      ["Ann", { key: "work", value: "222" }],
      ["Xan", { key: "cell", value: "333" }],
    ]);
    assert.deepEqual(await run("SELECT ENTRY(p) FROM Employee e JOIN e.phones p WHERE KEY(p) = 'cell'"), [{ key: "cell", value: "333" }]);
    // LEFT JOIN: an employee without entries has none.
    assert.deepEqual(await run("SELECT e.name, ENTRY(p) FROM Employee e LEFT JOIN e.phones p WHERE e.id IN (2, 3) ORDER BY e.id"), [
      ["Meg", null],
      ["Xan", { key: "cell", value: "333" }],
    ]);
  });

  test("ENTRY outside the select list, or over a list, is a 400 at ENTRY", async () => {
    await refused("SELECT e FROM Employee e JOIN e.phones p WHERE ENTRY(p) IS NOT NULL", "ENTRY");
    await refused("SELECT ENTRY(n) FROM Employee e JOIN e.notes n", "ENTRY");
  });

  test("an embedded object is a result item: the object its JSON has, null when all its fields are", async () => {
    assert.deepEqual(await run("SELECT e.name, e.address FROM Employee e ORDER BY e.id"), [
      ["Ann", { street: "1 Main St", city: "Paris" }],
      ["Meg", null],
      ["Xan", { street: "3 High St", city: null }],
      ["Cid", null],
    ]);
    assert.deepEqual(await run("SELECT e.address FROM Employee e WHERE e.id = 1"), [{ street: "1 Main St", city: "Paris" }]);
    // JDOQL projections share the SQL generator: the same there.
    assert.deepEqual(ok(await h.get(`/jdoql?query=${encodeURIComponent("SELECT name, address FROM j3.Employee WHERE id == 1")}`)), [
      ["Ann", { street: "1 Main St", city: "Paris" }],
    ]);
    // The same as the object's own JSON.
    assert.deepEqual((await h.get("/j3.Employee/1")).body.address, { street: "1 Main St", city: "Paris" });
    assert.deepEqual(await run("SELECT NEW j3.View(e.name, e.address) FROM Employee e WHERE e.id = 3"), [
      { name: "Xan", address: { street: "3 High St", city: null } },
    ]);
    assert.deepEqual(await run("SELECT DISTINCT e.address FROM Employee e WHERE e.address IS NOT NULL ORDER BY e.address.street"), [
      { street: "1 Main St", city: "Paris" },
      { street: "3 High St", city: null },
    ]);
  });
});
