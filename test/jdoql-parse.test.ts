/**
 * The JDOQL grammar (grammar/jdoql.peggy) through src/query/jdoql/parse.ts: parse trees for every
 * construct of the checklist (query-languages.md §2.1–2.17), JDO TCK-style queries, and syntax
 * errors with their positions and expectations.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { JdoqlSyntaxError, parseJdoql, parseJdoqlFilter } from "../src/query/jdoql/parse.ts";
import type { SExpr, SQuery } from "../src/query/jdoql/syntax.ts";

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

const q = (text: string) => strip(parseJdoql(text));
const f = (text: string) => strip(parseJdoqlFilter(text));

const name = (n: string) => ({ type: "Name", name: n });
const THIS = { type: "This" };
const int = (value: number, raw = String(value)) => ({ type: "Literal", kind: "int", value, raw });
const str = (value: string, raw = `'${value}'`) => ({ type: "Literal", kind: "string", value, raw });
const lit = (kind: string, value: unknown, raw: string) => ({ type: "Literal", kind, value, raw });
const bin = (op: string, left: unknown, right: unknown) => ({ type: "Binary", op, left, right });
const un = (op: string, operand: unknown) => ({ type: "Unary", op, operand });
const member = (object: unknown, n: string) => ({ type: "Member", object, name: n });
const call = (object: unknown, n: string, args: unknown[] = []) => ({ type: "Call", object, name: n, args });
const path = (...parts: string[]) => parts.slice(1).reduce<unknown>((o, p) => member(o, p), parts[0] === "this" ? THIS : name(parts[0]!));
const agg = (fn: string, arg: unknown, distinct = false) => ({ type: "Aggregate", fn, distinct, arg });
const item = (expr: unknown, alias?: string) => (alias ? { expr, alias } : { expr });
const from = (className: string, more: Record<string, unknown> = {}) => ({
  kind: "class",
  className,
  excludeSubclasses: false,
  ...more,
});
const decl = (typeName: string, n: string) => ({ typeName, name: n });
const order = (expr: unknown, descending = false, nulls?: "first" | "last") => (nulls ? { expr, descending, nulls } : { expr, descending });

/** A query tree with the defaults of every clause. */
function query(parts: Record<string, unknown>) {
  return {
    type: "Query",
    unique: false,
    distinct: false,
    result: null,
    variables: [],
    parameters: [],
    imports: [],
    groupBy: [],
    orderBy: [],
    ...parts,
  };
}

interface ErrorSpec {
  line: number;
  column: number;
  /** Each of these must be among the error's expectations. */
  expected?: string[];
  message?: RegExp;
}

function syntaxError(run: () => unknown, spec: ErrorSpec): JdoqlSyntaxError {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof JdoqlSyntaxError, `expected a JdoqlSyntaxError, got ${String(caught)}`);
  const e = caught;
  assert.equal(e.position.line, spec.line, e.message);
  assert.equal(e.position.column, spec.column, e.message);
  assert.ok(e.message.startsWith(`line ${spec.line}, column ${spec.column}: `), e.message);
  for (const x of spec.expected ?? []) assert.ok(e.expected.includes(x), `${x} not in ${JSON.stringify(e.expected)}`);
  if (spec.message) assert.match(e.message, spec.message);
  return e;
}

const queryError = (text: string, spec: ErrorSpec) => syntaxError(() => parseJdoql(text), spec);
const filterError = (text: string, spec: ErrorSpec) => syntaxError(() => parseJdoqlFilter(text), spec);

const CASE_RULE = /must be written all upper-case or all lower-case/;

// --- JDO TCK-style queries ------------------------------------------------------------------------

