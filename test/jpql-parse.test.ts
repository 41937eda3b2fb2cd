/**
 * The JPQL grammar (grammar/jpql.peggy) through src/query/jpql/parse.ts: parse trees for every
 * construct of the checklist (query-languages.md §3), the examples of the Jakarta Persistence
 * query language chapter, and syntax errors with their positions and expectations.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { JpqlSyntaxError, parseJpql } from "../src/query/jpql/parse.ts";
import type { JExpr, JSelectQuery, JSetOperation, JUpdate } from "../src/query/jpql/syntax.ts";

// --- Helpers -------------------------------------------------------------------------------------

/** The tree without `pos` (positions have their own tests). */
function strip(value: unknown): any {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== "pos") out[k] = strip(v);
    return out;
  }
  return value;
}

const q = (text: string) => strip(parseJpql(text));
/** The WHERE condition of `SELECT a FROM A a WHERE <text>`. */
const w = (text: string) => q(`SELECT a FROM A a WHERE ${text}`).where;
/** The first select item's expression of `SELECT <text> FROM A a`. */
const s = (text: string) => q(`SELECT ${text} FROM A a`).select[0].expr;

const path = (head: unknown, ...names: string[]) => ({ type: "Path", head, names });
const lit = (kind: string, value: unknown, raw: string) => ({ type: "Literal", kind, value, raw });
const int = (value: number, raw = String(value)) => lit("int", value, raw);
const str = (value: string, raw = `'${value.replace(/'/g, "''")}'`) => lit("string", value, raw);
const bool = (value: boolean, raw = String(value).toUpperCase()) => lit("boolean", value, raw);
const NULL = lit("null", null, "NULL");
const bin = (op: string, left: unknown, right: unknown) => ({ type: "Binary", op, left, right });
const un = (op: string, operand: unknown) => ({ type: "Unary", op, operand });
const named = (name: string) => ({ type: "NamedParam", name });
const positional = (index: number) => ({ type: "PositionalParam", index });
const fn = (name: string, ...args: unknown[]) => ({ type: "Function", name, args });
const agg = (fnName: string, arg: unknown, distinct = false) => ({ type: "Aggregate", fn: fnName, distinct, arg });
const sub = (query: unknown) => ({ type: "Subquery", query });
const item = (expr: unknown, variable?: string) => (variable ? { expr, variable } : { expr });
const order = (expr: unknown, descending = false, nulls?: "first" | "last") => (nulls ? { expr, descending, nulls } : { expr, descending });
const range = (entity: string, variable?: string, joins: unknown[] = []) =>
  variable ? { kind: "range", entity, variable, joins } : { kind: "range", entity, joins };
const join = (kind: "inner" | "left", target: unknown, variable?: string, on?: unknown) => ({
  kind,
  fetch: false,
  target,
  ...(variable ? { variable } : {}),
  ...(on ? { on } : {}),
});
const fetchJoin = (kind: "inner" | "left", target: unknown) => ({ kind, fetch: true, target });
const toPath = (p: unknown) => ({ kind: "path", path: p });
const toEntity = (entity: string) => ({ kind: "entity", entity });

/** A select query tree with the defaults of every clause. */
function select(parts: Record<string, unknown>) {
  return { type: "Select", distinct: false, select: null, groupBy: [], orderBy: [], ...parts };
}

interface ErrorSpec {
  line: number;
  column: number;
  /** Each of these must be among the error's expectations. */
  expected?: string[];
  message?: RegExp;
}

function syntaxError(text: string, spec: ErrorSpec): JpqlSyntaxError {
  let caught: unknown;
  try {
    parseJpql(text);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof JpqlSyntaxError, `expected a JpqlSyntaxError, got ${String(caught)}`);
  const e = caught;
  assert.equal(e.position.line, spec.line, e.message);
  assert.equal(e.position.column, spec.column, e.message);
  assert.ok(e.message.startsWith(`line ${spec.line}, column ${spec.column}: `), e.message);
  for (const x of spec.expected ?? []) assert.ok(e.expected.includes(x), `${x} not in ${JSON.stringify(e.expected)}`);
  if (spec.message) assert.match(e.message, spec.message);
  return e;
}

/** Error in the WHERE clause of `SELECT a FROM A a WHERE <text>`: columns count from the condition. */
const WHERE_PREFIX = "SELECT a FROM A a WHERE ";
const whereError = (text: string, spec: ErrorSpec) => syntaxError(WHERE_PREFIX + text, { ...spec, column: spec.column + WHERE_PREFIX.length });

// --- Examples from the Jakarta Persistence query language chapter -----------------------------------

