/**
 * JDOQL acceptance tests ported from the Apache JDO TCK (apache/db-jdo,
 * tck/src/main/java/org/apache/jdo/tck/query/**), run over REST against the TCK's query test data
 * (test/fixtures/company-query-data.ts: companyForQueryTests.xml, loaded once through the API).
 *
 * Each test is one request with its exact expected answer, named after the TCK class it comes from.
 * The TCK lists expected results by bean name; here they are identities: empN = personid N,
 * deptN = deptid N, projN = projid N, roomN = roomid N, medicalInsN = insid N,
 * dentalInsN = insid 10+N, dentalIns99 = insid 99 (see the fixture for the whole mapping).
 * Where a TCK test runs on another data set (mylib PrimitiveTypes, PCPoint, NavigationTestData,
 * SubqueryTestData), the same query shape is asked of the company data and the expected answer is
 * derived from it; the test name says "(company data)".
 *
 * Endpoints and shapes (contract sections 4 to 6):
 * - `GET /jdoql?query=Q` (also `/query?query=Q` and `/jdoql?Q`), `GET /{class}?filter=F` (also
 *   `/{class}?F`), `HEAD /{class}?filter=F` (200 when exactly one matches, else 404; `X-Match-Count`).
 * - `params=` URL-encoded JSON: an object of named parameters (`:name` or declared PARAMETERS) or an
 *   array for positional binding (implicit parameters in order of first appearance, declared ones
 *   in declaration order).
 * - **Entity parameters are given by identity only**: `{"d": {"deptid": 1}}`, `{"e": {"personid": 1}}`
 *   (no "class" needed); a collection parameter of entities is an array of identities. A
 *   `JDOHelper.getObjectId` value is the same identity object (`{"personid": 1}`). Date parameters
 *   are epoch milliseconds or ISO-8601 strings (both are used below).
 * - Candidate objects are JSON objects with "class" and their key; the tests compare the SET (or, with
 *   ORDER BY, the ordered list) of keys, and a few compare whole objects with `GET /{class}/{key}`.
 *   One projection: an array of values; several: an array of arrays in select order;
 *   `INTO java.util.Map`: objects keyed by alias (the expression text when there is no alias).
 *   UNIQUE and ungrouped aggregates: one JSON value (null when nothing matches). Dates: epoch ms.
 * - Without ORDER BY the order is unspecified, so such lists are compared sorted.
 * - Floating results of BigDecimal/double arithmetic (SUM/AVG of budgets and benefits, budget * 1.2)
 *   are compared to within 1e-6.
 * - Errors: status, `content-type: application/problem+json`, `status`/`type`/`title`/`detail`, and
 *   for syntax errors `position` ({line, column, offset}; offset 0-based, line and column 1-based)
 *   and a non-empty `expected` list.
 *
 * Run: node --import tsx --test test/jdoql-tck.test.ts
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHarness, type Harness } from "./support/harness.ts";
import { ok, problem, queryClient, withParams } from "./support/query-client.ts";
import { tckCompanyModel } from "./fixtures/tck-company.ts";
import { loadCompanyData, companyQueryData, epoch, PKG } from "./fixtures/company-query-data.ts";

// ---------------------------------------------------------------------------------------------
// Names

const Person = `${PKG}.Person`;
const Employee = `${PKG}.Employee`;
const FullTimeEmployee = `${PKG}.FullTimeEmployee`;
const PartTimeEmployee = `${PKG}.PartTimeEmployee`;
const Department = `${PKG}.Department`;
const Company = `${PKG}.Company`;
const Project = `${PKG}.Project`;
const Insurance = `${PKG}.Insurance`;
const MedicalInsurance = `${PKG}.MedicalInsurance`;
const DentalInsurance = `${PKG}.DentalInsurance`;
const MeetingRoom = `${PKG}.MeetingRoom`;

/** The TCK's org.apache.jdo.tck.pc.query classes used here (their TCK package.jdo, with field types). */
const QPKG = "org.apache.jdo.tck.pc.query";
const KeywordsClass = `${QPKG}.JDOQLKeywordsAsFieldNames`;
const QUERY_PACKAGE_JDO = `<?xml version="1.0" encoding="UTF-8"?>
<jdo xmlns="https://db.apache.org/jdo/xmlns/jdo">
  <package name="${QPKG}">
    <class name="JDOQLKeywordsAsFieldNames" identity-type="application">
      <field name="select" primary-key="true" field-type="java.lang.String"/>
    </class>
    <class name="NoExtent" requires-extent="false" identity-type="application">
      <field name="id" primary-key="true" field-type="int"/>
    </class>
  </package>
</jdo>`;

const ALL_PERSONS = [1, 2, 3, 4, 5];

// ---------------------------------------------------------------------------------------------
// Harness and helpers

let h: Harness;
const { jdoql, filter } = queryClient(() => h);

before(async () => {
  const base = tckCompanyModel();
  h = await startHarness({ ...base, metadata: [...(base.metadata ?? []), { source: "query/package.jdo", text: QUERY_PACKAGE_JDO }] });
  await loadCompanyData(h);
  for (const select of ["b", "a"]) {
    const r = await h.post(`/${KeywordsClass}`, { select });
    assert.equal(r.status, 201, r.text);
  }
  const r = await h.post(`/${QPKG}.NoExtent`, { id: 1 });
  assert.equal(r.status, 201, r.text);
});
after(() => h?.close());