describe("TCK-style queries", () => {
  test("candidate class and filter", () => {
    assert.deepEqual(
      q("SELECT FROM org.apache.jdo.tck.pc.company.Person WHERE personid > 1"),
      query({
        from: from("org.apache.jdo.tck.pc.company.Person"),
        where: bin(">", name("personid"), int(1)),
      }),
    );
  });

  test("result, method calls and an explicit variable, without FROM", () => {
    assert.deepEqual(
      q("select e.firstname where name.startsWith('R&D') && employees.contains(e) " + "variables org.apache.jdo.tck.pc.company.Employee e"),
      query({
        result: [item(path("e", "firstname"))],
        where: bin("&&", call(name("name"), "startsWith", [str("R&D")]), call(name("employees"), "contains", [name("e")])),
        variables: [decl("org.apache.jdo.tck.pc.company.Employee", "e")],
      }),
    );
  });

  test("aggregates, grouping and having", () => {
    assert.deepEqual(
      q("select avg(salary), sum(salary), department.name group by department.name " + "having count(department.name) > 1"),
      query({
        result: [item(agg("avg", name("salary"))), item(agg("sum", name("salary"))), item(path("department", "name"))],
        groupBy: [path("department", "name")],
        having: bin(">", agg("count", path("department", "name")), int(1)),
      }),
    );
  });

  test("UNIQUE with INTO", () => {
    assert.deepEqual(
      q("SELECT UNIQUE firstname, lastname INTO org.a.FullName FROM org.a.Person WHERE firstname == 'emp1First'"),
      query({
        unique: true,
        result: [item(name("firstname")), item(name("lastname"))],
        into: "org.a.FullName",
        from: from("org.a.Person"),
        where: bin("==", name("firstname"), str("emp1First")),
      }),
    );
  });

  test("mixed-case keywords are an error (UppercaseLowercase)", () => {
    queryError("SeLeCt FrOm org.a.Person", { line: 1, column: 1, message: CASE_RULE });
    assert.equal(q("select FROM org.a.Person").from.className, "org.a.Person");
    assert.equal(q("SELECT from org.a.Person").from.className, "org.a.Person");
  });

  test("constructor result with an implicit parameter", () => {
    assert.deepEqual(
      q("select new org.a.Info (firstname, salary, manager) where department.name == :deptName"),
      query({
        result: [
          item({
            type: "New",
            className: "org.a.Info",
            args: [item(name("firstname")), item(name("salary")), item(name("manager"))],
          }),
        ],
        where: bin("==", path("department", "name"), { type: "Param", name: "deptName" }),
      }),
    );
  });

  test("correlated subquery over a collection of the candidate", () => {
    assert.deepEqual(
      f("this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM this.department.employees e)"),
      bin(">", path("this", "weeklyhours"), {
        type: "Subquery",
        query: query({
          result: [item(agg("avg", path("e", "weeklyhours")))],
          from: { kind: "path", path: path("this", "department", "employees"), alias: "e" },
        }),
      }),
    );
  });

  test("cast, instanceof, IF-expression", () => {
    assert.deepEqual(
      f("((FullTimeEmployee)this).salary > 1000"),
      bin(">", member({ type: "Cast", typeName: "FullTimeEmployee", operand: THIS }, "salary"), int(1000)),
    );
    assert.deepEqual(f("this instanceof FullTimeEmployee"), {
      type: "InstanceOf",
      operand: THIS,
      typeName: "FullTimeEmployee",
    });
    assert.deepEqual(f("IF (x > 1) 'a' ELSE 'b'"), {
      type: "Conditional",
      test: bin(">", name("x"), int(1)),
      consequent: str("a"),
      alternate: str("b"),
    });
  });

  test("ordering and range", () => {
    const tree = q("SELECT FROM a.P ORDER BY lastname ascending, firstname DESC NULLS LAST RANGE 0, 10");
    assert.deepEqual(tree.orderBy, [order(name("lastname")), order(name("firstname"), true, "last")]);
    assert.deepEqual(tree.range, { from: int(0), to: int(10) });
    assert.deepEqual(q("SELECT FROM a.P RANGE :a, :b").range, {
      from: { type: "Param", name: "a" },
      to: { type: "Param", name: "b" },
    });
  });

  test("bulk delete", () => {
    assert.deepEqual(q("DELETE FROM a.B WHERE x == 1"), { type: "Delete", className: "a.B" });
  });
});

// --- Clauses ---------------------------------------------------------------------------------------