describe("Jakarta Persistence examples", () => {
  test("pending orders: DISTINCT, AS, JOIN, boolean literal", () => {
    const expected = select({
      distinct: true,
      select: [item(path("o"))],
      from: [range("Order", "o", [join("inner", toPath(path("o", "lineItems")), "l")])],
      where: bin("=", path("l", "shipped"), bool(false)),
    });
    assert.deepEqual(q("SELECT DISTINCT o FROM Order o JOIN o.lineItems l WHERE l.shipped = FALSE"), expected);
    assert.deepEqual(q("SELECT DISTINCT o\nFROM Order AS o JOIN o.lineItems AS l\nWHERE l.shipped = FALSE"), expected);
  });

  test("chained joins", () => {
    assert.deepEqual(q("SELECT DISTINCT o FROM Order o JOIN o.lineItems l JOIN l.product p WHERE p.productType = 'office_supplies'").from, [
      range("Order", "o", [join("inner", toPath(path("o", "lineItems")), "l"), join("inner", toPath(path("l", "product")), "p")]),
    ]);
  });

  test("named parameter", () => {
    assert.deepEqual(
      q("SELECT c FROM Customer c WHERE c.status = :stat"),
      select({
        select: [item(path("c"))],
        from: [range("Customer", "c")],
        where: bin("=", path("c", "status"), named("stat")),
      }),
    );
  });

  test("positional parameter", () => {
    assert.deepEqual(
      q("SELECT DISTINCT o FROM Order o JOIN o.lineItems l WHERE l.product.name = ?1").where,
      bin("=", path("l", "product", "name"), positional(1)),
    );
  });

  test("ALL over a correlated subquery", () => {
    assert.deepEqual(
      q("SELECT e FROM Employee e WHERE e.salary > ALL (SELECT m.salary FROM Manager m WHERE m.department = e.department)").where,
      bin(">", path("e", "salary"), {
        type: "Quantified",
        quantifier: "ALL",
        subquery: sub(
          select({
            select: [item(path("m", "salary"))],
            from: [range("Manager", "m")],
            where: bin("=", path("m", "department"), path("e", "department")),
          }),
        ),
      }),
    );
  });

  test("constructor expression", () => {
    assert.deepEqual(
      q("SELECT NEW com.acme.CustomerDetails(c.id, c.status, o.count) FROM Customer c JOIN c.orders o WHERE o.count > 100"),
      select({
        select: [
          item({
            type: "New",
            className: "com.acme.CustomerDetails",
            classPos: { offset: 11, line: 1, column: 12 },
            args: [path("c", "id"), path("c", "status"), path("o", "count")],
          }),
        ],
        from: [range("Customer", "c", [join("inner", toPath(path("c", "orders")), "o")])],
        where: bin(">", path("o", "count"), int(100)),
      }),
    );
  });

  test("TYPE with an entity type literal", () => {
    const tree = q("SELECT TYPE(e) FROM Employee e WHERE TYPE(e) <> Exempt");
    assert.deepEqual(tree.select, [item({ type: "Type", arg: path("e") })]);
    assert.deepEqual(tree.where, bin("<>", { type: "Type", arg: path("e") }, path("Exempt")));
    assert.deepEqual(q("SELECT e FROM Employee e WHERE TYPE(e) IN (Exempt, Contractor)").where, {
      type: "In",
      not: false,
      operand: { type: "Type", arg: path("e") },
      source: { kind: "list", items: [path("Exempt"), path("Contractor")] },
    });
    assert.deepEqual(q("SELECT e FROM Employee e WHERE TYPE(e) IN :empTypes").where.source, {
      kind: "param",
      param: named("empTypes"),
    });
  });

  test("TREAT in WHERE and in a join", () => {
    const treated = { type: "Treat", path: path("e"), entity: "Exempt" };
    assert.deepEqual(q("SELECT e FROM Employee e WHERE TREAT(e AS Exempt).vacationDays > 10").where, bin(">", path(treated, "vacationDays"), int(10)));
    assert.deepEqual(q("SELECT b.name, b.ISBN FROM Order o JOIN TREAT(o.product AS Book) b").from, [
      range("Order", "o", [join("inner", toPath({ type: "Treat", path: path("o", "product"), entity: "Book" }), "b")]),
    ]);
    assert.deepEqual(
      w("TREAT(TREAT(a AS B) AS C).x.y = 1").left,
      path({ type: "Treat", path: { type: "Treat", path: path("a"), entity: "B" }, entity: "C" }, "x", "y"),
    );
  });

  test("general CASE in the select clause", () => {
    assert.deepEqual(q("SELECT c.name, CASE WHEN c.annualSpending > 10000 THEN 'Premier' ELSE 'Regular' END FROM Customer c").select, [
      item(path("c", "name")),
      item({
        type: "Case",
        whens: [{ when: bin(">", path("c", "annualSpending"), int(10000)), then: str("Premier") }],
        else: str("Regular"),
      }),
    ]);
  });

  test("simple CASE over TYPE in UPDATE", () => {
    const tree = q("UPDATE Employee e SET e.salary = CASE TYPE(e) WHEN Exempt THEN e.salary * 1.1 WHEN Contractor THEN e.salary * 1.05 " + "ELSE e.salary END");
    assert.deepEqual(tree.set[0].value, {
      type: "Case",
      operand: { type: "Type", arg: path("e") },
      whens: [
        { when: path("Exempt"), then: bin("*", path("e", "salary"), lit("double", 1.1, "1.1")) },
        { when: path("Contractor"), then: bin("*", path("e", "salary"), lit("double", 1.05, "1.05")) },
      ],
      else: path("e", "salary"),
    });
  });

  test("bulk UPDATE and DELETE", () => {
    assert.deepEqual(q("UPDATE Customer c SET c.status = 'outstanding' WHERE c.balance < 10000"), {
      type: "Update",
      entity: "Customer",
      variable: "c",
      set: [{ path: path("c", "status"), value: str("outstanding") }],
      where: bin("<", path("c", "balance"), int(10000)),
    });
    assert.deepEqual(q("DELETE FROM Customer c WHERE c.status = 'inactive'"), {
      type: "Delete",
      entity: "Customer",
      variable: "c",
      where: bin("=", path("c", "status"), str("inactive")),
    });
  });

  test("IS EMPTY, MEMBER OF, NOT over a parenthesised condition", () => {
    assert.deepEqual(q("SELECT o FROM Order o WHERE o.lineItems IS EMPTY").where, {
      type: "IsEmpty",
      not: false,
      collection: path("o", "lineItems"),
    });
    assert.deepEqual(q("SELECT p FROM Person p WHERE 'Joe' MEMBER OF p.nicknames").where, {
      type: "MemberOf",
      not: false,
      element: str("Joe"),
      collection: path("p", "nicknames"),
    });
    assert.deepEqual(
      q("SELECT o FROM Order o WHERE NOT (o.shippingAddress.state = o.billingAddress.state AND " + "o.shippingAddress.city = o.billingAddress.city)").where,
      un(
        "NOT",
        bin(
          "AND",
          bin("=", path("o", "shippingAddress", "state"), path("o", "billingAddress", "state")),
          bin("=", path("o", "shippingAddress", "city"), path("o", "billingAddress", "city")),
        ),
      ),
    );
  });

  test("EXISTS over a correlated subquery with a derived FROM", () => {
    assert.deepEqual(q("SELECT DISTINCT emp FROM Employee emp WHERE EXISTS (SELECT spouseEmp FROM Employee spouseEmp WHERE spouseEmp = emp.spouse)").where, {
      type: "Exists",
      not: false,
      subquery: sub(
        select({
          select: [item(path("spouseEmp"))],
          from: [range("Employee", "spouseEmp")],
          where: bin("=", path("spouseEmp"), path("emp", "spouse")),
        }),
      ),
    });
    assert.deepEqual(
      q("SELECT c FROM Customer c WHERE (SELECT AVG(o.price) FROM c.orders o) > 100").where.left,
      sub(
        select({
          select: [item(agg("AVG", path("o", "price")))],
          from: [{ kind: "derived", path: path("c", "orders"), variable: "o", joins: [] }],
        }),
      ),
    );
  });

  test("map KEY and VALUE, INDEX, aggregates with GROUP BY and HAVING", () => {
    assert.deepEqual(q("SELECT i.name, VALUE(p) FROM Item i JOIN i.photos p WHERE KEY(p) LIKE '%egret'").where, {
      type: "Like",
      not: false,
      operand: { type: "KeyValueEntry", fn: "KEY", variable: "p" },
      pattern: str("%egret"),
    });
    assert.deepEqual(
      q("SELECT w.name FROM Course c JOIN c.studentWaitlist w WHERE c.name = 'Calculus' AND INDEX(w) = 0").where.right,
      bin("=", fn("INDEX", path("w")), int(0)),
    );
    const tree = q("SELECT c.status, AVG(c.filledOrderCount), COUNT(c) FROM Customer c GROUP BY c.status HAVING c.status IN (1, 2)");
    assert.deepEqual(tree.groupBy, [path("c", "status")]);
    assert.deepEqual(tree.having, {
      type: "In",
      not: false,
      operand: path("c", "status"),
      source: { kind: "list", items: [int(1), int(2)] },
    });
  });
});

// --- Statements and clauses -------------------------------------------------------------------------

