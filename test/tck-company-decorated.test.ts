/**
 * The JDO TCK company model with its field types from decorated TypeScript classes
 * (test/fixtures/tck-company-classes.ts), and again from the TCK's own Java sources
 * (test/fixtures/tck-company-java/, read with zero re-typing), and everything else from the TCK's
 * own XML, which overrides the code: package.jdo + package-standard.orm, in both identity forms.
 *
 * For each form, the real handler over a fresh libSQL file: one object of every concrete class
 * is POSTed (relations, the embedded Address, the phoneNumbers map, the languages set), read back
 * by its key field by field, the mapped-by sides and every extent are read, the .orm's tables
 * are checked, and the abstract classes refuse objects without a concrete "class".
 *
 * Run: node --import tsx --test test/tck-company-decorated.test.ts
 */
import { after, before, describe, test } from "node:test";
import { canonical } from "./support/canonical-model.ts";
import assert from "node:assert/strict";
import { loadModel } from "../src/config/load-model.ts";
import { startHarness, type Harness } from "./support/harness.ts";
import { problem } from "./support/query-client.ts";
import { tckCompanyClasses } from "./fixtures/tck-company-classes.ts";
import { TCK_PACKAGE, tckCompanyJavaModel, tckCompanyModel, tckCompanyXml, type TckIdentity } from "./fixtures/tck-company.ts";
import type { PersistenceContext } from "../src/config/context.ts";

const FORMS: TckIdentity[] = ["applicationidentity", "datastoreidentity"];
const C = (simple: string) => `${TCK_PACKAGE}.${simple}`;

// The hierarchy and keys as the TCK's Java and XML declare them, to know what each extent holds.
const SUPER: Record<string, string> = {
  Employee: "Person",
  FullTimeEmployee: "Employee",
  PartTimeEmployee: "Employee",
  MedicalInsurance: "Insurance",
  DentalInsurance: "Insurance",
};
const KEY_FIELD: Record<string, string> = {
  Person: "personid",
  Company: "companyid",
  Department: "deptid",
  Project: "projid",
  Insurance: "insid",
  MeetingRoom: "roomid",
};
const rootOf = (cls: string): string => (SUPER[cls] ? rootOf(SUPER[cls]) : cls);
const isA = (cls: string, ancestor: string): boolean => cls === ancestor || (SUPER[cls] !== undefined && isA(SUPER[cls], ancestor));
const PERSISTENT = [
  "Person",
  "Employee",
  "FullTimeEmployee",
  "PartTimeEmployee",
  "Company",
  "Department",
  "Project",
  "Insurance",
  "MedicalInsurance",
  "DentalInsurance",
  "MeetingRoom",
];
const ABSTRACT = new Set(["Employee", "Insurance"]);
/** java.util.List fields: their order round-trips; every other collection is a Set. */
const LISTS = new Set(["meetingRooms"]);

// ---------------------------------------------------------------------------------------------
// One object of every concrete class, in an order where every reference points back.

/** A reference to an object POSTed earlier, as its identity; remembered so comparisons know it. */
type Ref = (label: string) => Record<string, unknown>;
const refs = new WeakSet<object>();
const isRef = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && refs.has(v);

const address = (n: number) => ({ addrid: n, street: `${n} Main Street`, city: "Springfield", state: "IL", zipcode: `6270${n}`, country: "USA" });
const person = (id: number) => ({
  personid: id,
  firstname: `emp${id}First`,
  lastname: `emp${id}Last`,
  middlename: `emp${id}Middle`,
  birthdate: Date.UTC(1970, 5, id),
  address: address(id),
  phoneNumbers: { home: `1111${id}`, work: `2222${id}` },
  languages: ["English", "German"],
});