describe("clauses", () => {
  test("every clause, in order", () => {
    const tree = q(
      "SELECT UNIQUE DISTINCT this.a AS x, b INTO r.R FROM p.C c EXCLUDE SUBCLASSES WHERE a > :minimum " +
        "VARIABLES p.D d; int i; PARAMETERS String s, long n, import java.util.Date; import p.q.* " +
        "GROUP BY a, b HAVING count(this) > 1 ORDER BY a desc, b RANGE 5, 10",
    );
    assert.deepEqual(
      tree,
      query({
        unique: true,
        distinct: true,
        result: [item(path("this", "a"), "x"), item(name("b"))],
        into: "r.R",
        from: from("p.C", { alias: "c", excludeSubclasses: true }),
        where: bin(">", name("a"), { type: "Param", name: "minimum" }),
        variables: [decl("p.D", "d"), decl("int", "i")],
        parameters: [decl("String", "s"), decl("long", "n")],
        imports: ["java.util.Date", "p.q.*"],
        groupBy: [name("a"), name("b")],
        having: bin(">", agg("count", THIS), int(1)),
        orderBy: [order(name("a"), true), order(name("b"))],
        range: { from: int(5), to: int(10) },
      }),
    );
  });

  test("SELECT alone, and SELECT is mandatory", () => {
    assert.deepEqual(q("SELECT"), query({}));
    queryError("FROM a.B", { line: 1, column: 1, expected: ['"SELECT"', '"DELETE"', '"UPDATE"'] });
    queryError("", { line: 1, column: 1, expected: ['"SELECT"'], message: /found end of input/ });
  });

  test("clauses out of order are errors", () => {
    queryError("SELECT FROM a.B ORDER BY x WHERE y == 1", { line: 1, column: 28, expected: ["end of input"] });
    queryError("SELECT FROM a.B PARAMETERS int p VARIABLES X x", { line: 1, column: 34 });
    queryError("SELECT FROM a.B RANGE 0, 1 ORDER BY x", { line: 1, column: 28 });
    queryError("SELECT FROM a.B GROUP BY x import a.C", { line: 1, column: 28 });
    queryError("SELECT INTO a.R x FROM a.B", { line: 1, column: 17 });
  });

  test("trailing garbage after a complete query", () => {
    queryError("SELECT FROM a.B b c", { line: 1, column: 19, expected: ['"WHERE"', "end of input"] });
    filterError("x == 1 y", { line: 1, column: 8, expected: ["end of input"] });
    filterError("x == 1)", { line: 1, column: 7 });
  });

  test("a filter is an expression, not a query", () => {
    filterError("SELECT FROM a.B", { line: 1, column: 1, message: /expected an expression, found "SELECT"$/ });
    filterError("", { line: 1, column: 1, message: /expected an expression, found end of input/ });
  });

  test("result: this, DISTINCT, aliases, trailing comma", () => {
    assert.deepEqual(q("select this from a.B").result, [item(THIS)]);
    const tree = q("SELECT DISTINCT a AS x, b as y, FROM a.B");
    assert.equal(tree.distinct, true);
    assert.deepEqual(tree.result, [item(name("a"), "x"), item(name("b"), "y")]);
    queryError("SELECT DISTINCT FROM a.B", { line: 1, column: 17, message: /expected an expression, found "FROM"$/ });
    queryError("SELECT a AS FROM a.B", { line: 1, column: 13, expected: ["identifier"] });
  });

  test("constructor result with aliases", () => {
    assert.deepEqual(q("SELECT new p.Info(a AS x, this.b) FROM p.C").result, [
      item({ type: "New", className: "p.Info", args: [item(name("a"), "x"), item(path("this", "b"))] }),
    ]);
    assert.deepEqual(q("SELECT NEW p.Empty() FROM p.C").result, [item({ type: "New", className: "p.Empty", args: [] })]);
  });

  test("candidate alias, AS alias, EXCLUDE SUBCLASSES", () => {
    assert.deepEqual(q("SELECT FROM a.B p").from, from("a.B", { alias: "p" }));
    assert.deepEqual(q("SELECT FROM a.B AS p").from, from("a.B", { alias: "p" }));
    assert.deepEqual(q("select from B exclude subclasses").from, from("B", { excludeSubclasses: true }));
    queryError("SELECT FROM a.B EXCLUDE", { line: 1, column: 24, expected: ['"SUBCLASSES"'] });
  });

  test("variables: `;`-separated, optional trailing `;`, generic and array types", () => {
    assert.deepEqual(q("SELECT FROM a.B VARIABLES Employee e; Project p;").variables, [decl("Employee", "e"), decl("Project", "p")]);
    assert.deepEqual(q("SELECT FROM a.B VARIABLES java.util.Map<String, java.util.List<Integer>> m").variables, [
      decl("java.util.Map<String,java.util.List<Integer>>", "m"),
    ]);
  });

  test("parameters: `,`-separated, optional trailing `,`, generic, array and primitive types", () => {
    assert.deepEqual(q("SELECT FROM a.B PARAMETERS java.util.Collection<String> c, Map<String, Integer> m, int[] a, boolean b,").parameters, [
      decl("java.util.Collection<String>", "c"),
      decl("Map<String,Integer>", "m"),
      decl("int[]", "a"),
      decl("boolean", "b"),
    ]);
    assert.deepEqual(q("SELECT FROM a.B PARAMETERS Collection<?> c").parameters, [decl("Collection<?>", "c")]);
    queryError("SELECT FROM a.B PARAMETERS int", { line: 1, column: 31, expected: ["identifier"] });
    queryError("SELECT FROM a.B PARAMETERS Map<String x", { line: 1, column: 39, expected: ['","', '">"'] });
  });

  test("imports: single-type and on-demand, semicolons optional, duplicates allowed", () => {
    assert.deepEqual(q("SELECT FROM a.B import a.b.C; import a.b.*; IMPORT a.b.C").imports, ["a.b.C", "a.b.*", "a.b.C"]);
    assert.deepEqual(q("SELECT FROM a.B import a.b.C import d.*").imports, ["a.b.C", "d.*"]);
    queryError("SELECT FROM a.B import a.b.", { line: 1, column: 28 });
  });

  test("ordering: directions and nulls ordering in both cases", () => {
    assert.deepEqual(q("SELECT FROM a.B ORDER BY a ASC, b asc, c ASCENDING, d desc, e DESCENDING nulls first, f NULLS LAST,").orderBy, [
      order(name("a")),
      order(name("b")),
      order(name("c")),
      order(name("d"), true),
      order(name("e"), true, "first"),
      order(name("f"), false, "last"),
    ]);
    queryError("SELECT FROM a.B ORDER BY a NULLS", { line: 1, column: 33, expected: ['"FIRST"', '"LAST"'] });
    queryError("SELECT FROM a.B ORDER a", { line: 1, column: 23, expected: ['"BY"'] });
  });

  test("range bounds", () => {
    assert.deepEqual(q("SELECT FROM a.B RANGE 0L, ?1").range, {
      from: lit("long", 0, "0L"),
      to: { type: "PositionalParam", index: 1 },
    });
    queryError("SELECT FROM a.B RANGE 5", { line: 1, column: 24, expected: ['","'] });
  });

  test("grouping with a trailing comma, HAVING only after GROUP BY", () => {
    assert.deepEqual(q("SELECT a FROM a.B GROUP BY a, HAVING count(a) > 1").groupBy, [name("a")]);
    queryError("SELECT a FROM a.B HAVING a > 1", { line: 1, column: 19 });
  });

  test("whitespace: spaces, tabs, CR, LF and form feed between tokens", () => {
    assert.deepEqual(f("x\f== 0\f"), bin("==", name("x"), int(0)));
    assert.deepEqual(
      q("\r\n\tSELECT\tthis\r\nFROM\n  a.B\tWHERE\r\n x\n==\t1 \n"),
      query({ result: [item(THIS)], from: from("a.B"), where: bin("==", name("x"), int(1)) }),
    );
    assert.deepEqual(f(" this . name == 'x' "), bin("==", path("this", "name"), str("x")));
  });
});