describe("select statements", () => {
  test("SELECT is optional (3.2): FROM Entity alone has the implicit variable", () => {
    assert.deepEqual(q("FROM Employee"), select({ from: [range("Employee")] }));
    assert.deepEqual(
      q("FROM Employee WHERE salary > 10 ORDER BY name"),
      select({
        from: [range("Employee")],
        where: bin(">", path("salary"), int(10)),
        orderBy: [order(path("name"))],
      }),
    );
    assert.deepEqual(q("SELECT this FROM Employee").select, [item(path("this"))]);
    assert.deepEqual(q("FROM Employee e").from, [range("Employee", "e")]);
  });

  test("only a lone root without joins may omit its identification variable", () => {
    syntaxError("SELECT e FROM Employee, Department d", {
      line: 1,
      column: 23,
      message: /identification variable for "Employee": only a FROM clause with a single entity and no joins may omit it/,
    });
    syntaxError("SELECT d FROM Employee e, Department WHERE d.x = 1", { line: 1, column: 38, message: /"Department"/ });
    syntaxError("SELECT e FROM Employee JOIN e.projects p", { line: 1, column: 24, message: /"Employee"/ });
  });

  test("result variables, with and without AS", () => {
    assert.deepEqual(q("SELECT e.name AS n, e.salary s, e FROM Employee e ORDER BY n, s DESC").select, [
      item(path("e", "name"), "n"),
      item(path("e", "salary"), "s"),
      item(path("e")),
    ]);
    assert.deepEqual(q("SELECT OBJECT(e) FROM Employee e").select, [item({ type: "Object", variable: "e" })]);
  });

  test("several roots, collection member declarations, qualified entity names", () => {
    assert.deepEqual(q("SELECT DISTINCT o FROM Order o, IN(o.lineItems) l, mydomain.Product AS p WHERE l.product = p").from, [
      range("Order", "o"),
      { kind: "member", path: path("o", "lineItems"), variable: "l" },
      range("mydomain.Product", "p"),
    ]);
    assert.deepEqual(q("SELECT o FROM Order o, IN (o.lineItems) AS l").from[1], {
      kind: "member",
      path: path("o", "lineItems"),
      variable: "l",
    });
  });

  test("joins: inner, left outer, ON, fetch, entity joins, TREAT", () => {
    const tree = q(
      "SELECT e FROM Employee e INNER JOIN e.dept d LEFT OUTER JOIN e.projects p ON p.active = TRUE " +
        "LEFT JOIN e.phones ph JOIN FETCH e.address LEFT JOIN FETCH e.badges " +
        "JOIN Customer c ON c.rep = e LEFT JOIN TREAT(e.projects AS LargeProject) lp",
    );
    assert.deepEqual(tree.from[0].joins, [
      join("inner", toPath(path("e", "dept")), "d"),
      join("left", toPath(path("e", "projects")), "p", bin("=", path("p", "active"), bool(true))),
      join("left", toPath(path("e", "phones")), "ph"),
      fetchJoin("inner", toPath(path("e", "address"))),
      fetchJoin("left", toPath(path("e", "badges"))),
      join("inner", toEntity("Customer"), "c", bin("=", path("c", "rep"), path("e"))),
      join("left", toPath({ type: "Treat", path: path("e", "projects"), entity: "LargeProject" }), "lp"),
    ]);
  });

  test("join errors: variables, fetch joins, RIGHT JOIN", () => {
    syntaxError("SELECT e FROM Employee e JOIN e.dept WHERE e.x = 1", {
      line: 1,
      column: 38,
      message: /a join needs an identification variable/,
    });
    syntaxError("SELECT e FROM Employee e JOIN FETCH e.address a", {
      line: 1,
      column: 47,
      message: /a fetch join has no identification variable/,
    });
    syntaxError("SELECT e FROM Employee e JOIN FETCH e.address AS a", { line: 1, column: 47 });
    syntaxError("SELECT e FROM Employee e LEFT JOIN FETCH e.address ON TRUE", {
      line: 1,
      column: 52,
      message: /a fetch join has no ON condition/,
    });
    syntaxError("SELECT e FROM Employee e RIGHT OUTER JOIN e.dept d", { line: 1, column: 26, message: /RIGHT JOIN is not JPQL/ });
    syntaxError("SELECT e FROM Employee e, IN(e.phones) WHERE e.x = 1", {
      line: 1,
      column: 40,
      message: /a collection member declaration needs an identification variable/,
    });
    syntaxError("SELECT e FROM Employee e JOIN", { line: 1, column: 30, expected: ['"FETCH"', '"TREAT"', "entity name"] });
  });

  test("WHERE, GROUP BY, HAVING, ORDER BY in order", () => {
    const tree = q(
      "SELECT d.name, COUNT(e) FROM Department d JOIN d.employees e WHERE e.salary > 0 " +
        "GROUP BY d.name, d.id HAVING COUNT(e) > 5 ORDER BY d.name DESC NULLS FIRST, COUNT(e)",
    );
    assert.deepEqual(tree.groupBy, [path("d", "name"), path("d", "id")]);
    assert.deepEqual(tree.having, bin(">", agg("COUNT", path("e")), int(5)));
    assert.deepEqual(tree.orderBy, [order(path("d", "name"), true, "first"), order(agg("COUNT", path("e")))]);
    assert.equal(q("SELECT a FROM A a HAVING COUNT(a) > 1").having.op, ">");
    syntaxError("SELECT a FROM A a ORDER BY a.x WHERE a.y = 1", { line: 1, column: 32, expected: ["end of input"] });
    syntaxError("SELECT a FROM A a HAVING a.x > 1 GROUP BY a.x", { line: 1, column: 34 });
  });

  test("ORDER BY: ASC, DESC, NULLS FIRST/LAST, result variables, scalar expressions (3.2)", () => {
    assert.deepEqual(q("SELECT e.salary * 2 AS pay FROM Employee e ORDER BY pay ASC NULLS LAST, e.name || e.first desc, LENGTH(e.x)").orderBy, [
      order(path("pay"), false, "last"),
      order(bin("||", path("e", "name"), path("e", "first")), true),
      order(fn("LENGTH", path("e", "x"))),
    ]);
    syntaxError("SELECT a FROM A a ORDER BY a.x NULLS", { line: 1, column: 37, expected: ['"FIRST"', '"LAST"'] });
    syntaxError("SELECT a FROM A a ORDER a.x", { line: 1, column: 25, expected: ['"BY"'] });
  });

  test("set operations (3.2): INTERSECT binds tighter, left-associative, ALL, parentheses", () => {
    const a = select({ select: [item(path("a"))], from: [range("A", "a")] });
    const b = select({ select: [item(path("b"))], from: [range("B", "b")] });
    const c = select({ select: [item(path("c"))], from: [range("C", "c")] });
    const setOp = (op: string, all: boolean, left: unknown, right: unknown, orderBy: unknown[] = []) => ({
      type: "SetOperation",
      op,
      all,
      left,
      right,
      orderBy,
    });
    const A = "SELECT a FROM A a",
      B = "SELECT b FROM B b",
      C = "SELECT c FROM C c";
    assert.deepEqual(q(`${A} UNION ${B} INTERSECT ${C}`), setOp("UNION", false, a, setOp("INTERSECT", false, b, c)));
    assert.deepEqual(q(`${A} INTERSECT ALL ${B} EXCEPT ${C}`), setOp("EXCEPT", false, setOp("INTERSECT", true, a, b), c));
    assert.deepEqual(q(`${A} union all ${B} except all ${C}`), setOp("EXCEPT", true, setOp("UNION", true, a, b), c));
    assert.deepEqual(q(`(${A} UNION ${B}) INTERSECT ${C}`), setOp("INTERSECT", false, setOp("UNION", false, a, b), c));
    assert.deepEqual(q(`(${A})`), a);
  });

  test("set operations: the trailing ORDER BY orders the whole result; a parenthesised operand may have its own", () => {
    const tree = q("SELECT a.x FROM A a UNION (SELECT b.x FROM B b ORDER BY b.x) ORDER BY 1 DESC") as unknown as JSetOperation;
    assert.deepEqual(strip(tree.orderBy), [order(int(1), true)]);
    assert.deepEqual(strip((tree.left as JSelectQuery).orderBy), []);
    assert.deepEqual(strip((tree.right as JSelectQuery).orderBy), [order(path("b", "x"))]);
    syntaxError("SELECT a FROM A a ORDER BY a.x UNION SELECT b FROM B b", { line: 1, column: 32, expected: ["end of input"] });
    syntaxError("(SELECT a FROM A a ORDER BY a.x) ORDER BY a.y", {
      line: 1,
      column: 34,
      message: /already has an ORDER BY clause/,
    });
  });

  test("UNION, INTERSECT, EXCEPT are not reserved: they are names where no set operation can start", () => {
    assert.deepEqual(q("SELECT union FROM Employee union").from, [range("Employee", "union")]);
    assert.equal(q("SELECT e FROM Employee e WHERE e.x = except").where.right.head, "except");
    assert.equal(q("FROM A UNION FROM B").type, "SetOperation");
  });

  test("trailing text is an error", () => {
    syntaxError("SELECT e FROM Employee e WHERE e.x = 1 garbage", {
      line: 1,
      column: 40,
      expected: ["end of input", '"GROUP"', '"ORDER"'],
      message: /found "garbage"$/,
    });
    syntaxError("SELECT e FROM Employee e)", { line: 1, column: 25, expected: ["end of input"] });
    syntaxError("DELETE FROM A a WHERE a.x = 1 ORDER BY a.x", { line: 1, column: 31, expected: ["end of input"] });
  });

  test("statement starts", () => {
    syntaxError("", { line: 1, column: 1, expected: ['"SELECT"', '"FROM"', '"UPDATE"', '"DELETE"'], message: /found end of input$/ });
    syntaxError("SELECT FROM Employee e", { line: 1, column: 8, message: /expected "DISTINCT", "NEW", "OBJECT" or an expression, found "FROM"$/ });
    syntaxError("INSERT INTO A (x) SELECT b.x FROM B b", { line: 1, column: 1, message: /INSERT is not a JPQL statement/ });
  });
});