const OBJECTS: { label: string; cls: string; body: (ref: Ref) => Record<string, unknown> }[] = [
  { label: "company", cls: "Company", body: () => ({ companyid: 1, name: "Sun Microsystems, Inc.", founded: Date.UTC(1952, 3, 1), address: address(9) }) },
  { label: "room1", cls: "MeetingRoom", body: () => ({ roomid: 1, name: "Ballroom" }) },
  { label: "room2", cls: "MeetingRoom", body: () => ({ roomid: 2, name: "Small room" }) },
  // Rooms out of key order: a List keeps the order it was given.
  {
    label: "dept1",
    cls: "Department",
    body: (ref) => ({ deptid: 1, name: "Development", company: ref("company"), meetingRooms: [ref("room2"), ref("room1")] }),
  },
  {
    label: "emp1",
    cls: "FullTimeEmployee",
    body: (ref) => ({ ...person(1), hiredate: Date.UTC(1999, 0, 1), weeklyhours: 40, salary: 20000, department: ref("dept1") }),
  },
  { label: "dept2", cls: "Department", body: (ref) => ({ deptid: 2, name: "Human Resources", company: ref("company"), employeeOfTheMonth: ref("emp1") }) },
  {
    label: "emp2",
    cls: "PartTimeEmployee",
    body: (ref) => ({
      ...person(2),
      hiredate: Date.UTC(2003, 6, 15),
      weeklyhours: 15.5,
      wage: 12.75,
      department: ref("dept1"),
      fundingDept: ref("dept2"),
      manager: ref("emp1"),
      mentor: ref("emp1"),
      hradvisor: ref("emp1"),
    }),
  },
  { label: "person3", cls: "Person", body: () => person(3) },
  { label: "medical", cls: "MedicalInsurance", body: (ref) => ({ insid: 1, carrier: "Carrier1", planType: "PPO", employee: ref("emp1") }) },
  { label: "dental", cls: "DentalInsurance", body: (ref) => ({ insid: 2, carrier: "Carrier2", lifetimeOrthoBenefit: 99.99, employee: ref("emp2") }) },
  {
    label: "project",
    cls: "Project",
    body: (ref) => ({ projid: 1, name: "orange", budget: 2500000.99, members: [ref("emp1"), ref("emp2")], reviewers: [ref("emp2")] }),
  },
];

/** The other side of each bidirectional relation (mapped-by in the .orm), by label. */
const INVERSES: [label: string, field: string, expected: string | string[]][] = [
  ["company", "departments", ["dept1", "dept2"]],
  ["dept1", "employees", ["emp1", "emp2"]],
  ["dept2", "fundedEmps", ["emp2"]],
  ["emp1", "medicalInsurance", "medical"],
  ["emp2", "dentalInsurance", "dental"],
  ["emp1", "team", ["emp2"]],
  ["emp1", "protege", "emp2"],
  ["emp1", "hradvisees", ["emp2"]],
  ["emp1", "projects", ["project"]],
  ["emp2", "projects", ["project"]],
  ["emp2", "reviewedProjects", ["project"]],
];

const pick = (o: any, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o?.[k]]));
const sortedJson = (list: unknown[]) => list.map((x) => JSON.stringify(x)).sort();

/** Each sent field read back: references by identity, Sets in any order, everything else as sent. */
function assertFields(actual: any, sent: Record<string, unknown>, where: string): void {
  for (const [field, value] of Object.entries(sent)) {
    const got = actual?.[field];
    const msg = `${where}.${field}: ${JSON.stringify(got)}`;
    if (isRef(value)) assert.deepEqual(pick(got, Object.keys(value)), value, msg);
    else if (Array.isArray(value)) {
      assert.ok(Array.isArray(got), msg);
      const ids = value.length && value.every(isRef) ? got.map((g: any) => pick(g, Object.keys(value[0]!))) : got;
      if (LISTS.has(field)) assert.deepEqual(ids, value, msg);
      else assert.deepEqual(sortedJson(ids), sortedJson(value), msg);
    } else assert.deepEqual(got, value, msg);
  }
}

// ---------------------------------------------------------------------------------------------

/** Where the field types come from: the decorated TypeScript twin, or the TCK's own Java sources. */
const SOURCES: { label: string; model: (form: TckIdentity) => Promise<Pick<PersistenceContext, "classes" | "metadata" | "documents">> }[] = [
  { label: "decorated classes", model: async (form) => tckCompanyModel(form) },
  { label: "the TCK's Java sources", model: tckCompanyJavaModel },
];