// --- Keywords --------------------------------------------------------------------------------------

describe("keywords", () => {
  test("each keyword all upper-case or all lower-case, mixed across keywords", () => {
    const tree = q(
      "select DISTINCT a as x INTO r.R from a.B EXCLUDE subclasses where a > 0 group BY a having COUNT(a) > 1 ORDER by a DESCENDING nulls LAST range 0, 1",
    );
    assert.equal(tree.distinct, true);
    assert.equal(tree.from.excludeSubclasses, true);
    assert.deepEqual(tree.orderBy, [order(name("a"), true, "last")]);
  });

  test("a mixed-case keyword is an error at its position, wherever it appears", () => {
    queryError("SELECT FROM a.B Where x == 1", { line: 1, column: 17, message: /"Where" must be written/ });
    queryError("SELECT FROM a.B WHERE x == 1 Order BY x", { line: 1, column: 30, message: CASE_RULE });
    queryError("SELECT FROM a.B ORDER BY x Desc", { line: 1, column: 28, message: CASE_RULE });
    queryError("SELECT Distinct x FROM a.B", { line: 1, column: 8, message: CASE_RULE });
    queryError("SELECT FROM a.B Exclude SUBCLASSES", { line: 1, column: 17, message: CASE_RULE });
    queryError("Delete FROM a.B", { line: 1, column: 1, message: CASE_RULE });
    filterError("Count(this) > 1", { line: 1, column: 1, message: /\("COUNT" or "count"\)/ });
    filterError("x == True", { line: 1, column: 6, message: CASE_RULE });
    filterError("If (a) 1 ELSE 2", { line: 1, column: 1, message: CASE_RULE });
    filterError("x\n  && y Instanceof Z", { line: 2, column: 8, message: CASE_RULE });
  });

  test("keywords cannot be class, package, parameter or variable names (InvalidUseOfKeywords)", () => {
    queryError("SELECT INTO range.PersonResult FROM a.Person", { line: 1, column: 13, expected: ["identifier"] });
    queryError("SELECT INTO range FROM a.Person", { line: 1, column: 13, message: /"range" \(a reserved word/ });
    queryError("SELECT FROM select.Person", { line: 1, column: 13 });
    queryError("SELECT FROM select", { line: 1, column: 13 });
    queryError("SELECT FROM a.Person PARAMETERS int this", { line: 1, column: 37 });
    queryError("SELECT FROM a.Person VARIABLES long this", { line: 1, column: 37 });
    queryError("SELECT FROM a.Person PARAMETERS int range", { line: 1, column: 37 });
    filterError("select == 1", { line: 1, column: 1 });
    filterError("x == class", { line: 1, column: 6 });
    queryError("SELECT FROM a.B AS from", { line: 1, column: 20 });
  });

  test("an implicit parameter may be named like a keyword: the colon marks it (HAVING count(this) >= :min)", () => {
    const e = parseJdoqlFilter(":min") as { type: string; name: string };
    assert.equal(e.type, "Param");
    assert.equal(e.name, "min");
  });

  test("a keyword is a member name after a dot (KeywordsAsFieldNames)", () => {
    assert.deepEqual(
      f("this.select == x.order && this.count() > this.FROM.max"),
      bin("&&", bin("==", path("this", "select"), path("x", "order")), bin(">", call(THIS, "count"), path("this", "FROM", "max"))),
    );
  });

  test("JDOQL keywords may be package parts after the first; Java reserved words may not", () => {
    assert.equal(q("SELECT FROM com.shop.order.Order").from.className, "com.shop.order.Order");
    queryError("SELECT FROM com.class.Order", { line: 1, column: 17 });
  });
});

// --- Literals --------------------------------------------------------------------------------------

describe("literals", () => {
  test("integers: decimal, hex, octal, suffixes, int/long/biginteger by size", () => {
    const cases: [string, string, unknown][] = [
      ["0", "int", 0],
      ["42", "int", 42],
      ["2147483647", "int", 2147483647],
      ["2147483648", "long", 2147483648],
      ["0x1F", "int", 31],
      ["0XfF", "int", 255],
      ["0x80000000", "long", 2147483648],
      ["017", "int", 15],
      ["7L", "long", 7],
      ["7l", "long", 7],
      ["0x10L", "long", 16],
      // Beyond 2^53 a long stays a BigInt, to be bound exactly.
      ["9223372036854775807", "long", 9223372036854775807n],
      ["9223372036854775808", "biginteger", "9223372036854775808"],
      ["0xFFFFFFFFFFFFFFFFFF", "biginteger", "4722366482869645213695"],
    ];
    for (const [raw, kind, value] of cases) assert.deepEqual(f(raw), lit(kind, value, raw), raw);
  });

  test("floating point: float with f/F, otherwise double", () => {
    const cases: [string, string, number][] = [
      ["1.5", "double", 1.5],
      [".5", "double", 0.5],
      ["1.", "double", 1],
      ["1e3", "double", 1000],
      ["2.5E-3", "double", 0.0025],
      ["1.5f", "float", 1.5],
      ["2F", "float", 2],
      ["3d", "double", 3],
      ["1.25D", "double", 1.25],
      ["6.02e+23f", "float", 6.02e23],
    ];
    for (const [raw, kind, value] of cases) assert.deepEqual(f(raw), lit(kind, value, raw), raw);
  });

  test("malformed numbers", () => {
    filterError("08", { line: 1, column: 1 });
    filterError("x == 12abc", { line: 1, column: 6 });
    filterError("0x", { line: 1, column: 1 });
  });

  test("strings: single or double quotes, Java escapes", () => {
    assert.deepEqual(f(`'O.'`), str("O."));
    assert.deepEqual(f(`"O."`), str("O.", `"O."`));
    assert.deepEqual(f(String.raw`'a\tb\nc\bd\re\ff\'g\"h\\i'`), str("a\tb\nc\bd\re\ff'g\"h\\i", String.raw`'a\tb\nc\bd\re\ff\'g\"h\\i'`));
    assert.deepEqual(f(String.raw`"\101\7\377\u0041\uu00e9"`), str("A\u0007\u00ffAé", String.raw`"\101\7\377\u0041\uu00e9"`));
    assert.deepEqual(f(`"it's" + 'say "hi"'`), bin("+", str("it's", `"it's"`), str('say "hi"')));
    assert.deepEqual(f(`'WHERE x == 1 SELECT'`), str("WHERE x == 1 SELECT"));
    assert.deepEqual(f(`''`), str(""));
  });

  test("bad strings", () => {
    filterError("x == 'abc", { line: 1, column: 6, message: /unterminated string literal/ });
    filterError("x == 'a\nb'", { line: 1, column: 6, message: /unterminated string literal/ });
    filterError(String.raw`x == 'a\qb'`, { line: 1, column: 8, message: /invalid escape sequence "\\q"/ });
    filterError(String.raw`'\u00g0'`, { line: 1, column: 2, message: /invalid escape sequence "\\u"/ });
  });

  test("booleans and null in both cases", () => {
    assert.deepEqual(f("true"), lit("boolean", true, "true"));
    assert.deepEqual(f("TRUE"), lit("boolean", true, "TRUE"));
    assert.deepEqual(f("false"), lit("boolean", false, "false"));
    assert.deepEqual(f("FALSE"), lit("boolean", false, "FALSE"));
    assert.deepEqual(f("null"), lit("null", null, "null"));
    assert.deepEqual(f("NULL"), lit("null", null, "NULL"));
    assert.deepEqual(f("nullable"), name("nullable"));
    assert.deepEqual(f("trueValue"), name("trueValue"));
  });
});

// --- Operators -------------------------------------------------------------------------------------

describe("operators", () => {
  test("precedence, highest first", () => {
    assert.deepEqual(f("a || b && c"), bin("||", name("a"), bin("&&", name("b"), name("c"))));
    assert.deepEqual(f("a && b | c"), bin("&&", name("a"), bin("|", name("b"), name("c"))));
    assert.deepEqual(f("a | b ^ c"), bin("|", name("a"), bin("^", name("b"), name("c"))));
    assert.deepEqual(f("a ^ b & c"), bin("^", name("a"), bin("&", name("b"), name("c"))));
    assert.deepEqual(f("a & b == c"), bin("&", name("a"), bin("==", name("b"), name("c"))));
    assert.deepEqual(f("a != b < c"), bin("!=", name("a"), bin("<", name("b"), name("c"))));
    assert.deepEqual(f("a <= b + c"), bin("<=", name("a"), bin("+", name("b"), name("c"))));
    assert.deepEqual(f("a - b * c"), bin("-", name("a"), bin("*", name("b"), name("c"))));
    assert.deepEqual(f("-a % b"), bin("%", un("-", name("a")), name("b")));
    assert.deepEqual(f("!a.b() && ~c > +d"), bin("&&", un("!", call(name("a"), "b")), bin(">", un("~", name("c")), un("+", name("d")))));
  });

  test("binary operators are left-associative", () => {
    assert.deepEqual(f("a - b - c"), bin("-", bin("-", name("a"), name("b")), name("c")));
    assert.deepEqual(f("a / b * c"), bin("*", bin("/", name("a"), name("b")), name("c")));
    assert.deepEqual(f("a || b || c"), bin("||", bin("||", name("a"), name("b")), name("c")));
    assert.deepEqual(f("a >= b > c"), bin(">", bin(">=", name("a"), name("b")), name("c")));
  });

  test("parentheses override precedence", () => {
    assert.deepEqual(f("(a + b) * c"), bin("*", bin("+", name("a"), name("b")), name("c")));
    assert.deepEqual(f("a && (b || c)"), bin("&&", name("a"), bin("||", name("b"), name("c"))));
  });

  test("instanceof sits with the relational operators", () => {
    assert.deepEqual(f("x instanceof a.B == true"), bin("==", { type: "InstanceOf", operand: name("x"), typeName: "a.B" }, lit("boolean", true, "true")));
    assert.deepEqual(f("a + b instanceof C"), { type: "InstanceOf", operand: bin("+", name("a"), name("b")), typeName: "C" });
    filterError("x instanceof 1", { line: 1, column: 14, expected: ["identifier"] });
  });

  test("unary operators nest", () => {
    assert.deepEqual(f("- -x"), un("-", un("-", name("x"))));
    assert.deepEqual(f("!!x"), un("!", un("!", name("x"))));
    assert.deepEqual(f("a+-b"), bin("+", name("a"), un("-", name("b"))));
  });

  test("assignment, increment, decrement, shifts and compound assignment are errors", () => {
    filterError("x = 1", { line: 1, column: 3, message: /"=" is not a JDOQL operator; use "==" to compare/ });
    filterError("this.a.b=1", { line: 1, column: 9, message: /"="/ });
    filterError("x++ > 1", { line: 1, column: 2, message: /"\+\+" is not a JDOQL operator/ });
    filterError("x-- > 1", { line: 1, column: 2, message: /"--"/ });
    filterError("++x > 1", { line: 1, column: 1, message: /"\+\+"/ });
    filterError("a == --x", { line: 1, column: 6, message: /"--"/ });
    filterError("a << 2", { line: 1, column: 3, message: /"<<"/ });
    filterError("a >> 2", { line: 1, column: 3, message: /">>"/ });
    filterError("a >>> 2", { line: 1, column: 3, message: /">>>"/ });
    for (const op of ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]) {
      filterError(`a ${op} 2`, { line: 1, column: 3, message: new RegExp(`"${op.replace(/[|^*+]/g, "\\$&")}" is not`) });
    }
    assert.deepEqual(f("a == b"), bin("==", name("a"), name("b")));
  });
});