describe("subqueries", () => {
  test("derived paths, derived collection members, joins, DISTINCT", () => {
    const query = q("SELECT e FROM Employee e WHERE e.x IN (SELECT DISTINCT p.x FROM e.projects p JOIN p.tasks t, IN e.phones ph, Other o WHERE t.y = 1)").where
      .source.subquery.query;
    assert.equal(query.distinct, true);
    assert.deepEqual(query.from, [
      { kind: "derived", path: path("e", "projects"), variable: "p", joins: [join("inner", toPath(path("p", "tasks")), "t")] },
      { kind: "member", path: path("e", "phones"), variable: "ph" },
      range("Other", "o"),
    ]);
  });

  test("subqueries as scalar operands, in IN, EXISTS and quantified comparisons", () => {
    const s1 = sub(select({ select: [item(agg("MAX", path("b", "x")))], from: [range("B", "b")] }));
    assert.deepEqual(w("a.x = (SELECT MAX(b.x) FROM B b)"), bin("=", path("a", "x"), s1));
    assert.deepEqual(w("a.x NOT IN (SELECT MAX(b.x) FROM B b)"), {
      type: "In",
      not: true,
      operand: path("a", "x"),
      source: { kind: "subquery", subquery: s1 },
    });
    assert.deepEqual(w("NOT EXISTS (SELECT MAX(b.x) FROM B b)"), { type: "Exists", not: true, subquery: s1 });
    assert.deepEqual(w("NOT (EXISTS (SELECT MAX(b.x) FROM B b))"), un("NOT", { type: "Exists", not: false, subquery: s1 }));
    for (const quantifier of ["ALL", "ANY", "SOME"]) {
      assert.deepEqual(
        w(`a.x <= ${quantifier.toLowerCase()} (SELECT MAX(b.x) FROM B b)`),
        bin("<=", path("a", "x"), {
          type: "Quantified",
          quantifier,
          subquery: s1,
        }),
      );
    }
  });

  test("a subquery selects one item, has a FROM and no ORDER BY or fetch join", () => {
    whereError("EXISTS (SELECT b, c FROM B b)", { line: 1, column: 17, message: /a subquery selects a single item/ });
    whereError("EXISTS (SELECT b)", { line: 1, column: 17, expected: ['"FROM"'] });
    whereError("EXISTS (SELECT b FROM B b ORDER BY b.x)", { line: 1, column: 27, expected: ['")"'] });
    whereError("EXISTS (SELECT b FROM B b JOIN FETCH b.c)", { line: 1, column: 27, message: /a subquery cannot have a fetch join/ });
    whereError("EXISTS (SELECT b FROM e.bs WHERE 1 = 1)", { line: 1, column: 28, message: /a derived path needs an identification variable/ });
  });
});

describe("UPDATE and DELETE", () => {
  test("UPDATE without a variable, several items, NULL, parameters, no WHERE", () => {
    assert.deepEqual(q("update Employee set salary = salary * 1.1, manager = NULL, dept.name = :n, AS_OF = CURRENT_DATE"), {
      type: "Update",
      entity: "Employee",
      set: [
        { path: path("salary"), value: bin("*", path("salary"), lit("double", 1.1, "1.1")) },
        { path: path("manager"), value: NULL },
        { path: path("dept", "name"), value: named("n") },
        { path: path("AS_OF"), value: fn("CURRENT_DATE") },
      ],
    });
    assert.equal((parseJpql("UPDATE Employee AS e SET e.x = 1") as JUpdate).variable, "e");
  });

  test("DELETE without a variable or WHERE", () => {
    assert.deepEqual(q("delete from org.acme.Customer"), { type: "Delete", entity: "org.acme.Customer" });
  });

  test("malformed UPDATE and DELETE", () => {
    syntaxError("DELETE Customer c", { line: 1, column: 8, expected: ['"FROM"'] });
    syntaxError("UPDATE Customer c WHERE c.x = 1", { line: 1, column: 19, expected: ['"SET"'] });
    syntaxError("UPDATE Customer c SET c.status == 'x'", { line: 1, column: 32, message: /"==" is not a JPQL operator; use "="/ });
    syntaxError("UPDATE Customer c SET", { line: 1, column: 22, expected: ["identifier"] });
  });
});

// --- Conditional expressions ------------------------------------------------------------------------

describe("conditional expressions", () => {
  test("precedence: OR < AND < NOT < comparison < || < + - < * / < unary", () => {
    assert.deepEqual(w("a.x OR a.y AND a.z"), bin("OR", path("a", "x"), bin("AND", path("a", "y"), path("a", "z"))));
    assert.deepEqual(w("NOT a.x AND a.y"), bin("AND", un("NOT", path("a", "x")), path("a", "y")));
    assert.deepEqual(w("NOT a.x = 1"), un("NOT", bin("=", path("a", "x"), int(1))));
    assert.deepEqual(w("NOT NOT a.x"), un("NOT", un("NOT", path("a", "x"))));
    assert.deepEqual(w("a.s || 'x' = 'y'"), bin("=", bin("||", path("a", "s"), str("x")), str("y")));
    assert.deepEqual(w("a.s || a.n + 1 = 'y'"), bin("=", bin("||", path("a", "s"), bin("+", path("a", "n"), int(1))), str("y")));
    assert.deepEqual(w("a.x + 1 * 2 > 3"), bin(">", bin("+", path("a", "x"), bin("*", int(1), int(2))), int(3)));
    assert.deepEqual(w("-a.x * 2 < 0"), bin("<", bin("*", un("-", path("a", "x")), int(2)), int(0)));
    assert.deepEqual(w("(a.x OR a.y) AND a.z"), bin("AND", bin("OR", path("a", "x"), path("a", "y")), path("a", "z")));
  });

  test("binary operators are left-associative", () => {
    assert.deepEqual(w("a.x - 1 - 2 = 0").left, bin("-", bin("-", path("a", "x"), int(1)), int(2)));
    assert.deepEqual(w("a.x / 2 * 3 = 0").left, bin("*", bin("/", path("a", "x"), int(2)), int(3)));
    assert.deepEqual(w("a.x OR a.y OR a.z"), bin("OR", bin("OR", path("a", "x"), path("a", "y")), path("a", "z")));
  });

  test("comparison operators", () => {
    for (const op of ["=", "<>", "<", "<=", ">", ">="]) {
      assert.deepEqual(w(`a.x ${op} 1`), bin(op, path("a", "x"), int(1)), op);
      assert.deepEqual(w(`a.x${op}1`), bin(op, path("a", "x"), int(1)), op);
    }
    assert.deepEqual(w("a.active"), path("a", "active"));
    assert.deepEqual(w("TRUE"), bool(true));
  });

  test("[NOT] BETWEEN: its AND is not the logical AND", () => {
    assert.deepEqual(
      w("a.x BETWEEN 1 AND 2 + 3 AND a.y NOT BETWEEN 'a' AND 'b'"),
      bin(
        "AND",
        { type: "Between", not: false, operand: path("a", "x"), low: int(1), high: bin("+", int(2), int(3)) },
        { type: "Between", not: true, operand: path("a", "y"), low: str("a"), high: str("b") },
      ),
    );
    assert.deepEqual(w("a.d BETWEEN {d '2024-01-01'} AND :end").high, named("end"));
    whereError("a.x BETWEEN 1", { line: 1, column: 14, expected: ['"AND"'], message: /expected "AND" or an operator/ });
  });

  test("[NOT] LIKE with ESCAPE", () => {
    assert.deepEqual(w("a.s LIKE 'QA\\_%' ESCAPE '\\'"), {
      type: "Like",
      not: false,
      operand: path("a", "s"),
      pattern: str("QA\\_%"),
      escape: str("\\"),
    });
    assert.deepEqual(w("a.s NOT LIKE :p ESCAPE :e"), {
      type: "Like",
      not: true,
      operand: path("a", "s"),
      pattern: named("p"),
      escape: named("e"),
    });
    assert.deepEqual(w("UPPER(a.s) LIKE CONCAT('%', :x, '%')").pattern, fn("CONCAT", str("%"), named("x"), str("%")));
  });

  test("[NOT] IN: lists, a collection-valued parameter, a subquery", () => {
    assert.deepEqual(w("a.x IN ('UK', 'US', :p, a.y)"), {
      type: "In",
      not: false,
      operand: path("a", "x"),
      source: { kind: "list", items: [str("UK"), str("US"), named("p"), path("a", "y")] },
    });
    assert.deepEqual(w("a.x IN (?1, ?2)").source.items, [positional(1), positional(2)]);
    assert.deepEqual(w("a.x NOT IN (1)").source, { kind: "list", items: [int(1)] });
    assert.deepEqual(w("a.x IN :ids"), { type: "In", not: false, operand: path("a", "x"), source: { kind: "param", param: named("ids") } });
    assert.deepEqual(w("a.x IN ?2").source, { kind: "param", param: positional(2) });
    assert.deepEqual(w("a.status IN (org.x.Status.A, org.x.Status.B)").source.items, [path("org", "x", "Status", "A"), path("org", "x", "Status", "B")]);
    whereError("a.x IN ()", { line: 1, column: 8, message: /an IN list needs at least one item/ });
    whereError("a.x IN (1, 2", { line: 1, column: 13, expected: ['")"', '","'] });
  });

  test("IS [NOT] NULL, IS [NOT] EMPTY", () => {
    assert.deepEqual(w("a.x IS NULL"), { type: "IsNull", not: false, operand: path("a", "x") });
    assert.deepEqual(w(":p IS NOT NULL"), { type: "IsNull", not: true, operand: named("p") });
    assert.deepEqual(w("a.items IS NOT EMPTY"), { type: "IsEmpty", not: true, collection: path("a", "items") });
    whereError("a.x IS 1", { line: 1, column: 8, expected: ['"NOT"', '"NULL"', '"EMPTY"'] });
  });

  test("[NOT] MEMBER [OF]", () => {
    assert.deepEqual(w("a.x MEMBER a.xs"), { type: "MemberOf", not: false, element: path("a", "x"), collection: path("a", "xs") });
    assert.deepEqual(w(":e NOT MEMBER OF a.xs"), { type: "MemberOf", not: true, element: named("e"), collection: path("a", "xs") });
    whereError("a.x MEMBER OF 1", { line: 1, column: 15, expected: ["identifier"] });
  });

  test("NOT before a predicate keyword", () => {
    whereError("a.x NOT 1", { line: 1, column: 9, expected: ['"BETWEEN"', '"LIKE"', '"IN"', '"MEMBER"'] });
  });
});