/** The keys of a list of candidate objects (each must carry "class" and the key), in answer order. */
function orderedKeys(list: unknown, key = "personid"): unknown[] {
  assert.ok(Array.isArray(list), `expected an array, got ${JSON.stringify(list)}`);
  return list.map((o: any) => {
    assert.ok(o !== null && typeof o === "object" && !Array.isArray(o), `expected an object, got ${JSON.stringify(o)}`);
    assert.equal(typeof o.class, "string", `object without "class": ${JSON.stringify(o)}`);
    assert.ok(key in o, `object without "${key}": ${JSON.stringify(o)}`);
    return o[key];
  });
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const sa = JSON.stringify(a) ?? "";
  const sb = JSON.stringify(b) ?? "";
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
const sorted = <T>(list: T[]): T[] => [...list].sort(compareValues);

/** The keys of a list of candidate objects, as a sorted set (the order of an unordered result is unspecified). */
const keys = (list: unknown, key = "personid") => sorted(orderedKeys(list, key));

/** The key of one candidate object (UNIQUE results, projected relations). */
function keyOf(o: any, key = "personid"): unknown {
  if (o === null) return null;
  assert.ok(typeof o === "object" && !Array.isArray(o), `expected an object, got ${JSON.stringify(o)}`);
  assert.equal(typeof o.class, "string", `object without "class": ${JSON.stringify(o)}`);
  return o[key];
}

/** A list of values, compared as a multiset. */
function sameValues(actual: unknown, expected: unknown[]): void {
  assert.ok(Array.isArray(actual), `expected an array, got ${JSON.stringify(actual)}`);
  assert.deepEqual(sorted(actual), sorted(expected));
}

function near(actual: unknown, expected: number, eps = 1e-6): void {
  assert.equal(typeof actual, "number", `expected a number near ${expected}, got ${JSON.stringify(actual)}`);
  assert.ok(Math.abs((actual as number) - expected) <= eps, `expected ${expected} (within ${eps}), got ${actual}`);
}

function nearAll(actual: unknown, expected: number[], eps = 1e-6): void {
  assert.ok(Array.isArray(actual), `expected an array, got ${JSON.stringify(actual)}`);
  assert.equal(actual.length, expected.length, `expected ${expected.length} values, got ${JSON.stringify(actual)}`);
  actual.forEach((v, i) => near(v, expected[i]!, eps));
}

/** Candidate query by filter on both filter forms' main one: `GET /{class}?filter=F` → sorted keys. */
async function filterKeys(cls: string, f: string, key = "personid", params?: unknown): Promise<unknown[]> {
  return keys(ok(await filter(cls, f, params)), key);
}

async function queryKeys(q: string, key = "personid", params?: unknown): Promise<unknown[]> {
  return keys(ok(await jdoql(q, params)), key);
}

/** A position on line 1 at `offset`. */
const at = (offset: number) => ({ line: 1, column: offset + 1, offset });

// ---------------------------------------------------------------------------------------------

describe("company query data (companyForQueryTests) loads through the REST API", () => {
  test("every POST of the data set answered 201 (checked in before); the person extent holds the 5 employees with their classes", async () => {
    const r = await h.get(`/${Person}`);
    const body = ok(r);
    assert.deepEqual(body.map((p: any) => [p.personid, p.class]).sort(compareValues), [
      [1, FullTimeEmployee],
      [2, FullTimeEmployee],
      [3, PartTimeEmployee],
      [4, PartTimeEmployee],
      [5, FullTimeEmployee],
    ]);
    assert.equal(companyQueryData.length, 15);
  });

  test("basic fields and UTC dates of emp1 as the TCK sets them", async () => {
    const emp1 = ok(await h.get(`/${Person}/1`));
    assert.equal(emp1.class, FullTimeEmployee);
    assert.equal(emp1.firstname, "emp1First");
    assert.equal(emp1.lastname, "emp1Last");
    assert.equal(emp1.birthdate, epoch(1970, 6, 10));
    assert.equal(emp1.hiredate, epoch(1999, 1, 1));
    assert.equal(emp1.weeklyhours, 40);
    assert.equal(emp1.salary, 20000);
    assert.equal("middlename" in emp1, false, "middlename is outside the default fetch group");
    assert.deepEqual(emp1.address, { addrid: 1, street: "Unter den Linden 1", city: "Berlin", state: "  ", zipcode: "12345", country: "Germany" });
  });

  test("employees' relations (read through their concrete classes) are the TCK's", async () => {
    const k = (o: any) => (o == null ? null : (o.personid ?? o.insid ?? o.deptid ?? o.projid));
    const ks = (l: any[]) => l.map(k).sort(compareValues);
    const expected: Record<number, unknown[]> = {
      // personid: [dept, fundingDept, manager, mentor, protege, hradvisor, medical, dental, projects, reviewedProjects, team, hradvisees, wh, phone]
      1: [1, 2, 2, 2, 5, 5, 1, 11, [1], [3], [], [], 40, { home: "1111", work: "123456-1" }],
      2: [1, 1, null, 3, 1, 5, 2, 12, [1, 2], [], [1, 3, 4, 5], [], 40, { home: "2222", work: "123456-2" }],
      3: [1, 1, 2, 4, 2, 5, 3, 13, [1, 2], [], [], [], 19, { home: "3333", work: "123456-3" }],
      4: [2, 2, 2, 5, 3, 5, 4, 14, [3], [2], [], [], 0, { home: "3343", work: "124456-3" }],
      5: [2, 2, 2, 1, 4, null, 5, 15, [3], [2], [], [1, 2, 3, 4], 0, { home: "3363", work: "126456-3" }],
    };
    for (const id of ALL_PERSONS) {
      const cls = id === 3 || id === 4 ? PartTimeEmployee : FullTimeEmployee;
      const e = ok(await h.get(`/${cls}/${id}?fetchGroup=all`));
      const actual = [
        k(e.department),
        k(e.fundingDept),
        k(e.manager),
        k(e.mentor),
        k(e.protege),
        k(e.hradvisor),
        k(e.medicalInsurance),
        k(e.dentalInsurance),
        ks(e.projects),
        ks(e.reviewedProjects),
        ks(e.team),
        ks(e.hradvisees),
        e.weeklyhours,
        e.phoneNumbers,
      ];
      assert.deepEqual(actual, expected[id], `emp${id}`);
    }
  });

  test("departments, projects, insurances, meeting rooms and the company", async () => {
    const depts = ok(await h.get(`/${Department}?fetchGroup=all`));
    assert.deepEqual(
      depts.map((d: any) => [d.deptid, d.name, d.company.companyid, keys(d.employees), keys(d.fundedEmps), orderedKeys(d.meetingRooms, "roomid")]),
      [
        [1, "Development", 1, [1, 2, 3], [2, 3], [1, 2, 3]],
        [2, "Human Resources", 1, [4, 5], [1, 4, 5], []],
      ],
    );
    const projects = ok(await h.get(`/${Project}?fetchGroup=all`));
    assert.deepEqual(
      projects.map((p: any) => [p.projid, p.name, p.budget, keys(p.members), keys(p.reviewers)]),
      [
        [1, "orange", 2500000.99, [1, 2, 3], []],
        [2, "blue", 50000, [2, 3], [4, 5]],
        [3, "green", 2000.99, [4, 5], [1]],
      ],
    );
    const insurances = ok(await h.get(`/${Insurance}`));
    assert.deepEqual(
      insurances.map((i: any) => [i.insid, i.class.split(".").pop(), i.carrier, i.employee?.personid ?? null, i.planType ?? i.lifetimeOrthoBenefit]),
      [
        [1, "MedicalInsurance", "Carrier1", 1, "PPO"],
        [2, "MedicalInsurance", "Carrier2", 2, "HMO"],
        [3, "MedicalInsurance", "Carrier3", 3, "HMO"],
        [4, "MedicalInsurance", "Carrier4", 4, "HMO"],
        [5, "MedicalInsurance", "Carrier5", 5, "HMO"],
        [11, "DentalInsurance", "Carrier1", 1, 99.995],
        [12, "DentalInsurance", "Carrier2", 2, 99.996],
        [13, "DentalInsurance", "Carrier3", 3, 99.997],
        [14, "DentalInsurance", "Carrier4", 4, 99.998],
        [15, "DentalInsurance", "Carrier5", 5, 99.999],
        [99, "DentalInsurance", "Carrier99", null, null],
      ],
    );
    assert.deepEqual(
      ok(await h.get(`/${MeetingRoom}`)).map((m: any) => [m.roomid, m.name]),
      [
        [1, "Comfy Room"],
        [2, "Large Discussion Room"],
        [3, "Conference Room"],
      ],
    );
    const company = ok(await h.get(`/${Company}/1?fetchGroup=all`));
    assert.equal(company.name, "Sun Microsystems, Inc.");
    assert.equal(company.founded, epoch(1952, 4, 11));
    assert.deepEqual(keys(company.departments, "deptid"), [1, 2]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.methods", () => {
  const S = "jdoql.methods.SupportedStringMethods";
  test(`${S}: firstname.toLowerCase() == 'emp1first'`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.toLowerCase() == 'emp1first'"), [1]);
  });
  test(`${S}: firstname.toUpperCase() == 'EMP1FIRST'`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.toUpperCase() == 'EMP1FIRST'"), [1]);
  });
  test(`${S}: name.indexOf('e') == 1 (Department)`, async () => {
    assert.deepEqual(await filterKeys(Department, "name.indexOf('e') == 1", "deptid"), [1]);
  });
  test(`${S}: name.indexOf('e', 2) == 3 (Department)`, async () => {
    assert.deepEqual(await filterKeys(Department, "name.indexOf('e', 2) == 3", "deptid"), [1]);
  });
  test(`${S}: name.indexOf('x') == -1 (absent gives -1)`, async () => {
    assert.deepEqual(await filterKeys(Department, "name.indexOf('x') == -1", "deptid"), [1, 2]);
  });
  test(`${S}: firstname.matches('.*First')`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.matches('.*First')"), ALL_PERSONS);
  });
  test(`${S}: firstname.matches('emp.First')`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.matches('emp.First')"), ALL_PERSONS);
  });
  test(`${S}: firstname.matches('(?i)EMP1FIRST')`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.matches('(?i)EMP1FIRST')"), [1]);
  });
  test(`${S}: firstname.matches('EMP1FIRST') is case-sensitive without (?i)`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.matches('EMP1FIRST')"), []);
  });
  test(`${S}: firstname.substring(4) == 'First'`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.substring(4) == 'First'"), ALL_PERSONS);
  });
  test(`${S}: firstname.substring(4,9) == 'First'`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.substring(4,9) == 'First'"), ALL_PERSONS);
  });
  test(`${S}: firstname.startsWith('emp')`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.startsWith('emp')"), ALL_PERSONS);
  });
  test(`${S}: firstname.endsWith('First')`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.endsWith('First')"), ALL_PERSONS);
  });
  test(`${S}: firstname.startsWith('mp', 1)`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.startsWith('mp', 1)"), ALL_PERSONS);
  });
  test(`${S}: firstname.length() == 9`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.length() == 9"), ALL_PERSONS);
  });
  test(`${S}: firstname.charAt(3) == '1'`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.charAt(3) == '1'"), [1]);
  });
  test(`${S}: firstname.trim() == 'emp1First'`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.trim() == 'emp1First'"), [1]);
  });
  test(`${S}: address.state.trim().length() == 0 (emp1's state is two blanks; company data)`, async () => {
    assert.deepEqual(await filterKeys(Person, "address.state.trim().length() == 0"), [1]);
  });
  test(`${S}: startsWith has no wildcards: firstname.startsWith('%')`, async () => {
    assert.deepEqual(await filterKeys(Person, "firstname.startsWith('%') || firstname.startsWith('_')"), []);
  });

  const SE = "jdoql.methods.StartsWithAndEndsWith";
  test(`${SE}: firstname.startsWith("emp1") (Employee)`, async () => {
    assert.deepEqual(await filterKeys(Employee, 'firstname.startsWith("emp1")'), [1]);
  });
  test(`${SE}: firstname.endsWith("1First") (Employee)`, async () => {
    assert.deepEqual(await filterKeys(Employee, 'firstname.endsWith("1First")'), [1]);
  });

  const C = "jdoql.methods.SupportedCollectionMethods";
  test(`${C}: employees.contains(e) && e.personid == 1 VARIABLES Employee e`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Department} WHERE employees.contains(e) && e.personid == 1 VARIABLES Employee e`, "deptid"), [1]);
  });
  test(`${C}: employees.contains(e) PARAMETERS Employee e (e = emp1)`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Department} WHERE employees.contains(e) PARAMETERS Employee e`, "deptid", { e: { personid: 1 } }), [1]);
  });
  test(`${C}: !employees.isEmpty()`, async () => {
    assert.deepEqual(await filterKeys(Department, "!employees.isEmpty()", "deptid"), [1, 2]);
  });
  test(`${C}: team.isEmpty() (Employee)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "team.isEmpty()"), [1, 3, 4, 5]);
  });
  test(`${C}: employees.size() == 3`, async () => {
    assert.deepEqual(await filterKeys(Department, "employees.size() == 3", "deptid"), [1]);
  });
  test(`${C}: meetingRooms.isEmpty() (an empty List)`, async () => {
    assert.deepEqual(await filterKeys(Department, "meetingRooms.isEmpty()", "deptid"), [2]);
  });

  const M = "jdoql.methods.SupportedMapMethods";
  test(`${M}: phoneNumbers.get('home') == '1111'`, async () => {
    assert.deepEqual(await filterKeys(Person, "phoneNumbers.get('home') == '1111'"), [1]);
  });
  test(`${M}: phoneNumbers.containsKey('home')`, async () => {
    assert.deepEqual(await filterKeys(Person, "phoneNumbers.containsKey('home')"), ALL_PERSONS);
  });
  test(`${M}: phoneNumbers.containsValue('1111')`, async () => {
    assert.deepEqual(await filterKeys(Person, "phoneNumbers.containsValue('1111')"), [1]);
  });
  test(`${M}: phoneNumbers.isEmpty()`, async () => {
    assert.deepEqual(await filterKeys(Person, "phoneNumbers.isEmpty()"), []);
  });
  test(`${M}: phoneNumbers.size() == 2`, async () => {
    assert.deepEqual(await filterKeys(Person, "phoneNumbers.size() == 2"), ALL_PERSONS);
  });

  const L = "jdoql.methods.SupportedListMethods";
  test(`${L}: meetingRooms.get(pos) == room1 PARAMETERS int pos, MeetingRoom room1 (pos = 1, room1 = room2)`, async () => {
    const q = `SELECT FROM ${Department} WHERE meetingRooms.get(pos) == room1 PARAMETERS int pos, ${MeetingRoom} room1`;
    assert.deepEqual(await queryKeys(q, "deptid", { pos: 1, room1: { roomid: 2 } }), [1]);
  });
  test(`${L}: SELECT meetingRooms.get(1) WHERE deptid == 1`, async () => {
    const body = ok(await jdoql(`SELECT meetingRooms.get(1) FROM ${Department} WHERE deptid == 1`));
    assert.deepEqual(orderedKeys(body, "roomid"), [2]);
  });

  const MA = "jdoql.methods.SupportedMathMethods";
  test(`${MA}: Math.abs(weeklyhours - 40) == 21 (company data)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "Math.abs(weeklyhours - 40) == 21"), [3]);
  });
  test(`${MA}: Math.abs(-personid) == 3 (company data)`, async () => {
    assert.deepEqual(await filterKeys(Person, "Math.abs(-personid) == 3"), [3]);
  });
  test(`${MA}: Math.sqrt(salary) == 100 (company data)`, async () => {
    assert.deepEqual(await filterKeys(FullTimeEmployee, "Math.sqrt(salary) == 100"), [2]);
  });
  test(`${MA}: Math.sqrt(weeklyhours) > 6 && Math.sqrt(weeklyhours) < 6.4 (company data)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "Math.sqrt(weeklyhours) > 6 && Math.sqrt(weeklyhours) < 6.4"), [1, 2]);
  });

  const D = "jdoql.methods.SupportedDateMethods";
  test(`${D}: birthdate.getDate() == 10`, async () => {
    assert.deepEqual(await filterKeys(Person, "birthdate.getDate() == 10"), [1]);
  });
  test(`${D}: birthdate.getMonth() == 5 (0-based: June)`, async () => {
    assert.deepEqual(await filterKeys(Person, "birthdate.getMonth() == 5"), [1]);
  });
  test(`${D}: birthdate.getYear() == 1970 (the full year)`, async () => {
    assert.deepEqual(await filterKeys(Person, "birthdate.getYear() == 1970"), [1]);
  });
  test(`${D}: SELECT birthdate.getYear() ORDER BY personid`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT birthdate.getYear() FROM ${Person} ORDER BY personid ASCENDING`)), [1970, 1975, 1972, 1973, 1962]);
  });

  const J = "jdoql.methods.SupportedJDOHelperMethods";
  test(`${J}: SELECT JDOHelper.getObjectId(this) FROM Person (the identity of each person)`, async () => {
    const body = ok(await jdoql(`SELECT JDOHelper.getObjectId(this) FROM ${Person}`));
    assert.ok(Array.isArray(body) && body.length === 5, JSON.stringify(body));
    // The object id is the identity, as entity parameters are written: {"personid": N}, optionally with "class"
    // (the form of a related object written as its identity only), never the object's other fields.
    for (const id of body) {
      assert.ok(id && typeof id === "object", `expected an identity object, got ${JSON.stringify(id)}`);
      assert.deepEqual(
        Object.keys(id).filter((k) => k !== "class"),
        ["personid"],
        `an object id holds the key only: ${JSON.stringify(id)}`,
      );
    }
    assert.deepEqual(sorted(body.map((id: any) => id.personid)), ALL_PERSONS);
  });
  test(`${J}: JDOHelper.getObjectId(this) == oid PARAMETERS Object oid (oid = {personid: 1})`, async () => {
    const q = `SELECT FROM ${Person} WHERE JDOHelper.getObjectId(this) == oid PARAMETERS Object oid`;
    assert.deepEqual(await queryKeys(q, "personid", { oid: { personid: 1 } }), [1]);
  });

  const N = "jdoql.methods.MethodsAndObjectConstructionNotSupported";
  test(`${N}: this.team.add(this) → 400`, async () => {
    problem(await filter(Employee, "this.team.add(this)"), 400);
  });
  test(`${N}: this.team.remove(this) → 400`, async () => {
    problem(await filter(Employee, "this.team.remove(this)"), 400);
  });
  test(`${N}: a method that does not exist, firstname.foo() → 400 naming its position`, async () => {
    problem(await filter(Person, "firstname.foo() == 'x'"), 400, { offsetIn: [0, 10], mentions: "foo" });
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.operators", () => {
  const DT = "jdoql.operators.EqualityAndComparisonsBetweenDateFieldsAndParameters";
  test(`${DT}: hiredate == param (1/Jan/1999 as epoch ms)`, async () => {
    const q = `SELECT FROM ${Employee} WHERE hiredate == param PARAMETERS java.util.Date param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: epoch(1999, 1, 1) }), [1]);
  });
  test(`${DT}: hiredate >= param (1/Jan/1999 as an ISO string)`, async () => {
    const q = `SELECT FROM ${Employee} WHERE hiredate >= param PARAMETERS java.util.Date param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: "1999-01-01T00:00:00Z" }), [1, 2, 3, 4]);
  });
  test(`${DT}: param < birthdate`, async () => {
    const q = `SELECT FROM ${Employee} WHERE param < birthdate PARAMETERS java.util.Date param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: epoch(1999, 1, 1) }), []);
  });

  const ST = "jdoql.operators.EqualityAndComparisonsBetweenStringFieldsAndParameters";
  test(`${ST}: firstname == param`, async () => {
    const q = `SELECT FROM ${Employee} WHERE firstname == param PARAMETERS java.lang.String param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: "emp1First" }), [1]);
  });
  test(`${ST}: firstname >= param`, async () => {
    const q = `SELECT FROM ${Employee} WHERE firstname >= param PARAMETERS java.lang.String param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: "emp1First" }), ALL_PERSONS);
  });
  test(`${ST}: param < firstname`, async () => {
    const q = `SELECT FROM ${Employee} WHERE param < firstname PARAMETERS java.lang.String param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: "emp2First" }), [3, 4, 5]);
  });

  const I = "jdoql.operators.Instanceof";
  test(`${I}: mentor instanceof org.apache.jdo.tck.pc.company.PartTimeEmployee`, async () => {
    assert.deepEqual(await filterKeys(Employee, `mentor instanceof ${PartTimeEmployee}`), [2, 3]);
  });
  test(`${I}: mentor instanceof PartTimeEmployee with import`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE mentor instanceof PartTimeEmployee import ${PartTimeEmployee}`), [2, 3]);
  });
  test(`${I}: this instanceof FullTimeEmployee (Person, simple name from the candidate's package)`, async () => {
    assert.deepEqual(await filterKeys(Person, "this instanceof FullTimeEmployee"), [1, 2, 5]);
  });

  test("jdoql.operators.Modulo: personid % 2 == 0", async () => {
    assert.deepEqual(await filterKeys(Person, "personid % 2 == 0"), [2, 4]);
  });
  test("jdoql.operators.Division: personid / 2 == 1 (integer division truncates, Java semantics; company data)", async () => {
    assert.deepEqual(await filterKeys(Person, "personid / 2 == 1"), [2, 3]);
  });
  test("jdoql.operators.Division: personid == 7 / 2 (int literals: 3)", async () => {
    assert.deepEqual(await filterKeys(Person, "personid == 7 / 2"), [3]);
  });
  test("jdoql.operators.Division: weeklyhours / 2 == 9.5 (double division)", async () => {
    assert.deepEqual(await filterKeys(Employee, "weeklyhours / 2 == 9.5"), [3]);
  });
  test("jdoql.operators.PromotionOfNumericOperands: personid / 2.0 == 1.5 (long promoted to double)", async () => {
    assert.deepEqual(await filterKeys(Person, "personid / 2.0 == 1.5"), [3]);
  });
  test("jdoql.operators.PromotionOfNumericOperands: weeklyhours == 40 (double field, int literal)", async () => {
    assert.deepEqual(await filterKeys(Employee, "weeklyhours == 40"), [1, 2]);
  });
  test("jdoql.operators.BinaryAddition: personid + 1 == 3", async () => {
    assert.deepEqual(await filterKeys(Person, "personid + 1 == 3"), [2]);
  });
  test("jdoql.operators.BinarySubtraction: personid - 1 == 0", async () => {
    assert.deepEqual(await filterKeys(Person, "personid - 1 == 0"), [1]);
  });
  test("jdoql.operators.Multiplication: personid * 2 == 8", async () => {
    assert.deepEqual(await filterKeys(Person, "personid * 2 == 8"), [4]);
  });
  test("jdoql.operators.SignInversion: -personid == -5", async () => {
    assert.deepEqual(await filterKeys(Person, "-personid == -5"), [5]);
  });
  test("jdoql.operators.UnaryPlus: +personid == 5", async () => {
    assert.deepEqual(await filterKeys(Person, "+personid == 5"), [5]);
  });
  test("jdoql.operators.BitwiseComplement: ~personid == -2", async () => {
    assert.deepEqual(await filterKeys(Person, "~personid == -2"), [1]);
  });
  test("jdoql.operators.LogicalComplement: !(personid == 1)", async () => {
    assert.deepEqual(await filterKeys(Person, "!(personid == 1)"), [2, 3, 4, 5]);
  });
  test("jdoql.operators.ConditionalAND: personid > 1 && personid < 4", async () => {
    assert.deepEqual(await filterKeys(Person, "personid > 1 && personid < 4"), [2, 3]);
  });
  test("jdoql.operators.ConditionalOR: personid == 1 || personid == 5", async () => {
    assert.deepEqual(await filterKeys(Person, "personid == 1 || personid == 5"), [1, 5]);
  });
  test("jdoql.operators.BooleanLogicalAND: personid > 1 & personid < 4", async () => {
    assert.deepEqual(await filterKeys(Person, "personid > 1 & personid < 4"), [2, 3]);
  });
  test("jdoql.operators.BooleanLogicalOR: personid == 1 | personid == 5", async () => {
    assert.deepEqual(await filterKeys(Person, "personid == 1 | personid == 5"), [1, 5]);
  });
  test("jdoql.operators.NotEquals: department.name != 'Development'", async () => {
    assert.deepEqual(await filterKeys(Employee, "department.name != 'Development'"), [4, 5]);
  });
  test("jdoql.operators.GreaterThan: salary > 15000.0 (FullTimeEmployee)", async () => {
    assert.deepEqual(await filterKeys(FullTimeEmployee, "salary > 15000.0"), [1, 5]);
  });
  test("jdoql.operators.LessThanOrEqual: weeklyhours <= 19", async () => {
    assert.deepEqual(await filterKeys(Employee, "weeklyhours <= 19"), [3, 4, 5]);
  });
  test('jdoql.operators.StringConcatenation: firstname == "emp1" + "First"', async () => {
    assert.deepEqual(await filterKeys(Employee, 'firstname == "emp1" + "First"'), [1]);
  });
  test('jdoql.operators.StringConcatenation: firstname + "Ext" == param', async () => {
    const q = `SELECT FROM ${Employee} WHERE firstname + "Ext" == param PARAMETERS String param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: "emp1FirstExt" }), [1]);
  });

  const P = "jdoql.ParenthesesMarkOperatorPrecedence";
  test(`${P}: personid == (1 + 1) * 2 (company data)`, async () => {
    assert.deepEqual(await filterKeys(Person, "personid == (1 + 1) * 2"), [4]);
  });
  test(`${P}: personid == 1 + 1 * 2 (* before +)`, async () => {
    assert.deepEqual(await filterKeys(Person, "personid == 1 + 1 * 2"), [3]);
  });
  test(`${P}: personid == (9 - 1) * (3 + 5) / 32`, async () => {
    assert.deepEqual(await filterKeys(Person, "personid == (9 - 1) * (3 + 5) / 32"), [2]);
  });
  test(`${P}: (personid == ((21 - 1/1)/10 + 1)) | (false && true)`, async () => {
    assert.deepEqual(await filterKeys(Person, "(personid == ((21 - 1/1)/10 + 1)) | (false && true)"), [3]);
  });
  test(`${P}: personid == 1 || personid == 2 && weeklyhours == 0 (&& before ||)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "personid == 1 || personid == 2 && weeklyhours == 0"), [1]);
  });
  test(`${P}: (personid == 1 || personid == 2) && weeklyhours == 40`, async () => {
    assert.deepEqual(await filterKeys(Employee, "(personid == 1 || personid == 2) && weeklyhours == 40"), [1, 2]);
  });
  test(`${P}: (personid == 2) == true`, async () => {
    assert.deepEqual(await filterKeys(Person, "(personid == 2) == true"), [2]);
  });

  const LN = "jdoql.operators.LogicalComplementWithNullInstance";
  test(`${LN}: !(this.manager.firstname == 'emp1First') leaves out emp2, whose manager is null`, async () => {
    assert.deepEqual(await filterKeys(Employee, "!(this.manager.firstname == 'emp1First')"), [1, 3, 4, 5]);
  });
  test(`${LN}: !(manager == null)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "!(manager == null)"), [1, 3, 4, 5]);
  });
  test(`${LN}: !!(manager == null)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "!!(manager == null)"), [2]);
  });

  const A = "jdoql.AssignmentPrePostIncrementDecrementNotSupported";
  test(`${A}: personid = 1 → 400 at the '='`, async () => {
    problem(await filter(Person, "personid = 1"), 400, { position: at(9) });
  });
  test(`${A}: personid += 1 → 400`, async () => {
    problem(await filter(Person, "personid += 1"), 400, { position: at(9) });
  });
  test(`${A}: personid++ == 1 → 400`, async () => {
    problem(await filter(Person, "personid++ == 1"), 400, { position: at(8) });
  });
  test(`${A}: --personid == 1 → 400`, async () => {
    problem(await filter(Person, "--personid == 1"), 400);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql null semantics and navigation", () => {
  test("jdoql null semantics: null == null is TRUE (all persons)", async () => {
    assert.deepEqual(await filterKeys(Person, "null == null"), ALL_PERSONS);
  });
  test("jdoql null semantics: null != null is FALSE", async () => {
    assert.deepEqual(await filterKeys(Person, "null != null"), []);
  });
  test("jdoql.NavigationComparisonWithNull: this.manager == null (company data)", async () => {
    assert.deepEqual(await filterKeys(Employee, "this.manager == null"), [2]);
  });
  test("jdoql.NavigationComparisonWithNull: this.manager != null", async () => {
    assert.deepEqual(await filterKeys(Employee, "this.manager != null"), [1, 3, 4, 5]);
  });
  test("jdoql.NavigationComparisonWithNull: this.manager.manager == null is TRUE when manager is null", async () => {
    assert.deepEqual(await filterKeys(Employee, "this.manager.manager == null"), ALL_PERSONS);
  });
  test("jdoql.NavigationComparisonWithNull: this.manager != null && this.manager.manager == null", async () => {
    assert.deepEqual(await filterKeys(Employee, "this.manager != null && this.manager.manager == null"), [1, 3, 4, 5]);
  });
  test("jdoql.NavigationComparisonWithNull: this.manager.manager != null", async () => {
    assert.deepEqual(await filterKeys(Employee, "this.manager.manager != null"), []);
  });
  test("jdoql.NavigationComparisonWithNull: !(this.manager.manager == null)", async () => {
    assert.deepEqual(await filterKeys(Employee, "!(this.manager.manager == null)"), []);
  });
  test("jdoql.NavigationComparisonWithNull: this.employee.manager == null (DentalInsurance: emp2's and the one without employee)", async () => {
    assert.deepEqual(await filterKeys(DentalInsurance, "this.employee.manager == null", "insid"), [12, 99]);
  });
  test("jdoql.NavigationComparisonWithNull: this.employee != null && this.employee.manager != null (DentalInsurance)", async () => {
    assert.deepEqual(await filterKeys(DentalInsurance, "this.employee != null && this.employee.manager != null", "insid"), [11, 13, 14, 15]);
  });
  test('jdoql.NavigationThroughANullValuedField: this.manager.lastname == "emp2Last" (no error for emp2)', async () => {
    assert.deepEqual(await filterKeys(Employee, 'this.manager.lastname == "emp2Last"'), [1, 3, 4, 5]);
  });
  test('jdoql.NavigationThroughANullValuedField: this.medicalInsurance.carrier == "Carrier1"', async () => {
    assert.deepEqual(await filterKeys(Employee, 'this.medicalInsurance.carrier == "Carrier1"'), [1]);
  });
  test('jdoql.NavigationThroughANullValuedField: employees.contains(e) && e.medicalInsurance.carrier == "Carrier1"', async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(e) && e.medicalInsurance.carrier == "Carrier1" VARIABLES Employee e`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1]);
  });
  test('jdoql.NavigationThroughReferencesUsesDotOperator: this.employee.department.name == "Development" (MedicalInsurance)', async () => {
    assert.deepEqual(await filterKeys(MedicalInsurance, 'this.employee.department.name == "Development"', "insid"), [1, 2, 3]);
  });
  test('jdoql.NavigationThroughReferencesUsesDotOperator: this.employee.manager.firstname == "emp2First"', async () => {
    assert.deepEqual(await filterKeys(MedicalInsurance, 'this.employee.manager.firstname == "emp2First"', "insid"), [1, 3, 4, 5]);
  });
  test('jdoql.NavigationThroughACollectionField: employees.contains(e) && e.firstname == "emp1First"', async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(e) && e.firstname == "emp1First" VARIABLES Employee e`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1]);
  });
  test("jdoql.NavigationThroughACollectionField: employees.firstname == 'emp1First' (no contains) → 400", async () => {
    problem(await filter(Department, "employees.firstname == 'emp1First'"), 400);
  });
  test("jdoql.NullCollectionsAndIsEmpty: personid == 2 && reviewedProjects.isEmpty() (company data)", async () => {
    assert.deepEqual(await filterKeys(Employee, "personid == 2 && reviewedProjects.isEmpty()"), [2]);
  });
  test("jdoql.NullCollectionsAndContainsMethod: personid == 2 && reviewedProjects.contains(p) (empty collection; company data)", async () => {
    const q = `SELECT FROM ${Employee} WHERE personid == 2 && reviewedProjects.contains(p) PARAMETERS ${Project} p`;
    assert.deepEqual(await queryKeys(q, "personid", { p: { projid: 2 } }), []);
  });
  test("jdoql.NullCollectionsAndContainsMethod: projects.contains(p) (p = proj1)", async () => {
    const q = `SELECT FROM ${Employee} WHERE projects.contains(p) PARAMETERS ${Project} p`;
    assert.deepEqual(await queryKeys(q, "personid", { p: { projid: 1 } }), [1, 2, 3]);
  });
  test("jdoql.ComparingCollectionFieldToNull: personid == 1 && projects == null (emp1 has projects)", async () => {
    assert.deepEqual(await filterKeys(Employee, "personid == 1 && projects == null"), []);
  });
  test("jdoql null semantics: lifetimeOrthoBenefit == null (DentalInsurance)", async () => {
    assert.deepEqual(await filterKeys(DentalInsurance, "lifetimeOrthoBenefit == null", "insid"), [99]);
  });
  test("jdoql null semantics: lifetimeOrthoBenefit > 99.996 leaves out the null benefit", async () => {
    assert.deepEqual(await filterKeys(DentalInsurance, "lifetimeOrthoBenefit > 99.996", "insid"), [13, 14, 15]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.Cast and literals", () => {
  test("jdoql.Cast: ((FullTimeEmployee)this).salary > 15000.0 with import", async () => {
    const q = `SELECT FROM ${Employee} WHERE ((FullTimeEmployee)this).salary > 15000.0 import ${FullTimeEmployee}`;
    assert.deepEqual(await queryKeys(q), [1, 5]);
  });
  test("jdoql.Cast: employees.contains(e) && ((FullTimeEmployee)e).salary > 15000.0", async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(e) && ((FullTimeEmployee)e).salary > 15000.0 VARIABLES Employee e import ${FullTimeEmployee}`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1, 2]);
  });
  test("jdoql.Cast: a failing cast is null, not an error: ((PartTimeEmployee)this).wage > 0", async () => {
    assert.deepEqual(await filterKeys(Employee, `((${PartTimeEmployee})this).wage > 0`), [3, 4]);
  });
  test("jdoql.CharacterAndStringLiterals: single and double quotes are the same: firstname == \"emp1First\" || firstname == 'emp2First'", async () => {
    assert.deepEqual(await filterKeys(Person, `firstname == "emp1First" || firstname == 'emp2First'`), [1, 2]);
  });
  test("jdoql.CharacterAndStringLiterals: a Java escape in a literal: firstname == 'emp1\\u0046irst'", async () => {
    assert.deepEqual(await filterKeys(Person, "firstname == 'emp1\\u0046irst'"), [1]);
  });
  test("jdoql.IdentifiersEqualFieldNames: this.firstname == 'emp1First'", async () => {
    assert.deepEqual(await filterKeys(Person, "this.firstname == 'emp1First'"), [1]);
  });
  test("jdoql.IdentifiersEqualFieldNames: this.personid < Byte.MAX_VALUE", async () => {
    assert.deepEqual(await filterKeys(Person, "this.personid < Byte.MAX_VALUE"), ALL_PERSONS);
  });
  test("jdoql.WhiteSpaceIsACharacterAndIgnored: personid\\t ==\\n 1\\r (tab, line feed, carriage return)", async () => {
    assert.deepEqual(await filterKeys(Person, "personid\t ==\n 1\r"), [1]);
  });
  test("jdoql.WhiteSpaceIsACharacterAndIgnored: personid\\f== 1 (form feed is white space too, as in Java)", async () => {
    assert.deepEqual(await filterKeys(Person, "personid\f== 1"), [1]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.parameters", () => {
  const IP = "jdoql.parameters.ImplicitParameters";
  test(`${IP}: firstname == :param`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Person} WHERE firstname == :param`, "personid", { param: "emp1First" }), [1]);
  });
  test(`${IP}: SELECT this, :param (a parameter in the result)`, async () => {
    const body = ok(await jdoql(`SELECT this, :param FROM ${Person}`, { param: "parameterInResult" }));
    assert.ok(Array.isArray(body) && body.length === 5, JSON.stringify(body));
    assert.deepEqual(
      sorted(body.map((row: any) => [keyOf(row[0]), row[1]])),
      ALL_PERSONS.map((id) => [id, "parameterInResult"]),
    );
  });
  test(`${IP}: GROUP BY department.name HAVING COUNT(this) >= :minValue`, async () => {
    const body = ok(await jdoql(`SELECT department.name FROM ${Employee} GROUP BY department.name HAVING COUNT(this) >= :minValue`, { minValue: 3 }));
    assert.deepEqual(body, ["Development"]);
  });
  test(`${IP}: RANGE :zero, :five`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Person} RANGE :zero, :five`, "personid", { zero: 0, five: 5 }), ALL_PERSONS);
  });
  test("jdoql.parameters.OrderOfParameters: firstname == :param1 & lastname == :param2 with positional values", async () => {
    const q = `select from ${Person} where firstname == :param1 & lastname == :param2`;
    assert.deepEqual(await queryKeys(q, "personid", ["emp1First", "emp1Last"]), [1]);
  });
  test("jdoql.parameters.OrderOfParameters: implicit parameters bind in order of first appearance", async () => {
    const q = `SELECT FROM ${Person} WHERE lastname == :b && firstname == :a`;
    assert.deepEqual(await queryKeys(q, "personid", ["emp2Last", "emp2First"]), [2]);
  });
  test("jdoql.parameters.OrderOfParameters: declared parameters bind in declaration order", async () => {
    const q = `SELECT FROM ${Person} WHERE lastname == p2 && firstname == p1 PARAMETERS String p1, String p2`;
    assert.deepEqual(await queryKeys(q, "personid", ["emp1First", "emp1Last"]), [1]);
  });

  const DO = "jdoql.parameters.DomainObjectsAsParameters";
  test(`${DO}: this.department == d (d = dept1)`, async () => {
    const q = `SELECT FROM ${Employee} WHERE this.department == d PARAMETERS ${Department} d`;
    assert.deepEqual(await queryKeys(q, "personid", { d: { deptid: 1 } }), [1, 2, 3]);
  });
  test(`${DO}: this.department != d (d = dept1)`, async () => {
    const q = `SELECT FROM ${Employee} WHERE this.department != d PARAMETERS ${Department} d`;
    assert.deepEqual(await queryKeys(q, "personid", { d: { deptid: 1 } }), [4, 5]);
  });
  test(`${DO}: this.department == e.department (e = emp1)`, async () => {
    const q = `SELECT FROM ${Employee} WHERE this.department == e.department PARAMETERS ${Employee} e`;
    assert.deepEqual(await queryKeys(q, "personid", { e: { personid: 1 } }), [1, 2, 3]);
  });
  test(`${DO}: this.salary > e.salary (FullTimeEmployee, e = emp1)`, async () => {
    const q = `SELECT FROM ${FullTimeEmployee} WHERE this.salary > e.salary PARAMETERS ${FullTimeEmployee} e`;
    assert.deepEqual(await queryKeys(q, "personid", { e: { personid: 1 } }), [5]);
  });
  test(`${DO}: this.employees.contains(e) (e = emp1)`, async () => {
    const q = `SELECT FROM ${Department} WHERE this.employees.contains(e) PARAMETERS ${Employee} e`;
    assert.deepEqual(await queryKeys(q, "deptid", { e: { personid: 1 } }), [1]);
  });
  test(`${DO}: this.employees.contains(ins.employee) (ins = medicalIns1)`, async () => {
    const q = `SELECT FROM ${Department} WHERE this.employees.contains(ins.employee) PARAMETERS ${Insurance} ins`;
    assert.deepEqual(await queryKeys(q, "deptid", { ins: { insid: 1 } }), [1]);
  });
  test(`${DO}: insurances.contains(this.medicalInsurance) (a collection of identities)`, async () => {
    const q = `SELECT FROM ${Employee} WHERE insurances.contains(this.medicalInsurance) PARAMETERS java.util.Collection insurances`;
    assert.deepEqual(await queryKeys(q, "personid", { insurances: [{ insid: 1 }, { insid: 3 }, { insid: 4 }] }), [1, 3, 4]);
  });
  test("jdoql.ComparingPersistentAndNonPersistentInstance: this.personid == param.personid (param = emp1)", async () => {
    const q = `SELECT FROM ${Employee} WHERE this.personid == param.personid PARAMETERS Employee param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: { personid: 1 } }), [1]);
  });
  test("jdoql.keywords.ThisIsReservedWordForElementOfCollection: this == param (param = emp3)", async () => {
    const q = `SELECT FROM ${Person} WHERE this == param PARAMETERS ${Person} param`;
    assert.deepEqual(await queryKeys(q, "personid", { param: { personid: 3 } }), [3]);
  });

  const SN = "jdoql.parameters.ParameterDeclaredWithSameNameAsFieldOfCandidateClass";
  test(`${SN}: personid == personid PARAMETERS long personid (the parameter hides the field)`, async () => {
    const q = `SELECT FROM ${Person} WHERE personid == personid PARAMETERS long personid`;
    assert.deepEqual(await queryKeys(q, "personid", { personid: 2 }), ALL_PERSONS);
  });
  test("jdoql.keywords.UseOfThisToAcessHiddenField: this.personid == personid PARAMETERS long personid", async () => {
    const q = `SELECT FROM ${Person} WHERE this.personid == personid PARAMETERS long personid`;
    assert.deepEqual(await queryKeys(q, "personid", { personid: 2 }), [2]);
  });

  const MP = "jdoql.parameters.MixedParameters";
  test(`${MP}: firstname == param PARAMETERS String param (valid)`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Person} WHERE firstname == param PARAMETERS String param`, "personid", { param: "emp1First" }), [1]);
  });
  test(`${MP}: declared and implicit parameters mixed → 400`, async () => {
    const q = `SELECT FROM ${Person} WHERE firstname == param1 && lastname == :param2 PARAMETERS String param1`;
    problem(await jdoql(q, { param1: "emp1First", param2: "emp1Last" }), 400);
  });
  test(`${MP}: firstname == param with param neither declared nor implicit → 400`, async () => {
    problem(await jdoql(`SELECT FROM ${Person} WHERE firstname == param`), 400);
  });

  test("jdoql.parameters.BoundParameterCheck: a declared parameter without a value → 400", async () => {
    problem(await jdoql(`SELECT FROM ${Person} WHERE personid == a PARAMETERS long a`), 400);
  });
  test("jdoql.parameters.PrimitiveParameterPassedAsNull: long p bound to null → 400", async () => {
    problem(await jdoql(`SELECT FROM ${Person} WHERE personid == p PARAMETERS long p`, { p: null }), 400);
  });
  test("params: a value of the wrong type (a string for a long) → 400", async () => {
    problem(await jdoql(`SELECT FROM ${Person} WHERE personid == :id`, { id: "abc" }), 400);
  });
  test("params: malformed JSON → 400", async () => {
    problem(await h.get(`/jdoql?query=${encodeURIComponent(`SELECT FROM ${Person} WHERE personid == :id`)}&params=${encodeURIComponent("{id:")}`), 400);
  });

  const NS = "jdoql.SeparateNamespaceForTypeNames";
  test(`${NS}: department == Department PARAMETERS Department Department`, async () => {
    const q = `SELECT FROM ${Employee} WHERE department == Department PARAMETERS Department Department import ${Department}`;
    assert.deepEqual(await queryKeys(q, "personid", { Department: { deptid: 1 } }), [1, 2, 3]);
  });
  test(`${NS}: employees.contains(Employee) VARIABLES Employee Employee`, async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(Employee) && Employee.firstname == "emp1First" VARIABLES Employee Employee import ${Employee}`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1]);
  });

  const MI = "jdoql.MultipleIdenticalImports";
  test(`${MI}: Department imported twice`, async () => {
    const q = `SELECT FROM ${Employee} WHERE department == d PARAMETERS Department d import ${Department}; import ${Department};`;
    assert.deepEqual(await queryKeys(q, "personid", { d: { deptid: 1 } }), [1, 2, 3]);
  });
  test(`${MI}: Department imported explicitly and on demand`, async () => {
    const q = `SELECT FROM ${Employee} WHERE department == d PARAMETERS Department d import ${Department}; import ${PKG}.*`;
    assert.deepEqual(await queryKeys(q, "personid", { d: { deptid: 1 } }), [1, 2, 3]);
  });
  test(`${MI}: type-import-on-demand twice, candidate class named by its simple name`, async () => {
    const q = `SELECT FROM Employee WHERE department == d PARAMETERS Department d import ${PKG}.*; import ${PKG}.*`;
    assert.deepEqual(await queryKeys(q, "personid", { d: { deptid: 1 } }), [1, 2, 3]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.variables", () => {
  const VF = "jdoql.variables.VariablesAndFields";
  test(`${VF}: team.contains(e) & e.firstname == 'emp1First' VARIABLES Employee e`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE team.contains(e) & e.firstname == 'emp1First' VARIABLES Employee e`), [2]);
  });
  test(`${VF}: the same with an implicit variable e`, async () => {
    assert.deepEqual(await filterKeys(Employee, "team.contains(e) & e.firstname == 'emp1First'"), [2]);
  });
  test(`${VF}: a variable named like a field hides it: VARIABLES Employee manager`, async () => {
    assert.deepEqual(
      await queryKeys(`SELECT FROM ${Employee} WHERE team.contains(manager) & manager.firstname == 'emp1First' VARIABLES Employee manager`),
      [2],
    );
  });
  test(`${VF}: undeclared, manager is the field: team.contains(manager) & manager.firstname == 'emp1First'`, async () => {
    assert.deepEqual(await filterKeys(Employee, "team.contains(manager) & manager.firstname == 'emp1First'"), []);
  });
  test(`${VF}: an implicit variable named like a class: team.contains(employee)`, async () => {
    assert.deepEqual(await filterKeys(Employee, "team.contains(employee) & employee.firstname == 'emp1First'"), [2]);
  });
  test("jdoql.variables.UnconstrainedVariable: this.hiredate > e.hiredate & e.personid == id VARIABLES Employee e", async () => {
    const q = `SELECT FROM ${Employee} WHERE this.hiredate > e.hiredate & e.personid == id VARIABLES Employee e PARAMETERS int id`;
    assert.deepEqual(await queryKeys(q, "personid", { id: 1 }), [2, 3, 4]);
  });
  test("jdoql.variables.VariablesWithoutExtent: a variable of a class without extent ranges over nothing", async () => {
    const q = `SELECT FROM ${Person} WHERE this.personid == noExtent.id VARIABLES NoExtent noExtent import ${QPKG}.NoExtent;`;
    assert.deepEqual(await queryKeys(q), []);
  });

  const DU = "jdoql.DenoteUniquenessInFilter";
  test(`${DU}: uniqueness not specified (emp1 satisfies both contains clauses)`, async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(e1) && (e1.personid == 1 && (employees.contains(e2) && (e2.weeklyhours == 40))) VARIABLES Employee e1; Employee e2`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1]);
  });
  test(`${DU}: e1 != e2 and only emp3 qualifies for both → empty`, async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(e1) && (e1.personid == 3 && (employees.contains(e2) && (e2.weeklyhours == 19 && e1 != e2))) VARIABLES Employee e1; Employee e2`;
    assert.deepEqual(await queryKeys(q, "deptid"), []);
  });
  test(`${DU}: e1 != e2 with emp1 and emp2 → dept1`, async () => {
    const q = `SELECT FROM ${Department} WHERE employees.contains(e1) && (e1.personid == 1 && (employees.contains(e2) && (e2.weeklyhours == 40 && e1 != e2))) VARIABLES Employee e1; Employee e2`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1]);
  });

  const MV = "jdoql.variables.MixedVariables";
  const mixedFilter = "(team.contains(e) & e.firstname == 'emp1First') & (projects.contains(p) & p.name == 'orange')";
  test(`${MV}: both variables declared`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE ${mixedFilter} VARIABLES Employee e; Project p`), [2]);
  });
  test(`${MV}: both variables implicit`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE ${mixedFilter}`), [2]);
  });
  test(`${MV}: one declared, one implicit → 400`, async () => {
    problem(await jdoql(`SELECT FROM ${Employee} WHERE ${mixedFilter} VARIABLES Employee e`), 400);
  });

  const SV = "jdoql.variables.StringVariables";
  test(`${SV}: phoneNumbers.containsKey(key) && key == 'home' variables String key`, async () => {
    const q = `select from ${FullTimeEmployee} where phoneNumbers.containsKey(key) && key == 'home' variables String key`;
    assert.deepEqual(await queryKeys(q), [1, 2, 5]);
  });
  test(`${SV}: phoneNumbers.containsValue(value) && value == '1111' variables String value`, async () => {
    const q = `select from ${FullTimeEmployee} where phoneNumbers.containsValue(value) && value == '1111' variables String value`;
    assert.deepEqual(await queryKeys(q), [1]);
  });
  test(`${SV}: languages.contains(lang) && lang == 'German' (no languages in the query data)`, async () => {
    const q = `select from ${FullTimeEmployee} where languages.contains(lang) && lang == 'German' variables String lang`;
    assert.deepEqual(await queryKeys(q), []);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.keywords", () => {
  const UL = "jdoql.keywords.UppercaseLowercase";
  test(`${UL}: SELECT FROM`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Person}`), ALL_PERSONS);
  });
  test(`${UL}: select from`, async () => {
    assert.deepEqual(await queryKeys(`select from ${Person}`), ALL_PERSONS);
  });
  test(`${UL}: select FROM (different keywords may differ in case)`, async () => {
    assert.deepEqual(await queryKeys(`select FROM ${Person}`), ALL_PERSONS);
  });
  test(`${UL}: SeLeCt FrOm → 400 at offset 0`, async () => {
    problem(await jdoql(`SeLeCt FrOm ${Person}`), 400, { position: at(0) });
  });
  test(`${UL}: a mixed-case keyword after a complete filter (Order by) → 400 at that keyword`, async () => {
    const q = `select from ${Person} where personid == 1 Order by personid`;
    problem(await jdoql(q), 400, { position: at(q.indexOf("Order")) });
  });

  const IK = "jdoql.keywords.InvalidUseOfKeywords";
  for (const q of [
    `SELECT INTO range FROM ${Person}`,
    "SELECT FROM select.Person",
    "SELECT FROM select",
    `SELECT FROM ${Person} PARAMETERS int this`,
    `SELECT FROM ${Person} VARIABLES long this`,
    `SELECT FROM ${Person} WHERE personid == range PARAMETERS int range`,
  ]) {
    test(`${IK}: ${q} → 400`, async () => {
      problem(await jdoql(q), 400);
    });
  }

  const KF = "jdoql.keywords.KeywordsAsFieldNames";
  test(`${KF}: SELECT this.select FROM JDOQLKeywordsAsFieldNames ORDER BY this.select`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT this.select FROM ${KeywordsClass} ORDER BY this.select ASCENDING`)), ["a", "b"]);
  });
  test(`${KF}: filter this.select == 'a'`, async () => {
    assert.deepEqual(await filterKeys(KeywordsClass, "this.select == 'a'", "select"), ["a"]);
  });
  test(`${KF}: SELECT select (a keyword as a bare field name) → 400`, async () => {
    problem(await jdoql(`SELECT select FROM ${KeywordsClass}`), 400);
  });

  test("jdoql.keywords.SingleString: every clause in one query (INTO java.util.Map instead of the TCK's FullName)", async () => {
    const q =
      `SELECT firstname AS firstName, lastname AS lastName INTO java.util.Map FROM ${FullTimeEmployee} EXCLUDE SUBCLASSES ` +
      "WHERE salary > 1000 & projects.contains(p) & p.budget > limit VARIABLES Project p PARAMETERS BigDecimal limit " +
      `import ${Project}; import java.math.BigDecimal GROUP BY firstname, lastname HAVING lastname.startsWith('emp') ` +
      "ORDER BY lastname ASCENDING RANGE 0, 3";
    assert.deepEqual(ok(await jdoql(q, { limit: 2000 })), [
      { firstName: "emp1First", lastName: "emp1Last" },
      { firstName: "emp2First", lastName: "emp2Last" },
      { firstName: "emp5First", lastName: "emp5Last" },
    ]);
  });
  test("jdoql imports: FROM Department resolved through a single-type import", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM Department WHERE name == 'Development' import ${Department}`, "deptid"), [1]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("result.AggregateResult and result.DefaultUnique", () => {
  const AR = "result.AggregateResult";
  const one = async (q: string) => ok(await jdoql(q));
  test(`${AR}: SELECT UNIQUE COUNT(this) FROM FullTimeEmployee`, async () => {
    assert.equal(await one(`SELECT UNIQUE COUNT(this) FROM ${FullTimeEmployee}`), 3);
  });
  test(`${AR}: COUNT(this) WHERE personid == 0 is 0`, async () => {
    assert.equal(await one(`SELECT UNIQUE COUNT(this) FROM ${FullTimeEmployee} WHERE personid == 0`), 0);
  });
  test(`${AR}: COUNT(manager) skips nulls`, async () => {
    assert.equal(await one(`SELECT UNIQUE COUNT(manager) FROM ${FullTimeEmployee}`), 2);
  });
  test(`${AR}: COUNT(manager.personid)`, async () => {
    assert.equal(await one(`SELECT UNIQUE COUNT(manager.personid) FROM ${FullTimeEmployee}`), 2);
  });
  test(`${AR}: COUNT(DISTINCT manager)`, async () => {
    assert.equal(await one(`SELECT UNIQUE COUNT(DISTINCT manager) FROM ${FullTimeEmployee}`), 1);
  });
  test(`${AR}: SUM(personid) (long)`, async () => {
    assert.equal(await one(`SELECT UNIQUE SUM(personid) FROM ${FullTimeEmployee}`), 8);
  });
  test(`${AR}: SUM(salary) (double)`, async () => {
    assert.equal(await one(`SELECT UNIQUE SUM(salary) FROM ${FullTimeEmployee}`), 75000);
  });
  test(`${AR}: SUM(budget) (BigDecimal)`, async () => {
    near(await one(`SELECT UNIQUE SUM(budget) FROM ${Project}`), 2552001.98);
  });
  test(`${AR}: SUM(budget) of no rows is null`, async () => {
    assert.equal(await one(`SELECT UNIQUE SUM(budget) FROM ${Project} WHERE projid == 0`), null);
  });
  test(`${AR}: SUM(((FullTimeEmployee)manager).salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE SUM(((FullTimeEmployee)manager).salary) FROM ${FullTimeEmployee}`), 20000);
  });
  test(`${AR}: SUM(DISTINCT ((FullTimeEmployee)manager).salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE SUM(DISTINCT ((FullTimeEmployee)manager).salary) FROM ${FullTimeEmployee}`), 10000);
  });
  test(`${AR}: MIN(personid)`, async () => {
    assert.equal(await one(`SELECT UNIQUE MIN(personid) FROM ${FullTimeEmployee}`), 1);
  });
  test(`${AR}: MIN(salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE MIN(salary) FROM ${FullTimeEmployee}`), 10000);
  });
  test(`${AR}: MIN(budget)`, async () => {
    near(await one(`SELECT UNIQUE MIN(budget) FROM ${Project}`), 2000.99);
  });
  test(`${AR}: MIN(budget) of no rows is null`, async () => {
    assert.equal(await one(`SELECT UNIQUE MIN(budget) FROM ${Project} WHERE projid == 0`), null);
  });
  test(`${AR}: MIN(((FullTimeEmployee)manager).salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE MIN(((FullTimeEmployee)manager).salary) FROM ${FullTimeEmployee}`), 10000);
  });
  test(`${AR}: MAX(personid)`, async () => {
    assert.equal(await one(`SELECT UNIQUE MAX(personid) FROM ${FullTimeEmployee}`), 5);
  });
  test(`${AR}: MAX(salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE MAX(salary) FROM ${FullTimeEmployee}`), 45000);
  });
  test(`${AR}: MAX(budget)`, async () => {
    near(await one(`SELECT UNIQUE MAX(budget) FROM ${Project}`), 2500000.99);
  });
  test(`${AR}: MAX(budget) of no rows is null`, async () => {
    assert.equal(await one(`SELECT UNIQUE MAX(budget) FROM ${Project} WHERE projid == 0`), null);
  });
  test(`${AR}: MAX(((FullTimeEmployee)manager).salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE MAX(((FullTimeEmployee)manager).salary) FROM ${FullTimeEmployee}`), 10000);
  });
  test(`${AR}: AVG(personid) (Person)`, async () => {
    assert.equal(await one(`SELECT UNIQUE AVG(personid) FROM ${Person}`), 3);
  });
  test(`${AR}: AVG(salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE AVG(salary) FROM ${FullTimeEmployee}`), 25000);
  });
  test(`${AR}: AVG(lifetimeOrthoBenefit) (BigDecimal, null skipped)`, async () => {
    near(await one(`SELECT UNIQUE AVG(lifetimeOrthoBenefit) FROM ${DentalInsurance}`), 99.997);
  });
  test(`${AR}: AVG(lifetimeOrthoBenefit) of no rows is null`, async () => {
    assert.equal(await one(`SELECT UNIQUE AVG(lifetimeOrthoBenefit) FROM ${DentalInsurance} WHERE insid == 0`), null);
  });
  test(`${AR}: AVG(((FullTimeEmployee)manager).salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE AVG(((FullTimeEmployee)manager).salary) FROM ${FullTimeEmployee}`), 10000);
  });
  test(`${AR}: AVG(DISTINCT ((FullTimeEmployee)manager).salary)`, async () => {
    assert.equal(await one(`SELECT UNIQUE AVG(DISTINCT ((FullTimeEmployee)manager).salary) FROM ${FullTimeEmployee}`), 10000);
  });
  test(`${AR}: COUNT and SUM of no rows together: one row [0, null]`, async () => {
    assert.deepEqual(await one(`SELECT COUNT(this), SUM(salary) FROM ${FullTimeEmployee} WHERE personid == 0`), [0, null]);
  });
  test(`${AR}: SUM(firstname) → 400`, async () => {
    problem(await jdoql(`SELECT SUM(firstname) FROM ${FullTimeEmployee}`), 400);
  });

  const DU = "result.DefaultUnique";
  test(`${DU}: SELECT FROM Employee is a list`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee}`), ALL_PERSONS);
  });
  test(`${DU}: COUNT(department) without UNIQUE is one value`, async () => {
    assert.equal(ok(await jdoql(`SELECT COUNT(department) FROM ${Employee}`)), 5);
  });
  test(`${DU}: avg(lifetimeOrthoBenefit)`, async () => {
    near(ok(await jdoql(`SELECT avg(lifetimeOrthoBenefit) FROM ${DentalInsurance}`)), 99.997);
  });
  test(`${DU}: SUM (budget)`, async () => {
    near(ok(await jdoql(`SELECT SUM (budget) FROM ${Project}`)), 2552001.98);
  });
  test(`${DU}: count(department) GROUP BY department is a list`, async () => {
    sameValues(ok(await jdoql(`SELECT count(department) FROM ${Employee} GROUP BY department`)), [3, 2]);
  });
  test(`${DU}: AVG(lifetimeOrthoBenefit) GROUP BY employee.department`, async () => {
    const body = ok(await jdoql(`SELECT AVG(lifetimeOrthoBenefit) FROM ${DentalInsurance} WHERE employee != null GROUP BY employee.department`));
    nearAll(sorted(body), [99.996, 99.9985]);
  });
  test(`${DU}: min(lifetimeOrthoBenefit) GROUP BY employee.department`, async () => {
    const body = ok(await jdoql(`SELECT min(lifetimeOrthoBenefit) FROM ${DentalInsurance} WHERE employee != null GROUP BY employee.department`));
    nearAll(sorted(body), [99.995, 99.998]);
  });
  test(`${DU}: MAX(lifetimeOrthoBenefit) GROUP BY employee.department`, async () => {
    const body = ok(await jdoql(`SELECT MAX(lifetimeOrthoBenefit) FROM ${DentalInsurance} WHERE employee != null GROUP BY employee.department`));
    nearAll(sorted(body), [99.997, 99.999]);
  });
  test(`${DU}: sum(lifetimeOrthoBenefit) GROUP BY employee.department`, async () => {
    const body = ok(await jdoql(`SELECT sum(lifetimeOrthoBenefit) FROM ${DentalInsurance} WHERE employee != null GROUP BY employee.department`));
    nearAll(sorted(body), [199.997, 299.988]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("result.Grouping and jdoql.Having", () => {
  test("result.Grouping: SELECT department, SUM(salary) FROM FullTimeEmployee GROUP BY department", async () => {
    const body = ok(await jdoql(`SELECT department, SUM(salary) FROM ${FullTimeEmployee} GROUP BY department`));
    assert.deepEqual(sorted(body.map((row: any[]) => [keyOf(row[0], "deptid"), row[1]])), [
      [1, 30000],
      [2, 45000],
    ]);
  });
  test("result.Grouping: a result item that is not grouped (salary) → 400", async () => {
    problem(await jdoql(`SELECT department, salary FROM ${FullTimeEmployee} GROUP BY department`), 400);
  });
  test("result.Grouping: null grouping values form one group (dentalIns99 has no employee)", async () => {
    const body = ok(await jdoql(`SELECT employee.department.deptid, COUNT(this) FROM ${DentalInsurance} GROUP BY employee.department.deptid`));
    sameValues(body, [
      [1, 3],
      [2, 2],
      [null, 1],
    ]);
  });
  test("jdoql.Having: GROUP BY department HAVING COUNT(department) > 0", async () => {
    const body = ok(await jdoql(`SELECT department, AVG(weeklyhours) FROM ${Employee} GROUP BY department HAVING COUNT(department) > 0`));
    assert.deepEqual(sorted(body.map((row: any[]) => [keyOf(row[0], "deptid"), row[1]])), [
      [1, 33],
      [2, 0],
    ]);
  });
  test("jdoql.Having: HAVING uses a field not in the result: COUNT(personid) > 1", async () => {
    const body = ok(await jdoql(`SELECT department, AVG(weeklyhours) FROM ${Employee} GROUP BY department HAVING COUNT(personid) > 1`));
    assert.deepEqual(sorted(body.map((row: any[]) => [keyOf(row[0], "deptid"), row[1]])), [
      [1, 33],
      [2, 0],
    ]);
  });
  test("jdoql.Having: HAVING COUNT(this) > 2 keeps one group", async () => {
    const body = ok(await jdoql(`SELECT department.name, COUNT(this) FROM ${Employee} GROUP BY department.name HAVING COUNT(this) > 2`));
    assert.deepEqual(body, [["Development", 3]]);
  });
  test("jdoql.Having: HAVING firstname (not boolean) → 400", async () => {
    problem(await jdoql(`SELECT department, AVG(weeklyhours) FROM ${Employee} GROUP BY department HAVING firstname`), 400);
  });
  test("jdoql.Having: HAVING on a non-grouping field (firstname == 'emp1First') → 400", async () => {
    problem(await jdoql(`SELECT department, AVG(weeklyhours) FROM ${Employee} GROUP BY department HAVING firstname == 'emp1First'`), 400);
  });
});

// ---------------------------------------------------------------------------------------------

describe("result: distinct, unique, shapes, result classes, expressions", () => {
  const DQ = "result.DistinctQuery";
  test(`${DQ}: SELECT department FROM Employee keeps duplicates`, async () => {
    assert.deepEqual(keys(ok(await jdoql(`SELECT department FROM ${Employee}`)), "deptid"), [1, 1, 1, 2, 2]);
  });
  test(`${DQ}: SELECT DISTINCT department`, async () => {
    assert.deepEqual(keys(ok(await jdoql(`SELECT DISTINCT department FROM ${Employee}`)), "deptid"), [1, 2]);
  });
  test(`${DQ}: SELECT department.deptid, department.name`, async () => {
    sameValues(ok(await jdoql(`SELECT department.deptid, department.name FROM ${Employee}`)), [
      [1, "Development"],
      [1, "Development"],
      [1, "Development"],
      [2, "Human Resources"],
      [2, "Human Resources"],
    ]);
  });
  test(`${DQ}: SELECT DISTINCT department.deptid, department.name`, async () => {
    sameValues(ok(await jdoql(`SELECT DISTINCT department.deptid, department.name FROM ${Employee}`)), [
      [1, "Development"],
      [2, "Human Resources"],
    ]);
  });
  test("result.DistinctCandidateInstances: a candidate matched through several elements appears once", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE projects.contains(p) && p.budget > 1000 VARIABLES Project p`), ALL_PERSONS);
  });

  const U = "result.Unique";
  test(`${U}: SELECT UNIQUE FROM Person WHERE personid == 1 is emp1 itself`, async () => {
    const body = ok(await jdoql(`SELECT UNIQUE FROM ${Person} WHERE personid == 1`));
    assert.deepEqual(body, ok(await h.get(`/${Person}/1`)));
  });
  test(`${U}: no match is null`, async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE FROM ${Person} WHERE personid == 0`)), null);
  });
  test(`${U}: ORDER BY personid ASCENDING RANGE 0, 1`, async () => {
    assert.equal(keyOf(ok(await jdoql(`SELECT UNIQUE FROM ${Person} ORDER BY personid ASCENDING RANGE 0, 1`))), 1);
  });
  test(`${U}: SELECT UNIQUE FROM Person (5 rows) → 400`, async () => {
    problem(await jdoql(`SELECT UNIQUE FROM ${Person}`), 400);
  });
  test(`${U}: SELECT UNIQUE firstname with 2 rows → 400`, async () => {
    problem(await jdoql(`SELECT UNIQUE firstname FROM ${Person} WHERE personid < 3`), 400);
  });

  const SR = "result.ShapeOfResult";
  test(`${SR}: no result clause: the candidates`, async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Person}`), ALL_PERSONS);
  });
  test(`${SR}: this AS Person`, async () => {
    assert.deepEqual(await queryKeys(`SELECT this AS Person FROM ${Person}`), ALL_PERSONS);
  });
  test(`${SR}: UNIQUE this AS Person WHERE personid == 1`, async () => {
    assert.equal(keyOf(ok(await jdoql(`SELECT UNIQUE this AS Person FROM ${Person} WHERE personid == 1`))), 1);
  });
  test(`${SR}: one expression: an array of values`, async () => {
    sameValues(ok(await jdoql(`SELECT firstname FROM ${Person}`)), ["emp1First", "emp2First", "emp3First", "emp4First", "emp5First"]);
  });
  test(`${SR}: UNIQUE one expression: the value`, async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE firstname FROM ${Person} WHERE personid == 1`)), "emp1First");
  });
  test(`${SR}: several expressions: arrays in select order`, async () => {
    sameValues(
      ok(await jdoql(`SELECT firstname, lastname FROM ${Person}`)),
      [1, 2, 3, 4, 5].map((n) => [`emp${n}First`, `emp${n}Last`]),
    );
  });
  test(`${SR}: UNIQUE several expressions: one array`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT UNIQUE firstname, lastname FROM ${Person} WHERE personid == 1`)), ["emp1First", "emp1Last"]);
  });
  test(`${SR}: UNIQUE several expressions INTO java.util.Map: one object`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT UNIQUE firstname AS firstName, lastname AS lastName INTO java.util.Map FROM ${Person} WHERE personid == 1`)), {
      firstName: "emp1First",
      lastName: "emp1Last",
    });
  });

  const RC = "result.ResultClassRequirements";
  test(`${RC}: SELECT personid INTO java.lang.Long`, async () => {
    sameValues(ok(await jdoql(`SELECT personid INTO java.lang.Long FROM ${FullTimeEmployee}`)), [1, 2, 5]);
  });
  test(`${RC}: SELECT salary INTO java.lang.Double`, async () => {
    sameValues(ok(await jdoql(`SELECT salary INTO java.lang.Double FROM ${FullTimeEmployee}`)), [20000, 10000, 45000]);
  });
  test(`${RC}: SELECT budget INTO java.math.BigDecimal`, async () => {
    nearAll(sorted(ok(await jdoql(`SELECT budget INTO java.math.BigDecimal FROM ${Project}`))), [2000.99, 50000, 2500000.99]);
  });
  test(`${RC}: SELECT hiredate INTO java.util.Date (epoch ms)`, async () => {
    sameValues(ok(await jdoql(`SELECT hiredate INTO java.util.Date FROM ${FullTimeEmployee}`)), [epoch(1999, 1, 1), epoch(2003, 7, 1), epoch(1998, 8, 15)]);
  });
  test(`${RC}: two expressions INTO java.lang.Long → 400`, async () => {
    problem(await jdoql(`SELECT personid, lastname INTO java.lang.Long FROM ${FullTimeEmployee}`), 400);
  });
  test(`${RC}: this INTO java.lang.Long (not assignable) → 400`, async () => {
    problem(await jdoql(`SELECT this INTO java.lang.Long FROM ${FullTimeEmployee}`), 400);
  });

  const RM = "result.ResultClassRequirementsMap";
  test(`${RM}: personid AS id, lastname AS name INTO java.util.Map`, async () => {
    sameValues(ok(await jdoql(`SELECT personid AS id, lastname AS name INTO java.util.Map FROM ${FullTimeEmployee}`)), [
      { id: 1, name: "emp1Last" },
      { id: 2, name: "emp2Last" },
      { id: 5, name: "emp5Last" },
    ]);
  });
  test(`${RM}: without aliases the keys are the expressions`, async () => {
    sameValues(ok(await jdoql(`SELECT personid, lastname INTO java.util.Map FROM ${FullTimeEmployee}`)), [
      { personid: 1, lastname: "emp1Last" },
      { personid: 2, lastname: "emp2Last" },
      { personid: 5, lastname: "emp5Last" },
    ]);
  });

  const RE = "result.ResultExpressions";
  test(`${RE}: this`, async () => {
    assert.deepEqual(await queryKeys(`SELECT this FROM ${Employee}`), ALL_PERSONS);
  });
  test(`${RE}: personid`, async () => {
    sameValues(ok(await jdoql(`SELECT personid FROM ${Employee}`)), ALL_PERSONS);
  });
  test(`${RE}: p.projid of a variable`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT p.projid FROM ${Employee} WHERE projects.contains(p) && personid == 1 VARIABLES Project p`)), [1]);
  });
  test(`${RE}: a variable p`, async () => {
    assert.deepEqual(keys(ok(await jdoql(`SELECT p FROM ${Employee} WHERE projects.contains(p) && personid == 1 VARIABLES Project p`)), "projid"), [1]);
  });
  test(`${RE}: UNIQUE COUNT(this)`, async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE COUNT(this) FROM ${Employee}`)), 5);
  });
  test(`${RE}: UNIQUE COUNT(p) of a variable`, async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE COUNT(p) FROM ${Employee} WHERE projects.contains(p) && personid == 1 VARIABLES Project p`)), 1);
  });
  test(`${RE}: SUM, MIN, MAX, AVG of personid`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT UNIQUE SUM(personid), MIN(personid), MAX(personid), AVG(personid) FROM ${Employee}`)), [15, 1, 5, 3]);
  });
  test(`${RE}: personid + 1 (Person)`, async () => {
    sameValues(ok(await jdoql(`SELECT personid + 1 FROM ${Person}`)), [2, 3, 4, 5, 6]);
  });
  test(`${RE}: this.personid`, async () => {
    sameValues(ok(await jdoql(`SELECT this.personid FROM ${Employee}`)), ALL_PERSONS);
  });
  test(`${RE}: distinct e.department.name over emp2's team`, async () => {
    sameValues(ok(await jdoql(`SELECT distinct e.department.name FROM ${Employee} WHERE team.contains(e) && personid == 2 VARIABLES Employee e`)), [
      "Development",
      "Human Resources",
    ]);
  });
  test(`${RE}: p.projid of a parameter`, async () => {
    const q = `SELECT p.projid FROM ${Employee} WHERE personid == 1 && p.projid == this.personid PARAMETERS Project p`;
    assert.deepEqual(ok(await jdoql(q, { p: { projid: 1 } })), [1]);
  });
  test(`${RE}: department.deptid WHERE personid == 1`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT department.deptid FROM ${Employee} WHERE personid == 1`)), [1]);
  });
  test(`${RE}: a parameter p as the result`, async () => {
    const q = `SELECT p FROM ${Employee} WHERE personid == 1 && personid == p.projid PARAMETERS Project p`;
    assert.deepEqual(keys(ok(await jdoql(q, { p: { projid: 1 } })), "projid"), [1]);
  });
  test(`${RE}: (FullTimeEmployee)manager WHERE personid == 1`, async () => {
    assert.deepEqual(keys(ok(await jdoql(`SELECT (FullTimeEmployee)manager FROM ${Employee} WHERE personid == 1`))), [2]);
  });
  test(`${RE}: unknown field x → 400 naming it`, async () => {
    const q = `SELECT x FROM ${Employee}`;
    problem(await jdoql(q), 400, { position: at(q.indexOf("x")), mentions: "x" });
  });
  test(`${RE}: salary, a field of a subclass of Employee → 400`, async () => {
    problem(await jdoql(`SELECT salary FROM ${Employee}`), 400);
  });
  test(`${RE}: a collection field (employees) → 400`, async () => {
    problem(await jdoql(`SELECT employees FROM ${Department}`), 400);
  });
  test(`${RE}: a map field (phoneNumbers) → 400`, async () => {
    problem(await jdoql(`SELECT phoneNumbers FROM ${Employee}`), 400);
  });

  test("result.DefaultResult: SELECT FROM Person", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Person}`), ALL_PERSONS);
  });

  const NR = "result.NullResults";
  test(`${NR}: UNIQUE manager of emp2 is null`, async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE manager FROM ${Employee} WHERE lastname == 'emp2Last'`)), null);
  });
  test(`${NR}: manager of emp2 is [null]`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT manager FROM ${Employee} WHERE lastname == 'emp2Last'`)), [null]);
  });
  test(`${NR}: DISTINCT manager is emp2 and null`, async () => {
    const body = ok(await jdoql(`SELECT DISTINCT manager FROM ${Employee}`));
    assert.ok(Array.isArray(body) && body.length === 2, JSON.stringify(body));
    sameValues(
      body.map((m: any) => keyOf(m)),
      [2, null],
    );
  });

  const NPE = "result.NPEInResultExpr";
  test(`${NPE}: manager.lastname ORDER BY personid`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT manager.lastname FROM ${Employee} ORDER BY personid ASCENDING`)), [
      "emp2Last",
      null,
      "emp2Last",
      "emp2Last",
      "emp2Last",
    ]);
  });
  test(`${NPE}: e.manager.lastname of a variable`, async () => {
    sameValues(ok(await jdoql(`SELECT e.manager.lastname FROM ${Department} WHERE employees.contains(e) VARIABLES Employee e`)), [
      "emp2Last",
      null,
      "emp2Last",
      "emp2Last",
      "emp2Last",
    ]);
  });

  const MR = "result.MethodsInResult";
  test(`${MR}: this.employees.size() ORDER BY name`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT this.employees.size() FROM ${Department} ORDER BY this.name ascending`)), [3, 2]);
  });
  test(`${MR}: this.phoneNumbers.size()`, async () => {
    assert.deepEqual(
      ok(await jdoql(`SELECT this.phoneNumbers.size() FROM ${Employee} ORDER BY this.lastname ascending, this.firstname ascending`)),
      [2, 2, 2, 2, 2],
    );
  });
  test(`${MR}: UNIQUE MAX(this.employees.size())`, async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE MAX(this.employees.size()) FROM ${Department}`)), 3);
  });
  test(`${MR}: this.phoneNumbers.get('home')`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT this.phoneNumbers.get('home') FROM ${Employee} ORDER BY this.lastname ascending, this.firstname ascending`)), [
      "1111",
      "2222",
      "3333",
      "3343",
      "3363",
    ]);
  });
  test(`${MR}: this.firstname.substring(1,4)`, async () => {
    assert.deepEqual(ok(await jdoql(`SELECT this.firstname.substring(1,4) FROM ${Employee} ORDER BY this.lastname ascending, this.firstname ascending`)), [
      "mp1",
      "mp2",
      "mp3",
      "mp4",
      "mp5",
    ]);
  });
  test(`${MR}: this.firstname.indexOf('First')`, async () => {
    assert.deepEqual(
      ok(await jdoql(`SELECT this.firstname.indexOf('First') FROM ${Employee} ORDER BY this.lastname ascending, this.firstname ascending`)),
      [4, 4, 4, 4, 4],
    );
  });

  const V = "result.Variable";
  test(`${V}: distinct e over departments' employees`, async () => {
    assert.deepEqual(keys(ok(await jdoql(`SELECT distinct e FROM ${Department} WHERE employees.contains(e) VARIABLES Employee e`))), ALL_PERSONS);
  });
  test(`${V}: e WHERE deptid == 2 & employees.contains(e)`, async () => {
    assert.deepEqual(keys(ok(await jdoql(`SELECT e FROM ${Department} WHERE deptid == 2 & employees.contains(e) VARIABLES Employee e`))), [4, 5]);
  });
  test(`${V}: p.projid, p.name keeps one row per (candidate, variable)`, async () => {
    const q = `SELECT p.projid, p.name FROM ${Employee} WHERE projects.contains(p) & p.name == 'orange' VARIABLES Project p`;
    assert.deepEqual(ok(await jdoql(q)), [
      [1, "orange"],
      [1, "orange"],
      [1, "orange"],
    ]);
  });
  test(`${V}: distinct p.projid, p.name`, async () => {
    const q = `SELECT distinct p.projid, p.name FROM ${Employee} WHERE projects.contains(p) & p.name == 'orange' VARIABLES Project p`;
    assert.deepEqual(ok(await jdoql(q)), [[1, "orange"]]);
  });
  test(`${V}: e, p over departments`, async () => {
    const body = ok(await jdoql(`SELECT e, p FROM ${Department} WHERE employees.contains(e) && e.projects.contains(p) VARIABLES Employee e; Project p`));
    sameValues(
      body.map((r: any[]) => [keyOf(r[0]), keyOf(r[1], "projid")]),
      [
        [1, 1],
        [2, 1],
        [3, 1],
        [2, 2],
        [3, 2],
        [4, 3],
        [5, 3],
      ],
    );
  });
  test(`${V}: this, e, p WHERE deptid == 1`, async () => {
    const body = ok(
      await jdoql(`SELECT this, e, p FROM ${Department} WHERE deptid == 1 && employees.contains(e) && e.projects.contains(p) VARIABLES Employee e; Project p`),
    );
    sameValues(
      body.map((r: any[]) => [keyOf(r[0], "deptid"), keyOf(r[1]), keyOf(r[2], "projid")]),
      [
        [1, 1, 1],
        [1, 2, 1],
        [1, 3, 1],
        [1, 2, 2],
        [1, 3, 2],
      ],
    );
  });
  test(`${V}: d, e, p from the company`, async () => {
    const q = `SELECT d, e, p FROM ${Company} WHERE name == "Sun Microsystems, Inc." && departments.contains(d) && d.employees.contains(e) && e.projects.contains(p) VARIABLES Department d; Employee e; Project p`;
    const body = ok(await jdoql(q));
    sameValues(
      body.map((r: any[]) => [keyOf(r[0], "deptid"), keyOf(r[1]), keyOf(r[2], "projid")]),
      [
        [1, 1, 1],
        [1, 2, 1],
        [1, 3, 1],
        [1, 2, 2],
        [1, 3, 2],
        [2, 4, 3],
        [2, 5, 3],
      ],
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe("IF-ELSE (result.IfElseResult, jdoql.IfElseInFilter)", () => {
  const IR = "result.IfElseResult";
  test(`${IR}: IF (this.employee == null) 'No employee' ELSE this.employee.lastname`, async () => {
    const q = `SELECT IF (this.employee == null) 'No employee' ELSE this.employee.lastname FROM ${DentalInsurance} ORDER BY this.insid ascending`;
    assert.deepEqual(ok(await jdoql(q)), ["emp1Last", "emp2Last", "emp3Last", "emp4Last", "emp5Last", "No employee"]);
  });
  test(`${IR}: IF (this.members.size() > 2) this.budget * 1.2 ELSE this.budget * 1.1`, async () => {
    const q = `SELECT IF (this.members.size() > 2) this.budget * 1.2 ELSE this.budget * 1.1 FROM ${Project} ORDER BY this.projid ascending`;
    nearAll(ok(await jdoql(q)), [3000001.188, 55000, 2201.089]);
  });
  test(`${IR}: IF ... ELSE IF ... ELSE chain`, async () => {
    const q = `SELECT IF (this.reviewers.isEmpty()) 'No reviewer' ELSE IF (this.reviewers.size() == 1) 'Single reviewer' ELSE 'Reviewer team' FROM ${Project} ORDER BY this.projid ascending`;
    assert.deepEqual(ok(await jdoql(q)), ["No reviewer", "Reviewer team", "Single reviewer"]);
  });
  test(`${IR}: a non-boolean condition → 400`, async () => {
    problem(await jdoql(`SELECT IF (this.firstname) 0 ELSE 1 FROM ${Employee}`), 400);
  });
  test(`${IR}: missing ELSE → 400`, async () => {
    problem(await jdoql(`SELECT IF (this.employee == null) 0 FROM ${DentalInsurance}`), 400);
  });
  test(`${IR}: branches of different types → 400`, async () => {
    problem(await jdoql(`SELECT IF (this.employee == null) 'Michael' ELSE this.employee FROM ${DentalInsurance}`), 400);
  });

  const IF = "jdoql.IfElseInFilter";
  test(`${IF}: this.salary > (IF (this.department.name == 'Development') 15000 ELSE 25000)`, async () => {
    const q = `SELECT FROM ${FullTimeEmployee} WHERE this.salary > (IF (this.department.name == 'Development') 15000 ELSE 25000) ORDER BY this.personid`;
    assert.deepEqual(orderedKeys(ok(await jdoql(q))), [1, 5]);
  });
  test(`${IF}: IF over relationships`, async () => {
    const q = `SELECT FROM ${Employee} WHERE (IF (this.manager == null) this.mentor.department.deptid ELSE this.manager.department.deptid) == this.department.deptid ORDER BY this.personid`;
    assert.deepEqual(orderedKeys(ok(await jdoql(q))), [1, 2, 3]);
  });
  test(`${IF}: several IF/ELSE with distinct conditions`, async () => {
    const q =
      `SELECT FROM ${FullTimeEmployee} WHERE (IF (0.0 <= this.salary && this.salary < 10000.1) 1 ELSE ` +
      "IF (10000.1 <= this.salary && this.salary < 20000.1) 2 ELSE IF (20000.1 <= this.salary && this.salary < 30000.1) 3 ELSE 4) == 2 ORDER BY this.personid";
    assert.deepEqual(orderedKeys(ok(await jdoql(q))), [1]);
  });
  test(`${IF}: several IF/ELSE with overlapping conditions`, async () => {
    const q = `SELECT FROM ${FullTimeEmployee} WHERE (IF (this.salary < 10000.1) 1 ELSE IF (this.salary < 20000.1) 2 ELSE IF (this.salary < 30000.1) 3 ELSE 4) == 2 ORDER BY this.personid`;
    assert.deepEqual(orderedKeys(ok(await jdoql(q))), [1]);
  });
  test(`${IF}: a non-boolean condition → 400`, async () => {
    problem(await filter(Employee, "(IF (this.firstname) 0 ELSE 1) == 0"), 400);
  });
  test(`${IF}: missing ELSE → 400`, async () => {
    problem(await filter(DentalInsurance, "(IF (this.employee == null) 15000) == 15000"), 400);
  });
  test(`${IF}: branches of different types → 400`, async () => {
    problem(await filter(DentalInsurance, "(IF (this.employee == null) 'Michael' ELSE this.employee) == 'Michael'"), 400);
  });
});

// ---------------------------------------------------------------------------------------------

describe("ordering and range (jdoql.OrderingSpecification, PositiveRange, NegativeRange, RangeAsString)", () => {
  const OS = "jdoql.OrderingSpecification";
  test(`${OS}: this.lifetimeOrthoBenefit ascending nulls first`, async () => {
    assert.deepEqual(
      orderedKeys(ok(await jdoql(`SELECT FROM ${DentalInsurance} ORDER BY this.lifetimeOrthoBenefit ascending nulls first`)), "insid"),
      [99, 11, 12, 13, 14, 15],
    );
  });
  test(`${OS}: this.lifetimeOrthoBenefit ascending nulls last`, async () => {
    assert.deepEqual(
      orderedKeys(ok(await jdoql(`SELECT FROM ${DentalInsurance} ORDER BY this.lifetimeOrthoBenefit ascending nulls last`)), "insid"),
      [11, 12, 13, 14, 15, 99],
    );
  });
  test(`${OS}: this.lifetimeOrthoBenefit DESCENDING NULLS FIRST`, async () => {
    assert.deepEqual(
      orderedKeys(ok(await jdoql(`SELECT FROM ${DentalInsurance} ORDER BY this.lifetimeOrthoBenefit DESCENDING NULLS FIRST`)), "insid"),
      [99, 15, 14, 13, 12, 11],
    );
  });
  test(`${OS}: birthdate descending (dates)`, async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(`SELECT FROM ${Person} ORDER BY birthdate descending`))), [2, 4, 3, 1, 5]);
  });
  test(`${OS}: lastname desc`, async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(`SELECT FROM ${Person} ORDER BY lastname desc`))), [5, 4, 3, 2, 1]);
  });
  test(`${OS}: weeklyhours desc, personid asc (two keys)`, async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(`SELECT FROM ${Employee} ORDER BY weeklyhours desc, personid asc`))), [1, 2, 3, 4, 5]);
  });
  test(`${OS}: department.name ascending, salary descending (navigation)`, async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(`SELECT FROM ${FullTimeEmployee} ORDER BY department.name ascending, salary descending`))), [1, 2, 5]);
  });
  test(`${OS}: ordering through a null reference keeps the candidate: manager.personid ascending nulls first`, async () => {
    assert.deepEqual(
      orderedKeys(ok(await jdoql(`SELECT FROM ${Employee} ORDER BY manager.personid ascending nulls first, personid ascending`))),
      [2, 1, 3, 4, 5],
    );
  });
  test(`${OS}: the direction may be left out (ascending)`, async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(`SELECT FROM ${Person} ORDER BY firstname`))), ALL_PERSONS);
  });

  const range = (from: number | string, to: number | string) => `SELECT FROM ${Person} ORDER BY personid ASCENDING RANGE ${from}, ${to}`;
  test("jdoql.PositiveRange: RANGE 0, 5", async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(range(0, 5)))), [1, 2, 3, 4, 5]);
  });
  test("jdoql.PositiveRange: RANGE 0, 4", async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(range(0, 4)))), [1, 2, 3, 4]);
  });
  test("jdoql.PositiveRange: RANGE 1, 5", async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(range(1, 5)))), [2, 3, 4, 5]);
  });
  test("jdoql.RangeAsString: RANGE 1, 4", async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(range(1, 4)))), [2, 3, 4]);
  });
  test("jdoql.RangeAsString: RANGE :lo, :hi (implicit parameters; `from`/`to` would not do: `from` is a keyword)", async () => {
    assert.deepEqual(orderedKeys(ok(await jdoql(range(":lo", ":hi"), { lo: 1, hi: 3 }))), [2, 3]);
  });
  test("jdoql.NegativeRange: RANGE 4, 4 is empty", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT FROM ${Person} RANGE 4, 4`)), []);
  });
  test("jdoql.NegativeRange: RANGE 4, 3 is empty", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT FROM ${Person} RANGE 4, 3`)), []);
  });
  test("jdoql.NegativeRange: UNIQUE with RANGE 4, 4 is null", async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE FROM ${Person} RANGE 4, 4`)), null);
  });
  test("jdoql.NegativeRange: UNIQUE with RANGE 4, 3 is null", async () => {
    assert.equal(ok(await jdoql(`SELECT UNIQUE FROM ${Person} RANGE 4, 3`)), null);
  });
});

// ---------------------------------------------------------------------------------------------

describe("jdoql.subqueries (company data; the TCK runs them on SubqueryTestData)", () => {
  test("jdoql.subqueries.NonCorrelatedSubqueries: weeklyhours > (SELECT AVG(e.weeklyhours) FROM Employee e) (avg 19.8)", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM Employee e)`), [1, 2]);
  });
  test("jdoql.subqueries.NonCorrelatedSubqueries: hiredate > :hired && weeklyhours > (SELECT AVG ...)", async () => {
    const q = `SELECT FROM ${Employee} WHERE this.hiredate > :hired && this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM ${Employee} e)`;
    assert.deepEqual(await queryKeys(q, "personid", [epoch(2002, 9, 1)]), [2]);
  });
  test("jdoql.subqueries.UnmodifiedSubqueryInstance: SELECT AVG(weeklyhours) FROM Employee is 19.8", async () => {
    near(ok(await jdoql(`SELECT AVG(weeklyhours) FROM ${Employee}`)), 19.8);
  });
  test("jdoql.subqueries.CorrelatedSubqueries: weeklyhours > (SELECT AVG(e.weeklyhours) FROM this.department.employees e)", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM this.department.employees e)`), [1, 2]);
  });
  test("jdoql.subqueries.CorrelatedSubqueries: (SELECT max(r.roomid) FROM this.department.meetingRooms r) == 3", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Employee} WHERE (SELECT max(r.roomid) FROM this.department.meetingRooms r) == 3`), [1, 2, 3]);
  });
  test("jdoql.subqueries.CorrelatedSubqueriesWithParameters: same department and manager (null managers are equal)", async () => {
    const q = `SELECT FROM ${Employee} WHERE this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM this.department.employees e WHERE e.manager == this.manager)`;
    assert.deepEqual(await queryKeys(q), [1]);
  });
  test("jdoql.subqueries.CorrelatedSubqueriesWithParameters: all employees of the same manager", async () => {
    const q = `SELECT FROM ${Employee} WHERE this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM ${Employee} e WHERE e.manager == this.manager)`;
    assert.deepEqual(await queryKeys(q), [1, 3]);
  });
  test("jdoql.subqueries.CorrelatedSubqueriesWithParameters: hiredate > :hired and the same manager", async () => {
    const q = `SELECT FROM ${Employee} WHERE this.hiredate > :hired && this.weeklyhours > (SELECT AVG(e.weeklyhours) FROM ${Employee} e WHERE e.manager == this.manager)`;
    assert.deepEqual(await queryKeys(q, "personid", { hired: "2002-09-01T00:00:00Z" }), []);
  });
  test("jdoql.subqueries.AggregateOnSize: employees.size() == (SELECT MAX(d.employees.size()) FROM Department d)", async () => {
    const q = `SELECT FROM ${Department} WHERE this.employees.size() == (SELECT MAX(d.employees.size()) FROM ${Department} d)`;
    assert.deepEqual(await queryKeys(q, "deptid"), [1]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("EXCLUDE SUBCLASSES", () => {
  test("jdoql EXCLUDE SUBCLASSES: FROM FullTimeEmployee EXCLUDE SUBCLASSES", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${FullTimeEmployee} EXCLUDE SUBCLASSES`), [1, 2, 5]);
  });
  test("jdoql EXCLUDE SUBCLASSES: FROM Person EXCLUDE SUBCLASSES (every person is an employee)", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT FROM ${Person} EXCLUDE SUBCLASSES`)), []);
  });
  test("jdoql EXCLUDE SUBCLASSES: FROM Insurance EXCLUDE SUBCLASSES (abstract)", async () => {
    assert.deepEqual(ok(await jdoql(`SELECT FROM ${Insurance} EXCLUDE SUBCLASSES`)), []);
  });
  test("jdoql EXCLUDE SUBCLASSES: FROM DentalInsurance EXCLUDE SUBCLASSES WHERE lifetimeOrthoBenefit != null", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${DentalInsurance} EXCLUDE SUBCLASSES WHERE lifetimeOrthoBenefit != null`, "insid"), [11, 12, 13, 14, 15]);
  });
  test("jdoql subclasses included by default: FROM Insurance", async () => {
    assert.deepEqual(await queryKeys(`SELECT FROM ${Insurance}`, "insid"), [1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 99]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("REST forms: /query, raw query strings, HEAD, fetch plans", () => {
  test("/query?query= is /jdoql?query=", async () => {
    assert.deepEqual(keys(ok(await h.get(`/query?query=${encodeURIComponent(`SELECT FROM ${Person} WHERE personid < 3`)}`))), [1, 2]);
  });
  test("/jdoql?<query> (the earlier form, without query=)", async () => {
    assert.deepEqual(keys(ok(await h.get(`/jdoql?${encodeURIComponent(`SELECT FROM ${Person} WHERE personid > 3`)}`))), [4, 5]);
  });
  test("/{class}?<filter> as the spec writes it: ?personid==1", async () => {
    assert.deepEqual(keys(ok(await h.get(`/${Person}?personid==1`))), [1]);
  });
  test("/query?query= with params=", async () => {
    const url = withParams(`/query?query=${encodeURIComponent(`SELECT FROM ${Person} WHERE lastname == :ln`)}`, { ln: "emp3Last" });
    assert.deepEqual(keys(ok(await h.get(url))), [3]);
  });
  test("/jdoql?<query> with an ungrouped aggregate: one value", async () => {
    assert.equal(ok(await h.get(`/jdoql?${encodeURIComponent(`SELECT COUNT(this) FROM ${PartTimeEmployee}`)}`)), 2);
  });
  test("/{class}?<filter> unencoded with a string literal: ?lastname=='emp3Last'", async () => {
    assert.deepEqual(keys(ok(await h.get(`/${Person}?lastname=='emp3Last'`))), [3]);
  });
  test("/{class}?<filter> URL-encoded: ?firstname == 'emp2First'", async () => {
    assert.deepEqual(keys(ok(await h.get(`/${Person}?${encodeURIComponent("firstname == 'emp2First'")}`))), [2]);
  });
  test("/{class}?filter= answers an array even for one match, the same objects as GET /{class}/{key}", async () => {
    const body = ok(await filter(Person, "personid == 1"));
    assert.deepEqual(body, [ok(await h.get(`/${Person}/1`))]);
  });
  test("/{class}?filter= on a subclass resource: FullTimeEmployee?filter=salary > 15000", async () => {
    assert.deepEqual(await filterKeys(FullTimeEmployee, "salary > 15000"), [1, 5]);
  });
  test("/jdoql with fetchGroup=all writes the fields of the fetch plan", async () => {
    const body = ok(await jdoql(`SELECT FROM ${Person} WHERE personid == 1`, undefined, "&fetchGroup=all"));
    assert.equal(body.length, 1);
    assert.equal(body[0].middlename, "emp1Middle");
    assert.deepEqual(keys(body[0].projects, "projid"), [1]);
    assert.equal(keyOf(body[0].dentalInsurance, "insid"), 11);
  });
  test("HEAD /{class}?filter= with exactly one match: 200, X-Match-Count 1, no body", async () => {
    const r = await h.call("HEAD", `/${Person}?filter=${encodeURIComponent("personid == 1")}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("x-match-count"), "1");
    assert.equal(r.text, "");
  });
  test("HEAD /{class}?filter= with 4 matches: 404, X-Match-Count 4", async () => {
    const r = await h.call("HEAD", `/${Person}?filter=${encodeURIComponent("personid > 1")}`);
    assert.equal(r.status, 404);
    assert.equal(r.headers.get("x-match-count"), "4");
  });
  test("HEAD /{class}?filter= with no match: 404, X-Match-Count 0", async () => {
    const r = await h.call("HEAD", `/${Employee}?filter=${encodeURIComponent("this.manager.manager != null")}`);
    assert.equal(r.status, 404);
    assert.equal(r.headers.get("x-match-count"), "0");
  });
  test("HEAD /{class}?filter= with params", async () => {
    const r = await h.call("HEAD", withParams(`/${Department}?filter=${encodeURIComponent("employees.contains(:e)")}`, { e: { personid: 4 } }));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("x-match-count"), "1");
  });
});