// --- Casts -----------------------------------------------------------------------------------------

describe("casts", () => {
  const cast = (typeName: string, operand: unknown) => ({ type: "Cast", typeName, operand });

  test("class casts", () => {
    assert.deepEqual(f("(a.b.C) x"), cast("a.b.C", name("x")));
    assert.deepEqual(f("(FullTimeEmployee)this.salary"), cast("FullTimeEmployee", path("this", "salary")));
    assert.deepEqual(f("((FullTimeEmployee) e).salary"), member(cast("FullTimeEmployee", name("e")), "salary"));
    assert.deepEqual(f("(String) :p"), cast("String", { type: "Param", name: "p" }));
    assert.deepEqual(f("(Integer) 5"), cast("Integer", int(5)));
    assert.deepEqual(f("(A) !b"), cast("A", un("!", name("b"))));
    assert.deepEqual(f("(A) (B) c"), cast("A", cast("B", name("c"))));
    assert.deepEqual(f("sum((FullTimeEmployee) this)"), agg("sum", cast("FullTimeEmployee", THIS)));
  });

  test("a parenthesised name followed by + or - is not a class cast", () => {
    assert.deepEqual(f("(a) - b"), bin("-", name("a"), name("b")));
    assert.deepEqual(f("(a) + b"), bin("+", name("a"), name("b")));
    assert.deepEqual(f("(a) == b"), bin("==", name("a"), name("b")));
    assert.deepEqual(f("(a) instanceof B"), { type: "InstanceOf", operand: name("a"), typeName: "B" });
    assert.deepEqual(f("(a.b)"), path("a", "b"));
  });

  test("primitive casts may be followed by + or -", () => {
    assert.deepEqual(f("(int) - x"), cast("int", un("-", name("x"))));
    assert.deepEqual(f("(double) +x"), cast("double", un("+", name("x"))));
    assert.deepEqual(f("(long) x / 2"), bin("/", cast("long", name("x")), int(2)));
  });
});