// --- Scalar expressions and functions -----------------------------------------------------------------

describe("functions", () => {
  test("string functions", () => {
    assert.deepEqual(s("CONCAT(a.x, 'b', a.y)"), fn("CONCAT", path("a", "x"), str("b"), path("a", "y")));
    assert.deepEqual(s("SUBSTRING(a.s, 1)"), fn("SUBSTRING", path("a", "s"), int(1)));
    assert.deepEqual(s("substring(a.s, 1, 2)"), fn("SUBSTRING", path("a", "s"), int(1), int(2)));
    assert.deepEqual(s("LOWER(a.s)"), fn("LOWER", path("a", "s")));
    assert.deepEqual(s("Upper(a.s)"), fn("UPPER", path("a", "s")));
    assert.deepEqual(s("LENGTH(a.s)"), fn("LENGTH", path("a", "s")));
    assert.deepEqual(s("LOCATE('x', a.s)"), fn("LOCATE", str("x"), path("a", "s")));
    assert.deepEqual(s("LOCATE('x', a.s, 3)"), fn("LOCATE", str("x"), path("a", "s"), int(3)));
    assert.deepEqual(s("LEFT(a.s, 2)"), fn("LEFT", path("a", "s"), int(2)));
    assert.deepEqual(s("RIGHT(a.s, 2)"), fn("RIGHT", path("a", "s"), int(2)));
    assert.deepEqual(s("REPLACE(a.s, 'a', 'b')"), fn("REPLACE", path("a", "s"), str("a"), str("b")));
  });

  test("TRIM in all its forms", () => {
    const from = path("a", "s");
    assert.deepEqual(s("TRIM(a.s)"), { type: "Trim", spec: "BOTH", from });
    assert.deepEqual(s("TRIM(FROM a.s)"), { type: "Trim", spec: "BOTH", from });
    assert.deepEqual(s("TRIM(LEADING FROM a.s)"), { type: "Trim", spec: "LEADING", from });
    assert.deepEqual(s("TRIM('x' FROM a.s)"), { type: "Trim", spec: "BOTH", char: str("x"), from });
    assert.deepEqual(s("trim(trailing :c from a.s)"), { type: "Trim", spec: "TRAILING", char: named("c"), from });
    assert.deepEqual(s("TRIM(BOTH 'x' FROM a.s)"), { type: "Trim", spec: "BOTH", char: str("x"), from });
    assert.deepEqual(s("TRIM('x')"), { type: "Trim", spec: "BOTH", from: str("x") });
  });

  test("numeric functions", () => {
    const n = path("a", "n");
    for (const name of ["ABS", "SQRT", "CEILING", "FLOOR", "EXP", "LN", "SIGN"]) assert.deepEqual(s(`${name}(a.n)`), fn(name, n));
    for (const name of ["MOD", "POWER", "ROUND"]) assert.deepEqual(s(`${name}(a.n, 2)`), fn(name, n, int(2)));
    assert.deepEqual(s("SIZE(a.items)"), fn("SIZE", path("a", "items")));
    assert.deepEqual(s("INDEX(a)"), fn("INDEX", path("a")));
    assert.deepEqual(s("ID(a)"), fn("ID", path("a")));
    assert.deepEqual(s("version(a.b)"), fn("VERSION", path("a", "b")));
  });

  test("date and time functions", () => {
    assert.deepEqual(s("CURRENT_DATE"), fn("CURRENT_DATE"));
    assert.deepEqual(s("current_time"), fn("CURRENT_TIME"));
    assert.deepEqual(s("CURRENT_TIMESTAMP"), fn("CURRENT_TIMESTAMP"));
    assert.deepEqual(s("LOCAL DATE"), fn("LOCAL DATE"));
    assert.deepEqual(s("local  time"), fn("LOCAL TIME"));
    assert.deepEqual(s("LOCAL DATETIME"), fn("LOCAL DATETIME"));
    for (const field of ["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "DATE", "TIME"]) {
      assert.deepEqual(s(`EXTRACT(${field.toLowerCase()} FROM a.d)`), { type: "Extract", field, from: path("a", "d") });
    }
    syntaxError("SELECT EXTRACT(CENTURY FROM a.d) FROM A a", { line: 1, column: 16, message: /expected date\/time field \(YEAR, QUARTER/ });
    syntaxError("SELECT LOCAL NOW FROM A a", { line: 1, column: 14, expected: ['"DATE"', '"TIME"', '"DATETIME"'] });
  });

  test("CAST (3.2)", () => {
    assert.deepEqual(s("CAST(a.n AS STRING)"), { type: "Cast", operand: path("a", "n"), target: "STRING" });
    for (const target of ["INTEGER", "LONG", "FLOAT", "DOUBLE"]) {
      assert.deepEqual(s(`cast(a.s as ${target.toLowerCase()})`), { type: "Cast", operand: path("a", "s"), target });
    }
    syntaxError("SELECT CAST(a.s AS DATE) FROM A a", { line: 1, column: 20, message: /cast type \(STRING, INTEGER/ });
    // `cast` is not reserved: a variable may be called so.
    assert.deepEqual(q("SELECT cast FROM A cast").select, [item(path("cast"))]);
  });

  test("FUNCTION('name', args)", () => {
    assert.deepEqual(s("FUNCTION('soundex', a.s)"), fn("FUNCTION", str("soundex"), path("a", "s")));
    assert.deepEqual(s("FUNCTION('random')"), fn("FUNCTION", str("random")));
    syntaxError("SELECT FUNCTION(soundex, a.s) FROM A a", {
      line: 1,
      column: 17,
      message: /expected string literal, found "soundex"$/,
    });
  });

  test("arities are checked", () => {
    syntaxError("SELECT LOWER(a.x, a.y) FROM A a", { line: 1, column: 17, expected: ['")"'], message: /expected "\)", "\." or an operator, found ","/ });
    syntaxError("SELECT MOD(a.x) FROM A a", { line: 1, column: 15, expected: ['","'] });
    syntaxError("SELECT CONCAT(a.x) FROM A a", { line: 1, column: 18, expected: ['","'] });
    syntaxError("SELECT SUBSTRING(a.s, 1, 2, 3) FROM A a", { line: 1, column: 27, expected: ['")"'] });
    syntaxError("SELECT ID(a, b) FROM A a", { line: 1, column: 12, expected: ['")"'] });
    syntaxError("SELECT COALESCE(a.x) FROM A a", { line: 1, column: 20, expected: ['","'] });
  });

  test("unknown functions and method calls are explicit errors", () => {
    whereError("YEAR(a.d) = 2024", { line: 1, column: 1, message: /unknown function "YEAR"; call a database function with FUNCTION\('YEAR', \.\.\.\)/ });
    whereError("a.name.startsWith('x')", { line: 1, column: 18, message: /JPQL has no method calls/ });
    syntaxError("SELECT COUNT(*) FROM A a", { line: 1, column: 8, message: /COUNT\(\*\) is not JPQL/ });
  });

  test("aggregates", () => {
    assert.deepEqual(s("COUNT(a)"), agg("COUNT", path("a")));
    assert.deepEqual(s("count(distinct a.x)"), agg("COUNT", path("a", "x"), true));
    for (const f of ["SUM", "AVG", "MIN", "MAX"]) assert.deepEqual(s(`${f}(a.n)`), agg(f, path("a", "n")));
    assert.deepEqual(s("SUM(a.n * a.m) / COUNT(a)"), bin("/", agg("SUM", bin("*", path("a", "n"), path("a", "m"))), agg("COUNT", path("a"))));
  });

  test("CASE, COALESCE, NULLIF", () => {
    assert.deepEqual(s("CASE WHEN a.x = 1 THEN 'one' WHEN a.x IS NULL THEN 'none' ELSE 'other' END"), {
      type: "Case",
      whens: [
        { when: bin("=", path("a", "x"), int(1)), then: str("one") },
        { when: { type: "IsNull", not: false, operand: path("a", "x") }, then: str("none") },
      ],
      else: str("other"),
    });
    assert.deepEqual(s("case a.x when 1 then 'one' else 'other' end"), {
      type: "Case",
      operand: path("a", "x"),
      whens: [{ when: int(1), then: str("one") }],
      else: str("other"),
    });
    assert.deepEqual(s("COALESCE(a.x, a.y, 'z')"), { type: "Coalesce", args: [path("a", "x"), path("a", "y"), str("z")] });
    assert.deepEqual(s("NULLIF(a.x, 0)"), { type: "Nullif", left: path("a", "x"), right: int(0) });
    syntaxError("SELECT CASE WHEN a.x = 1 THEN 1 END FROM A a", { line: 1, column: 33, expected: ['"ELSE"', '"WHEN"'] });
    syntaxError("SELECT CASE a.x ELSE 1 END FROM A a", { line: 1, column: 17, expected: ['"WHEN"'] });
  });

  test("KEY, VALUE, ENTRY, OBJECT, TYPE over paths and parameters", () => {
    assert.deepEqual(s("KEY(m)"), { type: "KeyValueEntry", fn: "KEY", variable: "m" });
    assert.deepEqual(s("value(m).name"), path({ type: "KeyValueEntry", fn: "VALUE", variable: "m" }, "name"));
    assert.deepEqual(s("ENTRY(m)"), { type: "KeyValueEntry", fn: "ENTRY", variable: "m" });
    assert.deepEqual(s("TYPE(a.b)"), { type: "Type", arg: path("a", "b") });
    assert.deepEqual(s("TYPE(:t)"), { type: "Type", arg: named("t") });
    syntaxError("SELECT KEY(m.x) FROM A a", { line: 1, column: 13, expected: ['")"'] });
  });

  test("NEW takes a qualified class name and at least one argument", () => {
    assert.deepEqual(s("NEW a.b.Info(a.x, COUNT(a), CASE WHEN TRUE THEN 1 ELSE 0 END)"), {
      type: "New",
      className: "a.b.Info",
      classPos: { offset: 11, line: 1, column: 12 },
      args: [path("a", "x"), agg("COUNT", path("a")), { type: "Case", whens: [{ when: bool(true), then: int(1) }], else: int(0) }],
    });
    assert.deepEqual(s("new Value(a.x)"), { type: "New", className: "Value", classPos: { offset: 11, line: 1, column: 12 }, args: [path("a", "x")] });
    syntaxError("SELECT NEW a.Info() FROM A a", { line: 1, column: 19, message: /expected an expression/ });
    syntaxError("SELECT NEW (a.x) FROM A a", { line: 1, column: 12, expected: ["class name"] });
    syntaxError("SELECT a.x FROM A a WHERE NEW a.B(1) = 1", { line: 1, column: 27 });
  });
});

describe("arithmetic and concatenation", () => {
  test("unary operators nest and bind tightest", () => {
    assert.deepEqual(s("- -a.x"), un("-", un("-", path("a", "x"))));
    assert.deepEqual(s("+a.x"), un("+", path("a", "x")));
    assert.deepEqual(s("a.x+-1"), bin("+", path("a", "x"), un("-", int(1))));
  });

  test("|| concatenates (3.2), left-associative", () => {
    assert.deepEqual(s("a.first || ' ' || a.last"), bin("||", bin("||", path("a", "first"), str(" ")), path("a", "last")));
  });
});

// --- Literals and parameters ------------------------------------------------------------------------

describe("literals", () => {
  test("integers: int, long, biginteger by suffix and size", () => {
    const cases: [string, string, unknown][] = [
      ["0", "int", 0],
      ["42", "int", 42],
      ["2147483647", "int", 2147483647],
      ["2147483648", "long", 2147483648],
      ["7L", "long", 7],
      ["7l", "long", 7],
      ["10BI", "biginteger", "10"],
      ["10bi", "biginteger", "10"],
      // Beyond 2^53 a long stays a BigInt, to be bound exactly.
      ["9223372036854775807", "long", 9223372036854775807n],
      ["9223372036854775808", "biginteger", "9223372036854775808"],
    ];
    for (const [raw, kind, value] of cases) assert.deepEqual(s(raw), lit(kind, value, raw), raw);
  });

  test("floating point: double by default, F, D, BD (3.2)", () => {
    const cases: [string, string, unknown][] = [
      ["1.5", "double", 1.5],
      [".5", "double", 0.5],
      ["1.", "double", 1],
      ["1e3", "double", 1000],
      ["2.5E-3", "double", 0.0025],
      ["1.5F", "float", 1.5],
      ["2f", "float", 2],
      ["3D", "double", 3],
      ["1.25d", "double", 1.25],
      ["10BD", "decimal", "10"],
      ["1.50bd", "decimal", "1.50"],
      ["1e2BD", "decimal", "1e2"],
    ];
    for (const [raw, kind, value] of cases) assert.deepEqual(s(raw), lit(kind, value, raw), raw);
  });

  test("malformed numbers", () => {
    syntaxError("SELECT 12abc FROM A a", { line: 1, column: 8, message: /expected .*an expression, found "12abc"/ });
    syntaxError("SELECT 10B FROM A a", { line: 1, column: 8 });
    syntaxError("SELECT 99999999999999999999L FROM A a", { line: 1, column: 8, message: /too large for a long/ });
  });

  test("strings: single quotes, '' for a quote, no escapes, line breaks kept", () => {
    assert.deepEqual(s("'O''Brien'"), str("O'Brien", "'O''Brien'"));
    assert.deepEqual(s("''"), str("", "''"));
    assert.deepEqual(s("''''"), str("'", "''''"));
    assert.deepEqual(s("'a\\nb'"), str("a\\nb"));
    assert.deepEqual(s("'two\nlines'"), str("two\nlines"));
    assert.deepEqual(s("'SELECT x FROM y WHERE'"), str("SELECT x FROM y WHERE"));
  });

  test("bad strings", () => {
    whereError("a.s = 'abc", { line: 1, column: 7, message: /unterminated string literal/ });
    whereError("a.s = 'it''s", { line: 1, column: 7, message: /unterminated string literal/ });
    whereError('a.s = "abc"', { line: 1, column: 7, message: /JPQL string literals are written in single quotes/ });
  });

  test("booleans and null, any case", () => {
    assert.deepEqual(s("TRUE"), bool(true, "TRUE"));
    assert.deepEqual(s("false"), bool(false, "false"));
    assert.deepEqual(s("True"), bool(true, "True"));
    assert.deepEqual(s("NULL"), NULL);
    assert.deepEqual(s("null"), lit("null", null, "null"));
    assert.deepEqual(w("a.nullable = a.trueValue"), bin("=", path("a", "nullable"), path("a", "trueValue")));
  });

  test("JDBC date, time and timestamp escapes", () => {
    assert.deepEqual(s("{d '2024-01-31'}"), lit("date", "2024-01-31", "{d '2024-01-31'}"));
    assert.deepEqual(s("{d '2024-2-9'}"), lit("date", "2024-02-09", "{d '2024-2-9'}"));
    assert.deepEqual(s("{ D'2024-02-29' }"), lit("date", "2024-02-29", "{ D'2024-02-29' }"));
    assert.deepEqual(s("{t '23:59:59'}"), lit("time", "23:59:59", "{t '23:59:59'}"));
    assert.deepEqual(s("{ts '2024-01-31 10:15:30'}"), lit("timestamp", "2024-01-31T10:15:30", "{ts '2024-01-31 10:15:30'}"));
    assert.deepEqual(s("{TS '2024-01-31 10:15:30.123456789'}").value, "2024-01-31T10:15:30.123456789");
    assert.deepEqual(w("a.d BETWEEN {d '2024-01-01'} AND {d '2024-12-31'}").low, lit("date", "2024-01-01", "{d '2024-01-01'}"));
  });

  test("malformed date and time escapes", () => {
    syntaxError("SELECT {d '2023-02-29'} FROM A a", { line: 1, column: 11, message: /invalid date literal '2023-02-29'; expected \{d 'yyyy-mm-dd'\}/ });
    syntaxError("SELECT {d '2024-13-01'} FROM A a", { line: 1, column: 11, message: /invalid date literal/ });
    syntaxError("SELECT {t '24:00:00'} FROM A a", { line: 1, column: 11, message: /invalid time literal/ });
    syntaxError("SELECT {ts '2024-01-01'} FROM A a", { line: 1, column: 12, message: /\{ts 'yyyy-mm-dd hh:mm:ss\[\.f\.\.\.\]'\}/ });
    syntaxError("SELECT {x '2024-01-01'} FROM A a", { line: 1, column: 9, expected: ["d, t or ts"] });
    syntaxError("SELECT {d '2024-01-01' FROM A a", { line: 1, column: 24, expected: ['"}"'] });
  });
});

describe("parameters", () => {
  test("named parameters: case-sensitive, any word after the colon", () => {
    assert.deepEqual(w("a.x = :Name AND a.y = :order"), bin("AND", bin("=", path("a", "x"), named("Name")), bin("=", path("a", "y"), named("order"))));
    assert.deepEqual(w("a.x = :p OR a.y = :p").right.right, named("p"));
    whereError("a.x = : p", { line: 1, column: 8, expected: ["parameter name"], message: /found whitespace$/ });
  });

  test("positional parameters: numbered from 1, reusable, any order", () => {
    assert.deepEqual(w("a.x = ?2 AND a.y = ?1 AND a.z = ?2").left.left.right, positional(2));
    whereError("a.x = ?0", { line: 1, column: 8, message: /positional parameters are numbered from 1/ });
    whereError("a.x = ? 1", { line: 1, column: 8, expected: ["parameter number"] });
    whereError("a.x = ?1a", { line: 1, column: 8, expected: ["parameter number"] });
  });

  test("named and positional parameters are never mixed", () => {
    whereError("a.x = :a AND a.y = ?1", { line: 1, column: 20, message: /named and positional parameters cannot be mixed/ });
    syntaxError("SELECT a FROM A a WHERE a.x = ?1 AND EXISTS (SELECT b FROM B b WHERE b.y = :b)", {
      line: 1,
      column: 76,
      message: /cannot be mixed/,
    });
  });
});

// --- Keywords and names -----------------------------------------------------------------------------

describe("keywords and names", () => {
  test("keywords are case-insensitive", () => {
    assert.deepEqual(
      q("SeLeCt DiStInCt e FrOm Employee e wHeRe e.x = tRuE oRdEr By e.y DeSc"),
      select({
        distinct: true,
        select: [item(path("e"))],
        from: [range("Employee", "e")],
        where: bin("=", path("e", "x"), bool(true, "tRuE")),
        orderBy: [order(path("e", "y"), true)],
      }),
    );
    assert.equal(q("select e from Employee e left outer join fetch e.a where e.b is not empty").from[0].joins[0].kind, "left");
  });

  test("a keyword must be a whole word", () => {
    assert.deepEqual(q("SELECT selection FROM Employee orders WHERE isbn = notes").where, bin("=", path("isbn"), path("notes")));
    assert.deepEqual(w("a.x = inx OR orx"), bin("OR", bin("=", path("a", "x"), path("inx")), path("orx")));
  });

  test("entity names are case-sensitive, as written; reserved words may name entities (FROM Order o)", () => {
    assert.deepEqual(q("SELECT g FROM Group g JOIN Member m ON m.g = g, Value v").from, [
      range("Group", "g", [join("inner", toEntity("Member"), "m", bin("=", path("m", "g"), path("g")))]),
      range("Value", "v"),
    ]);
    assert.equal(q("SELECT e FROM employee e").from[0].entity, "employee");
    assert.deepEqual(q("UPDATE Set s SET s.x = 1").entity, "Set");
    syntaxError("SELECT e FROM WHERE e", { line: 1, column: 15, expected: ["entity name"] });
  });

  test("reserved identifiers cannot be identification or result variables", () => {
    syntaxError("SELECT o FROM Order order WHERE o.x = 1", {
      line: 1,
      column: 21,
      message: /"order" is a reserved identifier and cannot be an identification variable/,
    });
    syntaxError("SELECT v FROM Employee value", { line: 1, column: 24, message: /"value" is a reserved identifier/ });
    syntaxError("SELECT e FROM Employee AS select", { line: 1, column: 27, message: /cannot be an identification variable/ });
    syntaxError("SELECT e FROM Employee e JOIN e.projects member", { line: 1, column: 42, message: /"member" is a reserved/ });
    syntaxError("SELECT e.name AS count FROM Employee e", {
      line: 1,
      column: 18,
      message: /"count" is a reserved identifier and cannot be a result variable/,
    });
    syntaxError("SELECT e FROM Employee e, IN(e.phones) AS key", { line: 1, column: 43, message: /"key" is a reserved/ });
  });

  test("reserved identifiers cannot start a path, but are field names after a dot", () => {
    assert.deepEqual(
      w("a.order = a.value.select AND a.FROM = a.count"),
      bin("AND", bin("=", path("a", "order"), path("a", "value", "select")), bin("=", path("a", "FROM"), path("a", "count"))),
    );
    whereError("order.x = 1", { line: 1, column: 1, message: /expected an expression, found "order"/ });
  });

  test("identification variables keep their case (the binder compares them case-insensitively)", () => {
    const tree = q("SELECT E FROM Employee e WHERE E.id = 1");
    assert.deepEqual(tree.select, [item(path("E"))]);
    assert.equal(tree.from[0].variable, "e");
  });

  test("Java identifiers: $, _, Unicode letters", () => {
    assert.deepEqual(w("$x._y = größe"), bin("=", path("$x", "_y"), path("größe")));
  });

  test("whitespace: spaces, tabs, CR, LF, form feed; around dots", () => {
    assert.deepEqual(
      q("\r\n\tSELECT\te\r\nFROM\fEmployee e WHERE e . name\n=\t'x' "),
      select({ select: [item(path("e"))], from: [range("Employee", "e")], where: bin("=", path("e", "name"), str("x")) }),
    );
  });
});

// --- Positions -------------------------------------------------------------------------------------

describe("positions", () => {
  test("every node carries the position of its first character", () => {
    const text =
      "SELECT DISTINCT e.name AS n, COUNT(p)\nFROM Employee e JOIN e.projects p\n  WHERE (e.salary + -1) * 2 > :min\nGROUP BY e.name\nORDER BY n DESC";
    const tree = parseJpql(text) as JSelectQuery;
    const at = (offset: number) => {
      const before = text.slice(0, offset).split("\n");
      return { offset, line: before.length, column: before[before.length - 1]!.length + 1 };
    };
    assert.deepEqual(tree.pos, at(0));
    const [i1, i2] = tree.select! as [NonNullable<typeof tree.select>[number], NonNullable<typeof tree.select>[number]];
    assert.deepEqual(i1.pos, at(text.indexOf("e.name")));
    assert.deepEqual(i1.expr.pos, at(text.indexOf("e.name")));
    assert.deepEqual(i2.expr.pos, at(text.indexOf("COUNT")));
    assert.deepEqual((i2.expr as { arg: JExpr }).arg.pos, at(text.indexOf("p)")));
    const root = tree.from[0] as { pos: unknown; joins: { pos: unknown; target: { path: JExpr } }[] };
    assert.deepEqual(root.pos, at(text.indexOf("Employee")));
    assert.deepEqual(root.joins[0]!.pos, at(text.indexOf("JOIN")));
    assert.deepEqual(root.joins[0]!.target.path.pos, at(text.indexOf("e.projects")));
    const where = tree.where as Extract<JExpr, { type: "Binary" }>;
    assert.deepEqual(where.pos, at(text.indexOf("(e.salary")));
    const product = where.left as Extract<JExpr, { type: "Binary" }>;
    assert.deepEqual(product.pos, at(text.indexOf("(e.salary")));
    const sum = product.left as Extract<JExpr, { type: "Binary" }>;
    assert.deepEqual(sum.pos, at(text.indexOf("e.salary")));
    assert.deepEqual(sum.right.pos, at(text.indexOf("-1")));
    assert.deepEqual((sum.right as { operand: JExpr }).operand.pos, at(text.indexOf("1)")));
    assert.deepEqual(where.right.pos, at(text.indexOf(":min")));
    assert.deepEqual(tree.groupBy[0]!.pos, at(text.lastIndexOf("e.name")));
    assert.deepEqual(tree.orderBy[0]!.pos, at(text.indexOf("n DESC")));
  });

  test("predicates, subqueries, set operations, literals, UPDATE items", () => {
    const text = "SELECT a FROM A a WHERE a.x NOT IN (SELECT b.x FROM B b) AND {d '2024-01-01'} < a.d UNION (SELECT c FROM C c)";
    const tree = parseJpql(text) as JSetOperation;
    assert.deepEqual(tree.pos, { offset: 0, line: 1, column: 1 });
    const left = tree.left as JSelectQuery;
    const and = left.where as Extract<JExpr, { type: "Binary" }>;
    const inExpr = and.left as Extract<JExpr, { type: "In" }>;
    assert.equal(inExpr.pos.offset, text.indexOf("a.x"));
    assert.ok(inExpr.source.kind === "subquery");
    assert.equal(inExpr.source.subquery.pos.offset, text.indexOf("(SELECT b"));
    assert.equal(inExpr.source.subquery.query.pos.offset, text.indexOf("SELECT b"));
    assert.equal((and.right as { left: JExpr }).left.pos.offset, text.indexOf("{d"));
    assert.equal((tree.right as JSelectQuery).pos.offset, text.indexOf("SELECT c"));
    const update = parseJpql("  \n UPDATE A a SET a.x = 1") as JUpdate;
    assert.deepEqual(update.pos, { offset: 4, line: 2, column: 2 });
    assert.deepEqual(update.set[0]!.pos, { offset: 19, line: 2, column: 17 });
  });

  test("error positions count lines and columns from 1", () => {
    const e = syntaxError("SELECT a\nFROM A a\nWHERE a.x =\n\t\t", { line: 4, column: 3 });
    assert.equal(e.position.offset, 32);
    assert.equal(e.name, "JpqlSyntaxError");
    assert.ok(e instanceof Error);
    syntaxError("SELECT a\nFROM A a\nWHERE a.x =\n  'abc", { line: 4, column: 3, message: /unterminated string literal/ });
  });
});

// --- Error reporting -------------------------------------------------------------------------------

describe("error reporting", () => {
  test("JDOQL and Java operators are explicit errors", () => {
    whereError("a.x == 1", { line: 1, column: 5, message: /"==" is not a JPQL operator; use "="$/ });
    whereError("a.x != 1", { line: 1, column: 5, message: /"!=" is not a JPQL operator; use "<>"/ });
    whereError("a.x = 1 && a.y = 2", { line: 1, column: 9, message: /"&&" is not a JPQL operator; use AND/ });
    whereError("a.x = 1 | a.y = 2", { line: 1, column: 9, message: /"\|" is not a JPQL operator; use OR/ });
    whereError("a.x % 2 = 0", { line: 1, column: 5, message: /"%" is not a JPQL operator; use MOD\(a, b\)/ });
    whereError("!a.active", { line: 1, column: 1, message: /"!" is not a JPQL operator; use NOT/ });
  });

  test("expected lists are readable and deduplicated; operators read as one", () => {
    const e = whereError("(a.x y)", { line: 1, column: 6, expected: ['")"', '"AND"', '"OR"', '"="', '"."', '"||"', '"<"'] });
    assert.equal(new Set(e.expected).size, e.expected.length);
    assert.equal(e.message, `line 1, column ${WHERE_PREFIX.length + 6}: expected ")", "." or an operator, found "y"`);
    const g = whereError("a.x = 1 AND", { line: 1, column: 12 });
    assert.match(g.message, /expected an expression, found end of input$/);
  });

  test("a reserved word where a name is expected says so", () => {
    syntaxError("SELECT o FROM Order o WHERE o.x MEMBER OF select", {
      line: 1,
      column: 43,
      message: /found "select" \(a reserved identifier, not allowed as a name\)/,
    });
  });

  test("grammar-raised errors carry no expectations", () => {
    const e = whereError("a.x == 1", { line: 1, column: 5 });
    assert.deepEqual(e.expected, []);
  });
});