// ---------------------------------------------------------------------------------------------

describe("errors", () => {
  test("syntax error: an incomplete filter → 400 at the end, with expected", async () => {
    const q = `SELECT FROM ${Person} WHERE personid ==`;
    problem(await jdoql(q), 400, { position: at(q.length), expected: true });
  });
  test("syntax error on line 3: ORDER BY with nothing after it", async () => {
    const q = `SELECT FROM ${Person}\nWHERE personid == 1\nORDER BY`;
    problem(await jdoql(q), 400, { position: { line: 3, column: 9, offset: q.length }, expected: true });
  });
  test("syntax error: trailing text after a complete query → 400 at it", async () => {
    const q = `SELECT FROM ${Person} WHERE personid == 1 )`;
    problem(await jdoql(q), 400, { position: at(q.indexOf(")")), expected: true });
  });
  test("syntax error: '=' instead of '==' in /jdoql → 400 at the '='", async () => {
    const q = `SELECT FROM ${Person} WHERE firstname = 'emp1First'`;
    problem(await jdoql(q), 400, { position: at(q.indexOf("=")) });
  });
  test("syntax error: an unterminated string literal → 400 with a position", async () => {
    const q = `SELECT FROM ${Person} WHERE firstname == 'emp1First`;
    problem(await jdoql(q), 400, { offsetIn: [q.indexOf("'"), q.length] });
  });
  test("a query without FROM → 400", async () => {
    problem(await jdoql("SELECT firstname"), 400);
  });
  test("unknown candidate class → 400 naming the class and its position", async () => {
    const q = `SELECT FROM ${PKG}.Nobody WHERE personid == 1`;
    problem(await jdoql(q), 400, { offsetIn: [q.indexOf("FROM"), q.indexOf(PKG)], mentions: "Nobody" });
  });
  test("unknown field → 400 naming it and its position", async () => {
    const q = `SELECT FROM ${Person} WHERE firstname == 'emp1First' && this.nosuchfield == 1`;
    problem(await jdoql(q), 400, { offsetIn: [q.indexOf("this.nosuchfield"), q.indexOf("nosuchfield")], mentions: "nosuchfield" });
  });
  test("unknown field in ?filter= → 400, position relative to the filter", async () => {
    problem(await filter(Person, "this.nosuchfield == 1"), 400, { offsetIn: [0, 5], mentions: "nosuchfield" });
  });
  test("unknown class as a resource with a filter → 404", async () => {
    problem(await filter(`${PKG}.Nobody`, "personid == 1"), 404);
  });
  test("a filter that is not boolean (firstname) → 400", async () => {
    problem(await filter(Person, "firstname"), 400);
  });
  test("a filter comparing a string with a number → 400", async () => {
    problem(await filter(Person, "firstname == 1"), 400);
  });
  test("bulk DELETE FROM on GET → 405, nothing deleted", async () => {
    problem(await jdoql(`DELETE FROM ${Person} WHERE personid == 1`), 405);
    assert.equal(ok(await h.get(`/${Person}`)).length, 5);
  });
  test("bulk UPDATE on GET → 405, nothing changed", async () => {
    problem(await jdoql(`UPDATE ${Person} SET this.firstname = 'x' WHERE personid == 1`), 405);
    assert.equal(ok(await h.get(`/${Person}/1`)).firstname, "emp1First");
  });
});