// --- Primaries -------------------------------------------------------------------------------------

describe("primary expressions", () => {
  test("this, names, members, method calls", () => {
    assert.deepEqual(f("this"), THIS);
    assert.deepEqual(f("a.b.c"), path("a", "b", "c"));
    assert.deepEqual(f("x.get(0).name.startsWith('a', 1)"), call(member(call(name("x"), "get", [int(0)]), "name"), "startsWith", [str("a"), int(1)]));
    assert.deepEqual(f("Math.abs(x)"), call(name("Math"), "abs", [name("x")]));
    assert.deepEqual(f("org.e.Status.ACTIVE"), path("org", "e", "Status", "ACTIVE"));
    assert.deepEqual(f("$x_1 == _y$"), bin("==", name("$x_1"), name("_y$")));
    assert.deepEqual(f("größe > 1"), bin(">", name("größe"), int(1)));
  });

  test("a call without a receiver is a Call with object null", () => {
    assert.deepEqual(f("foo(1, x)"), call(null, "foo", [int(1), name("x")]));
    assert.deepEqual(f("foo()"), call(null, "foo", []));
  });

  test("implicit and positional parameters", () => {
    assert.deepEqual(f(":p.contains(x)"), call({ type: "Param", name: "p" }, "contains", [name("x")]));
    assert.deepEqual(f("name == ?12"), bin("==", name("name"), { type: "PositionalParam", index: 12 }));
    filterError(": p", { line: 1, column: 2, expected: ["identifier"] });
    filterError("? 1", { line: 1, column: 2, expected: ["parameter number"] });
  });

  test("aggregates, with DISTINCT inside the parentheses", () => {
    assert.deepEqual(f("count(this)"), agg("count", THIS));
    assert.deepEqual(f("COUNT(DISTINCT x.y)"), agg("count", path("x", "y"), true));
    assert.deepEqual(f("sum(distinct a * 2)"), agg("sum", bin("*", name("a"), int(2)), true));
    assert.deepEqual(f("AVG(a) + MIN(b) - max(c)"), bin("-", bin("+", agg("avg", name("a")), agg("min", name("b"))), agg("max", name("c"))));
    assert.deepEqual(f("MAX(this.employees.size())"), agg("max", call(path("this", "employees"), "size")));
    filterError("count", { line: 1, column: 6, expected: ['"("'] });
    filterError("count()", { line: 1, column: 7 });
  });

  test("array literals", () => {
    assert.deepEqual(f("{'a', 'b'}.contains(x)"), call({ type: "ArrayLiteral", elements: [str("a"), str("b")] }, "contains", [name("x")]));
    assert.deepEqual(f("{}.length"), member({ type: "ArrayLiteral", elements: [] }, "length"));
  });

  test("IF-expressions: else-if chains, nesting, either case", () => {
    assert.deepEqual(f("if (a) 1 else if (b) 2 ELSE 3"), {
      type: "Conditional",
      test: name("a"),
      consequent: int(1),
      alternate: { type: "Conditional", test: name("b"), consequent: int(2), alternate: int(3) },
    });
    assert.deepEqual(f("(IF (a) x ELSE y) + 1"), bin("+", { type: "Conditional", test: name("a"), consequent: name("x"), alternate: name("y") }, int(1)));
    assert.deepEqual(q("SELECT IF (a > 0) 'p' ELSE 'n' AS sign FROM a.B").result, [
      item({ type: "Conditional", test: bin(">", name("a"), int(0)), consequent: str("p"), alternate: str("n") }, "sign"),
    ]);
    filterError("IF (a) 1", { line: 1, column: 9, expected: ['"ELSE"'] });
    filterError("IF a 1 ELSE 2", { line: 1, column: 4, expected: ['"("'] });
  });

  test("unbalanced parentheses", () => {
    filterError("(a + b", { line: 1, column: 7, expected: ['")"'], message: /expected .*"\)".* or an operator, found end of input/ });
    filterError("f(a, )", { line: 1, column: 6, message: /expected an expression, found "\)"/ });
  });
});