for (const source of SOURCES)
  for (const form of FORMS) {
    describe(`TCK company, ${source.label} + ${form} XML`, () => {
      let h: Harness;
      /** Label → class, what was sent, what the POST answered. */
      const created = new Map<string, { cls: string; sent: Record<string, unknown>; answer: any }>();
      const datastore = form === "datastoreidentity";

      const identity = (label: string): Record<string, unknown> => {
        const { cls, answer } = created.get(label)!;
        const key = datastore ? "_id" : KEY_FIELD[rootOf(cls)]!;
        return { [key]: answer[key] };
      };
      const ref: Ref = (label) => {
        const r = identity(label);
        refs.add(r);
        return r;
      };
      const get = (label: string) => h.get(`/${C(created.get(label)!.cls)}/${Object.values(identity(label))[0]}?fetchGroup=all`);

      before(async () => {
        h = await startHarness(await source.model(form));
      });
      after(() => h?.close());

      test("POST one object of every concrete class", async () => {
        for (const { label, cls, body } of OBJECTS) {
          const sent = body(ref);
          const r = await h.post(`/${C(cls)}`, sent);
          assert.equal(r.status, 201, `${label}: ${r.text}`);
          assert.equal(r.body.class, C(cls));
          if (datastore) assert.equal(typeof r.body._id, "number", r.text);
          created.set(label, { cls, sent, answer: r.body });
        }
        const concrete = PERSISTENT.filter((c) => !ABSTRACT.has(c));
        assert.deepEqual([...new Set(OBJECTS.map((o) => o.cls))].sort(), concrete.sort());
      });

      test("GET each object by its key: every field round-trips", async () => {
        for (const [label, { cls, sent }] of created) {
          const r = await get(label);
          assert.equal(r.status, 200, `${label}: ${r.text}`);
          assert.equal(r.body.class, C(cls));
          assertFields(r.body, sent, label);
        }
      });

      test("the mapped-by side of each relation reads back", async () => {
        for (const [label, field, expected] of INVERSES) {
          const r = await get(label);
          assert.equal(r.status, 200, r.text);
          assertFields(r.body, { [field]: typeof expected === "string" ? ref(expected) : expected.map(ref) }, label);
        }
      });

      test("GET the extent of every class, subclasses included", async () => {
        for (const cls of PERSISTENT) {
          const r = await h.get(`/${C(cls)}`);
          assert.equal(r.status, 200, `${cls}: ${r.text}`);
          const expected = [...created].filter(([, o]) => isA(o.cls, cls)).map(([label, o]) => ({ class: C(o.cls), ...identity(label) }));
          const got = r.body.map((o: any) => pick(o, ["class", datastore ? "_id" : KEY_FIELD[rootOf(cls)]!]));
          assert.deepEqual(sortedJson(got), sortedJson(expected), cls);
        }
      });

      // The classes name no table, column or fetch group: these come from the XML alone.
      test("what only the XML says takes effect: the .orm's tables and columns, package.jdo's fetch group", async () => {
        const rows = async (sql: string) => (await h.sql(sql)).map((row) => [...row]);
        assert.deepEqual(await rows("SELECT FIRSTNAME, SALARY, DISCRIMINATOR FROM persons WHERE PERSONID = 1"), [["emp1First", 20000, C("FullTimeEmployee")]]);
        // A BigDecimal is stored as its sort key and its number (src/json/decimal.ts): the number.
        assert.deepEqual(
          await rows("SELECT CARRIER, substr(LIFETIME_ORTHO_BENEFIT, instr(LIFETIME_ORTHO_BENEFIT, ' ') + 1) FROM insuranceplans WHERE INSID = 2"),
          [["Carrier2", "99.99"]],
        );
        assert.deepEqual(await rows("SELECT count(*) FROM project_member"), [[2]]);
        if (datastore) assert.deepEqual(await rows("SELECT count(DATASTORE_IDENTITY) FROM companies"), [[1]]);
        const plain = await h.get(`/${C("Person")}/${Object.values(identity("person3"))[0]}`);
        assert.equal(plain.status, 200, plain.text);
        assert.ok(!("middlename" in plain.body) && "firstname" in plain.body, `middlename is default-fetch-group="false": ${plain.text}`);
      });

      test("abstract Employee and Insurance refuse a POST without a concrete class", async () => {
        const cases = [
          { cls: "Employee", concrete: "FullTimeEmployee", body: { personid: 90, firstname: "nobody" } },
          { cls: "Insurance", concrete: "MedicalInsurance", body: { insid: 90, carrier: "nobody" } },
        ];
        for (const { cls, concrete, body } of cases) {
          const count = (await h.get(`/${C(cls)}`)).body.length;
          problem(await h.post(`/${C(cls)}`, body), 400, { mentions: "abstract" });
          // Naming the abstract class itself is a body that does not fit: 422, pointing at "class".
          const named = await h.post(`/${C(cls)}`, { ...body, class: C(cls) });
          problem(named, 422);
          assert.ok(
            named.body.errors.some((e: any) => e.path === "/class" && /abstract/.test(e.message)),
            named.text,
          );
          assert.equal((await h.get(`/${C(cls)}`)).body.length, count, "a refused POST stores nothing");
          // The same body naming a concrete class is accepted (and removed again).
          const r = await h.post(`/${C(cls)}`, { ...body, class: C(concrete) });
          assert.equal(r.status, 201, r.text);
          assert.equal(r.body.class, C(concrete));
          assert.equal((await h.del(`/${C(concrete)}/${datastore ? r.body._id : 90}`)).status, 204);
        }
      });
    });
  }