// --- Subqueries ------------------------------------------------------------------------------------

describe("subqueries", () => {
  test("non-correlated, with a class candidate, alias and EXCLUDE SUBCLASSES", () => {
    assert.deepEqual(
      f("weeklyhours > (select avg(e.weeklyhours) from p.Employee e exclude subclasses where e.x == 1)"),
      bin(">", name("weeklyhours"), {
        type: "Subquery",
        query: query({
          result: [item(agg("avg", path("e", "weeklyhours")))],
          from: from("p.Employee", { alias: "e", excludeSubclasses: true }),
          where: bin("==", path("e", "x"), int(1)),
        }),
      }),
    );
  });

  test("clause keywords inside the parentheses belong to the subquery", () => {
    const tree = q(
      "SELECT FROM a.E WHERE salary > (SELECT AVG(e.salary) FROM this.department.employees AS e WHERE e.manager == this.manager " +
        "VARIABLES a.P p PARAMETERS int m import a.X) && x == 1 PARAMETERS String s ORDER BY salary",
    );
    const sub = (tree.where.left.right as { query: SQuery }).query;
    assert.deepEqual(sub.from, { kind: "path", path: path("this", "department", "employees"), alias: "e" });
    assert.deepEqual(sub.where, bin("==", path("e", "manager"), path("this", "manager")));
    assert.deepEqual(sub.variables, [decl("a.P", "p")]);
    assert.deepEqual(sub.parameters, [decl("int", "m")]);
    assert.deepEqual(sub.imports, ["a.X"]);
    assert.deepEqual(tree.where.right, bin("==", name("x"), int(1)));
    assert.deepEqual(tree.parameters, [decl("String", "s")]);
    assert.deepEqual(tree.orderBy, [order(name("salary"))]);
  });

  test("subqueries in the result and as method receivers", () => {
    const tree = q("SELECT name, (SELECT COUNT(e) FROM this.employees e) FROM a.D");
    assert.equal(tree.result[1].expr.type, "Subquery");
    assert.equal(f("(SELECT FROM a.B b WHERE b.x == 1).isEmpty()").type, "Call");
  });

  test("a subquery needs FROM; a path candidate needs an alias", () => {
    filterError("x > (SELECT avg(y))", { line: 1, column: 19, expected: ['"FROM"'] });
    filterError("x > (SELECT avg(e.y) FROM this.employees)", { line: 1, column: 41, expected: ["identifier"] });
  });
});

// --- Bulk statements -------------------------------------------------------------------------------

describe("bulk statements", () => {
  test("DELETE FROM and UPDATE ... SET parse into their class", () => {
    assert.deepEqual(q("delete from a.B"), { type: "Delete", className: "a.B" });
    assert.deepEqual(q("DELETE FROM a.B b EXCLUDE SUBCLASSES WHERE b.x == :v"), { type: "Delete", className: "a.B" });
    assert.deepEqual(q("UPDATE a.B SET this.x = 1, y = y + 1 WHERE x == 2 PARAMETERS int p"), {
      type: "Update",
      className: "a.B",
    });
    assert.deepEqual(q("update a.B set x = 'z'"), { type: "Update", className: "a.B" });
  });

  test("malformed bulk statements", () => {
    queryError("DELETE a.B", { line: 1, column: 8, expected: ['"FROM"'] });
    queryError("UPDATE a.B WHERE x == 1", { line: 1, column: 12, expected: ['"SET"'] });
    queryError("UPDATE a.B SET x == 1", { line: 1, column: 18 });
    queryError("DELETE FROM a.B ORDER BY x", { line: 1, column: 17 });
  });
});

// --- Positions -------------------------------------------------------------------------------------

describe("positions", () => {
  test("every node carries the position of its first character", () => {
    const text = "SELECT a AS x, count(this)\nFROM p.C c\nWHERE (this.b + -1) * 2 > :m\n  VARIABLES p.D d\nORDER BY a DESC";
    const tree = parseJdoql(text) as SQuery;
    const at = (offset: number) => {
      const before = text.slice(0, offset).split("\n");
      return { offset, line: before.length, column: before[before.length - 1]!.length + 1 };
    };
    assert.deepEqual(tree.pos, at(0));
    const [r1, r2] = tree.result! as [NonNullable<typeof tree.result>[number], NonNullable<typeof tree.result>[number]];
    assert.deepEqual(r1.pos, at(7));
    assert.deepEqual(r1.expr.pos, at(7));
    assert.deepEqual(r2.expr.pos, at(text.indexOf("count")));
    assert.deepEqual((r2.expr as { arg: SExpr }).arg.pos, at(text.indexOf("this")));
    assert.deepEqual(tree.from!.pos, at(text.indexOf("p.C")));
    const where = tree.where as Extract<SExpr, { type: "Binary" }>;
    const lhs = where.left as Extract<SExpr, { type: "Binary" }>;
    assert.deepEqual(where.pos, at(text.indexOf("(this.b")));
    assert.deepEqual(lhs.pos, at(text.indexOf("(this.b")));
    const sum = lhs.left as Extract<SExpr, { type: "Binary" }>;
    assert.deepEqual(sum.pos, at(text.indexOf("this.b")));
    assert.deepEqual(sum.left.pos, at(text.indexOf("this.b")));
    assert.deepEqual((sum.left as { object: SExpr }).object.pos, at(text.indexOf("this.b")));
    assert.deepEqual(sum.right.pos, at(text.indexOf("-1")));
    assert.deepEqual((sum.right as { operand: SExpr }).operand.pos, at(text.indexOf("1)")));
    assert.deepEqual(where.right.pos, at(text.indexOf(":m")));
    assert.deepEqual(tree.variables[0]!.pos, at(text.indexOf("p.D")));
    assert.deepEqual(tree.orderBy[0]!.pos, at(text.lastIndexOf("a DESC")));
    assert.deepEqual(tree.orderBy[0]!.expr.pos, at(text.lastIndexOf("a DESC")));
  });

  test("subquery, cast, conditional, bulk positions", () => {
    const text = "x > (SELECT max(e.y) FROM this.es e) && (IF ((A) z) 1 ELSE 2)";
    const tree = parseJdoqlFilter(text) as Extract<SExpr, { type: "Binary" }>;
    const cmp = tree.left as Extract<SExpr, { type: "Binary" }>;
    const sub = cmp.right as Extract<SExpr, { type: "Subquery" }>;
    assert.equal(sub.pos.offset, text.indexOf("(SELECT"));
    assert.equal(sub.query.pos.offset, text.indexOf("SELECT"));
    assert.equal(sub.query.from!.pos.offset, text.indexOf("this.es"));
    const cond = tree.right as Extract<SExpr, { type: "Conditional" }>;
    assert.equal(cond.pos.offset, text.indexOf("IF"));
    assert.equal(cond.test.pos.offset, text.indexOf("(A)"));
    assert.deepEqual(parseJdoql("  \n DELETE FROM a.B").pos, { offset: 4, line: 2, column: 2 });
  });

  test("error positions count lines and columns from 1", () => {
    const e = queryError("SELECT FROM a.B\nWHERE x ==\n\t\t", { line: 3, column: 3 });
    assert.equal(e.position.offset, 29);
    assert.equal(e.name, "JdoqlSyntaxError");
    assert.ok(e instanceof Error);
  });
});

// --- Error reporting -------------------------------------------------------------------------------

describe("error reporting", () => {
  test("expected lists are readable and deduplicated", () => {
    const e = filterError("(x y)", { line: 1, column: 4, expected: ['")"', '"&&"', '"||"', '"=="', '"."', '"instanceof"'] });
    assert.equal(new Set(e.expected).size, e.expected.length);
    assert.equal(e.message, 'line 1, column 4: expected "(", ")", "." or an operator, found "y"');
  });

  test("the message names the keywords and ends with end of input", () => {
    const e = queryError("SELECT FROM a.B WHERE x == 1 ORDER x", { line: 1, column: 36 });
    assert.deepEqual(e.expected, ['"BY"']);
    const g = queryError("SELECT FROM a.B b c", { line: 1, column: 19 });
    assert.match(g.message, /expected "EXCLUDE", .*"WHERE", "import" or end of input, found "c"$/);
  });

  test("a reserved word where a name is expected says so", () => {
    queryError("SELECT FROM a.B VARIABLES int order", {
      line: 1,
      column: 31,
      message: /found "order" \(a reserved word, not allowed as a name\)/,
    });
  });

  test("grammar-raised errors carry no expectations", () => {
    const e = filterError("x = 1", { line: 1, column: 3 });
    assert.deepEqual(e.expected, []);
  });
});