// ---------------------------------------------------------------------------------------------
// The decorators carry what the former object-form overlay did: the same normalized model.

/**
 * The overlay test/fixtures/tck-company.ts used before the decorated classes, kept here only as
 * the reference for this comparison: an independent statement of the same Java declarations.
 */
const OBJECT_FORM_OVERLAY = {
  package: TCK_PACKAGE,
  classes: {
    Person: {
      fields: {
        personid: "long",
        firstname: "String",
        lastname: "String",
        middlename: "String",
        birthdate: "java.util.Date",
        address: "Address",
        phoneNumbers: "java.util.Map<String,String>",
        languages: "java.util.Set<String>",
      },
    },
    Employee: {
      superclass: "Person",
      abstract: true,
      fields: {
        hiredate: "java.util.Date",
        weeklyhours: "double",
        dentalInsurance: "DentalInsurance",
        medicalInsurance: "MedicalInsurance",
        department: "Department",
        fundingDept: "Department",
        manager: "Employee",
        mentor: "Employee",
        protege: "Employee",
        hradvisor: "Employee",
        reviewedProjects: "java.util.Set<Project>",
        projects: "java.util.Set<Project>",
        team: "java.util.Set<Employee>",
        hradvisees: "java.util.Set<Employee>",
      },
    },
    FullTimeEmployee: { superclass: "Employee", fields: { salary: "double" } },
    PartTimeEmployee: { superclass: "Employee", fields: { wage: "double" } },
    Company: { fields: { companyid: "long", name: "String", founded: "java.util.Date", address: "Address", departments: "java.util.Set<Department>" } },
    Department: {
      fields: {
        deptid: "long",
        name: "String",
        company: "Company",
        employeeOfTheMonth: "Employee",
        employees: "java.util.Set<Employee>",
        fundedEmps: "java.util.Set<Employee>",
        meetingRooms: "java.util.List<MeetingRoom>",
      },
    },
    Project: {
      fields: { projid: "long", name: "String", budget: "java.math.BigDecimal", reviewers: "java.util.Set<Employee>", members: "java.util.Set<Employee>" },
    },
    Insurance: { abstract: true, fields: { insid: "long", carrier: "String", employee: "Employee" } },
    MedicalInsurance: { superclass: "Insurance", fields: { planType: "String" } },
    DentalInsurance: { superclass: "Insurance", fields: { lifetimeOrthoBenefit: "java.math.BigDecimal" } },
    Address: { embeddedOnly: true, fields: { addrid: "long", street: "String", city: "String", state: "String", zipcode: "String", country: "String" } },
    MeetingRoom: { fields: { roomid: "long", name: "String" } },
  },
};

for (const form of FORMS) {
  test(`${form}: the TCK's Java sources + XML give the model the object-form overlay + XML gave`, async () => {
    const java = loadModel(await tckCompanyJavaModel(form));
    const overlay = loadModel({ models: [OBJECT_FORM_OVERLAY], metadata: tckCompanyXml(form) });
    assert.deepEqual([...java.classes.keys()].sort(), [...overlay.classes.keys()].sort());
    // The sources are read file by file: subclasses come in file order, not the overlay's.
    const bySubclassName = (m: unknown) => JSON.parse(JSON.stringify(canonical(m)), (k, v) => (k === "subclasses" && Array.isArray(v) ? [...v].sort() : v));
    assert.deepEqual(bySubclassName(java), bySubclassName(overlay));
  });

  test(`${form}: decorated classes + XML give the model the object-form overlay + XML gave`, () => {
    const decorated = loadModel({ classes: tckCompanyClasses, metadata: tckCompanyXml(form) });
    const overlay = loadModel({ models: [OBJECT_FORM_OVERLAY], metadata: tckCompanyXml(form) });
    assert.deepEqual([...decorated.classes.keys()], [...overlay.classes.keys()]);
    assert.deepEqual(canonical(decorated), canonical(overlay));
  });
}
