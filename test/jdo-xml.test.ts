import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readJdoXml } from "../src/metadata/jdo-xml.ts";
import { qualifyType } from "../src/metadata/java-types.ts";
import type { ClassDecl, FieldDecl } from "../src/metadata/declarations.ts";

// The JDO TCK company model (Apache License 2.0), copied into test/fixtures with its README.
const TCK = new URL("./fixtures/jdo-tck-company/", import.meta.url);
const PKG = "org.apache.jdo.tck.pc.company";

function readTck(path: string) {
  const text = readFileSync(new URL(path, TCK), "utf8");
  const result = readJdoXml(text, path);
  return { text, ...result };
}

function cls(classes: ClassDecl[], simpleName: string): ClassDecl {
  const c = classes.find((x) => x.name === `${PKG}.${simpleName}`);
  assert.ok(c, `class ${simpleName}`);
  return c;
}

function field(c: ClassDecl, name: string): FieldDecl {
  const f = c.fields.find((x) => x.name === name);
  assert.ok(f, `field ${c.name}.${name}`);
  return f;
}

/** 1-based line of the first line containing `needle`, found independently of the reader. */
function lineOf(text: string, needle: string, from = 0): number {
  const lines = text.split(/\r\n|\n|\r/);
  const i = lines.findIndex((l, n) => n >= from && l.includes(needle));
  assert.ok(i >= 0, needle);
  return i + 1;
}

test("TCK package.jdo (application identity)", () => {
  const { text, document, problems } = readTck("applicationidentity/package.jdo");
  assert.deepEqual(problems, []);
  assert.equal(document.source, "applicationidentity/package.jdo");
  // 12 classes; the <interface> declarations are skipped.
  assert.deepEqual(
    document.classes.map((c) => c.name.slice(PKG.length + 1)),
    [
      "Address",
      "MeetingRoom",
      "Company",
      "DentalInsurance",
      "Department",
      "Employee",
      "FullTimeEmployee",
      "Insurance",
      "MedicalInsurance",
      "PartTimeEmployee",
      "Person",
      "Project",
    ],
  );
  const address = cls(document.classes, "Address");
  assert.equal(address.embeddedOnly, true);
  assert.equal(address.requiresExtent, false);

  const person = cls(document.classes, "Person");
  assert.equal(person.identityType, "application");
  assert.equal(person.objectIdClass, `${PKG}.Person$Oid`);
  assert.deepEqual(
    person.fields.map((f) => f.name),
    ["personid", "middlename", "address", "phoneNumbers", "languages"],
  );
  assert.equal(field(person, "personid").primaryKey, true);
  assert.equal(field(person, "middlename").defaultFetchGroup, false);
  assert.equal(field(person, "address").typeName, `${PKG}.Address`);
  assert.equal(field(person, "address").persistenceModifier, "persistent");
  const phones = field(person, "phoneNumbers");
  assert.equal(phones.keyType, "java.lang.String");
  assert.equal(phones.valueType, "java.lang.String");
  const languages = field(person, "languages");
  // A <collection> without field-type leaves the kind to the code (the model defaults to Collection).
  assert.equal(languages.collectionKind, undefined);
  assert.equal(languages.elementType, "java.lang.String");

  // Line numbers, checked against the text.
  assert.equal(person.source.line, lineOf(text, '<class name="Person"'));
  assert.equal(person.source.file, "applicationidentity/package.jdo");
  const classLine = lineOf(text, '<class name="Person"');
  assert.equal(field(person, "personid").source.line, lineOf(text, '<field name="personid"', classLine));

  assert.equal(cls(document.classes, "Employee").superclass, `${PKG}.Person`);
  assert.equal(cls(document.classes, "DentalInsurance").superclass, `${PKG}.Insurance`);
  const rooms = field(cls(document.classes, "Department"), "meetingRooms");
  assert.deepEqual(rooms.join, {});
  assert.equal(rooms.elementType, `${PKG}.MeetingRoom`);
  assert.equal(rooms.collectionKind, undefined);
  // <query> elements are ignored, CDATA and all.
  assert.deepEqual(cls(document.classes, "FullTimeEmployee").fields, []);
});

test("TCK package-standard.orm (application identity)", () => {
  const { text, document, problems } = readTck("applicationidentity/package-standard.orm");
  assert.deepEqual(problems, []);
  assert.equal(document.classes.length, 11);

  const person = cls(document.classes, "Person");
  assert.equal(person.table, "persons");
  assert.deepEqual(person.inheritance, { strategy: "new-table", discriminator: { strategy: "class-name", column: "DISCRIMINATOR" } });
  // birthdate is nested inside middlename in this file: read as the next field of the class.
  assert.deepEqual(
    person.fields.map((f) => f.name),
    ["personid", "firstname", "lastname", "middlename", "birthdate", "address", "phoneNumbers", "languages"],
  );
  assert.deepEqual(field(person, "personid").column, { name: "PERSONID" });
  assert.deepEqual(field(person, "middlename").column, { name: "MIDDLENAME", allowsNull: true });
  assert.deepEqual(field(person, "birthdate").column, { name: "BIRTHDATE" });
  assert.equal(field(person, "birthdate").source.line, lineOf(text, '<field name="birthdate"'));

  const address = field(person, "address");
  assert.equal(address.embedded, true);
  assert.equal(address.nullIndicatorColumn, "COUNTRY");
  assert.deepEqual(
    address.embeddedFields?.map((f) => [f.name, f.column]),
    ["addrid", "street", "city", "state", "zipcode", "country"].map((n) => [n, { name: n.toUpperCase(), allowsNull: true }]),
  );
  const phones = field(person, "phoneNumbers");
  assert.equal(phones.joinTable, "employee_phoneno_type");
  assert.deepEqual(phones.join, { column: "EMPID" });
  assert.equal(phones.keyColumn, "TYPE");
  assert.equal(phones.valueColumn, "PHONENO");
  assert.equal(field(person, "languages").elementColumn, "LANGUAGE");

  const rooms = field(cls(document.classes, "Department"), "meetingRooms");
  assert.deepEqual(
    { joinTable: rooms.joinTable, join: rooms.join, elementColumn: rooms.elementColumn, orderColumn: rooms.orderColumn },
    { joinTable: "department_rooms", join: { column: "DEPTID" }, elementColumn: "ROOMID", orderColumn: "ROOM_ORDER" },
  );

  const employee = cls(document.classes, "Employee");
  assert.deepEqual(employee.inheritance, { strategy: "superclass-table" });
  assert.deepEqual(field(employee, "department").column, { name: "DEPARTMENT" });
  assert.equal(field(employee, "protege").mappedBy, "mentor");

  const company = cls(document.classes, "Company");
  assert.deepEqual(field(company, "name").column, { name: "NAME", sqlType: "VARCHAR" });
  assert.deepEqual(
    field(company, "address").embeddedFields?.map((f) => f.column?.name),
    ["ADDRID", "STREET", "CITY", "STATE", "ZIPCODE", "COUNTRY"],
  );
  const project = cls(document.classes, "Project");
  assert.deepEqual(field(project, "budget").column, { name: "BUDGET", jdbcType: "DECIMAL", length: 11, scale: 2 });
  assert.deepEqual(field(project, "reviewers").join, { column: "PROJID" });
  assert.equal(field(project, "reviewers").elementColumn, "REVIEWER");
  assert.deepEqual(cls(document.classes, "Insurance").inheritance?.discriminator, { strategy: "class-name", column: "DISCRIMINATOR" });
  assert.equal(cls(document.classes, "Insurance").source.line, lineOf(text, '<class name="Insurance"'));
});

test("TCK datastore identity files", () => {
  const jdo = readTck("datastoreidentity/package.jdo");
  assert.deepEqual(jdo.problems, []);
  assert.ok(jdo.document.classes.every((c) => c.identityType === "datastore" || c.name.endsWith(".Address")));
  assert.equal(cls(jdo.document.classes, "Person").objectIdClass, undefined);

  const orm = readTck("datastoreidentity/package-standard.orm");
  assert.deepEqual(orm.problems, []);
  assert.deepEqual(cls(orm.document.classes, "Person").datastoreIdentity, { strategy: "identity", column: "DATASTORE_IDENTITY" });
  // <element> holding only a <foreign-key> names no column.
  const reviewed = field(cls(orm.document.classes, "Employee"), "reviewedProjects");
  assert.equal(reviewed.elementColumn, undefined);
  assert.equal(reviewed.mappedBy, "reviewers");
});

// ------------------------------------------------------------------------------------------------
// Hand-written documents
// ------------------------------------------------------------------------------------------------

const EVERYTHING = `<?xml version="1.0" encoding="UTF-8"?>
<jdo xmlns="https://db.apache.org/jdo/xmlns/jdo">
  <package name="org.example">
    <class name="Shape" identity-type="datastore" table="SHAPES" detachable="true" requires-extent="true">
      <extension vendor-name="extent" key="abstract" value="true"/>
      <datastore-identity strategy="increment">
        <column name="SHAPE_ID"/>
      </datastore-identity>
      <inheritance strategy="new-table">
        <discriminator strategy="value-map" value="S">
          <column name="KIND" jdbc-type="CHAR"/>
        </discriminator>
      </inheritance>
      <version strategy="version-number" column="VERS">
        <extension vendor-name="datanucleus" key="field-name" value="revision"/>
      </version>
      <fetch-group name="withOwner">
        <field name="owner"/>
        <field name="owner.name"/>
        <fetch-group name="basics"/>
      </fetch-group>
      <fetch-group name="basics">
        <field name="label"/>
      </fetch-group>
      <field name="label" field-type="String" null-value="exception" default-fetch-group="true">
        <column name="LABEL" jdbc-type="VARCHAR" sql-type="VARCHAR(40)" length="40" allows-null="false" default-value="none"/>
      </field>
      <field name="revision" field-type="long"/>
      <field name="color" field-type="Color" column="COLOR">
        <extension vendor-name="extent" key="enum-constants" value=" RED, GREEN ,BLUE "/>
        <column jdbc-type="INTEGER"/>
      </field>
      <field name="owner" field-type="com.other.Owner" dependent="true" persistence-modifier="persistent"/>
      <field name="cache" persistence-modifier="none" field-type="java.util.Date"/>
      <field name="scratch" persistence-modifier="transactional" field-type="int"/>
      <field name="points" field-type="java.util.List" mapped-by="shape">
        <collection element-type="Point" dependent-element="true"/>
        <order>
          <column name="IDX"/>
        </order>
      </field>
      <field name="tags" field-type="java.util.Set" table="SHAPE_TAGS">
        <collection element-type="java.lang.String"/>
        <join><column name="SHAPE"/></join>
        <element><column name="TAG"/></element>
      </field>
      <field name="data" field-type="byte[]"/>
      <field name="corners" field-type="Point[]">
        <array/>
      </field>
      <field name="weights">
        <array element-type="double"/>
      </field>
      <field name="attributes" field-type="java.util.Map" table="SHAPE_ATTRS">
        <map key-type="String" value-type="Integer"/>
        <join column="SHAPE"/>
        <key><column name="ATTR"/></key>
        <value column="VAL"/>
        <foreign-key name="FK"/>
        <index name="IX"/>
      </field>
      <field name="origin" field-type="Point" embedded="true">
        <embedded null-indicator-column="ORIGIN_X">
          <field name="x" column="ORIGIN_X"/>
          <field name="y"><column name="ORIGIN_Y"/></field>
        </embedded>
      </field>
      <field name="id" primary-key="false" value-strategy="uuid-string"/>
      <query name="q">SELECT FROM org.example.Shape</query>
      <property name="ignored"/>
      <unknown-element/>
    </class>
    <class name="Circle" persistence-capable-superclass="Shape" objectid-class="Circle$Key" embedded-only="false">
      <inheritance strategy="superclass-table">
        <discriminator value="C"/>
        <join column="SHAPE_ID"/>
      </inheritance>
      <field name="radius" field-type="double"/>
    </class>
    <class name="com.other.Owner" objectid-class="com.other.OwnerKey" identity-type="application">
      <version strategy="date-time"><column name="TS"/>
        <extension vendor-name="extent" key="field-name" value="stamp"/>
      </version>
      <inheritance><join><column name="OWNER_ID"/></join></inheritance>
    </class>
    <interface name="Skipped"/>
    <sequence name="seq" datastore-sequence="SEQ"/>
  </package>
  <package name="org.example.more">
    <class name="Point" embedded-only="true">
      <field name="x" field-type="Integer"/>
    </class>
  </package>
</jdo>`;

test("every supported element of a hand-written document", () => {
  const { document, problems } = readJdoXml(EVERYTHING, "model/everything.jdo");
  assert.deepEqual(problems, []);
  assert.deepEqual(
    document.classes.map((c) => c.name),
    ["org.example.Shape", "org.example.Circle", "com.other.Owner", "org.example.more.Point"],
  );
  const src = (line: number) => ({ file: "model/everything.jdo", line });
  const [shape, circle, owner, point] = document.classes as [ClassDecl, ClassDecl, ClassDecl, ClassDecl];

  const { fields, ...shapeClass } = shape;
  assert.deepEqual(shapeClass, {
    name: "org.example.Shape",
    source: src(4),
    identityType: "datastore",
    requiresExtent: true,
    table: "SHAPES",
    abstract: true,
    datastoreIdentity: { strategy: "increment", column: "SHAPE_ID" },
    inheritance: { strategy: "new-table", discriminator: { strategy: "value-map", value: "S", column: "KIND", jdbcType: "CHAR" } },
    version: { strategy: "version-number", column: "VERS", fieldName: "revision" },
    fetchGroups: [
      { name: "withOwner", source: src(17), fields: ["owner", "owner.name"], groups: ["basics"] },
      { name: "basics", source: src(22), fields: ["label"] },
    ],
  });
  assert.deepEqual(fields, [
    {
      name: "label",
      source: src(25),
      typeName: "java.lang.String",
      nullValue: "exception",
      defaultFetchGroup: true,
      column: { name: "LABEL", jdbcType: "VARCHAR", sqlType: "VARCHAR(40)", length: 40, allowsNull: false, defaultValue: "none" },
    },
    { name: "revision", source: src(28), typeName: "long", isVersionField: true },
    { name: "color", source: src(29), typeName: "org.example.Color", column: { name: "COLOR", jdbcType: "INTEGER" }, enumConstants: ["RED", "GREEN", "BLUE"] },
    { name: "owner", source: src(33), typeName: "com.other.Owner", dependent: true, persistenceModifier: "persistent" },
    { name: "cache", source: src(34), persistenceModifier: "none", typeName: "java.util.Date" },
    { name: "scratch", source: src(35), persistenceModifier: "transactional", typeName: "int" },
    {
      name: "points",
      source: src(36),
      typeName: "java.util.List",
      mappedBy: "shape",
      collectionKind: "list",
      elementType: "org.example.Point",
      dependent: true,
      orderColumn: "IDX",
    },
    {
      name: "tags",
      source: src(42),
      typeName: "java.util.Set",
      joinTable: "SHAPE_TAGS",
      collectionKind: "set",
      elementType: "java.lang.String",
      join: { column: "SHAPE" },
      elementColumn: "TAG",
    },
    { name: "data", source: src(47), typeName: "byte[]" },
    { name: "corners", source: src(48), typeName: "org.example.Point[]", collectionKind: "array", elementType: "org.example.Point" },
    { name: "weights", source: src(51), collectionKind: "array", elementType: "double" },
    {
      name: "attributes",
      source: src(54),
      typeName: "java.util.Map",
      joinTable: "SHAPE_ATTRS",
      keyType: "java.lang.String",
      valueType: "java.lang.Integer",
      join: { column: "SHAPE" },
      keyColumn: "ATTR",
      valueColumn: "VAL",
    },
    {
      name: "origin",
      source: src(62),
      typeName: "org.example.Point",
      embedded: true,
      nullIndicatorColumn: "ORIGIN_X",
      embeddedFields: [
        { name: "x", source: src(64), column: { name: "ORIGIN_X" } },
        { name: "y", source: src(65), column: { name: "ORIGIN_Y" } },
      ],
    },
    { name: "id", source: src(68), primaryKey: false, valueStrategy: "uuid-string" },
  ]);

  assert.deepEqual(circle, {
    name: "org.example.Circle",
    source: src(73),
    objectIdClass: "org.example.Circle$Key",
    superclass: "org.example.Shape",
    embeddedOnly: false,
    inheritance: { strategy: "superclass-table", discriminator: { value: "C" }, joinColumn: "SHAPE_ID" },
    fields: [{ name: "radius", source: src(78), typeName: "double" }],
  });
  assert.deepEqual(owner, {
    name: "com.other.Owner",
    source: src(80),
    identityType: "application",
    objectIdClass: "com.other.OwnerKey",
    version: { strategy: "date-time", column: "TS", fieldName: "stamp" },
    inheritance: { joinColumn: "OWNER_ID" },
    fields: [],
  });
  assert.deepEqual(point, {
    name: "org.example.more.Point",
    source: src(90),
    embeddedOnly: true,
    fields: [{ name: "x", source: src(91), typeName: "java.lang.Integer" }],
  });
});

test("an .orm document, namespace prefixes and CRLF line ends", () => {
  const text = [
    `<?xml version="1.0"?>`,
    `<o:orm xmlns:o="https://db.apache.org/jdo/xmlns/orm">`,
    `  <o:package name="p">`,
    `    <o:class name="A" table="T_A">`,
    `      <o:field name="f" column="F"/>`,
    `    </o:class>`,
    `  </o:package>`,
    `</o:orm>`,
  ].join("\r\n");
  const { document, problems } = readJdoXml(text, "a.orm");
  assert.deepEqual(problems, []);
  assert.deepEqual(document, {
    source: "a.orm",
    classes: [
      { name: "p.A", source: { file: "a.orm", line: 4 }, table: "T_A", fields: [{ name: "f", source: { file: "a.orm", line: 5 }, column: { name: "F" } }] },
    ],
  });
});

test("a DOCTYPE (JDO 2 style) is accepted", () => {
  const text = `<?xml version="1.0"?>
<!DOCTYPE jdo PUBLIC "-//Sun Microsystems, Inc.//DTD Java Data Objects Metadata 2.0//EN" "http://java.sun.com/dtd/jdo_2_0.dtd">
<jdo><package name="p"><class name="A"/></package></jdo>`;
  const { document, problems } = readJdoXml(text, "a.jdo");
  assert.deepEqual(problems, []);
  assert.deepEqual(document.classes, [{ name: "p.A", source: { file: "a.jdo", line: 3 }, fields: [] }]);
});

test("type names are qualified as JDO resolves them", () => {
  assert.equal(qualifyType("int", "p"), "int");
  assert.equal(qualifyType("String", "p"), "java.lang.String");
  assert.equal(qualifyType("java.lang.String", "p"), "java.lang.String");
  assert.equal(qualifyType("java.util.Date", "p"), "java.util.Date");
  assert.equal(qualifyType("byte[]", "p"), "byte[]");
  assert.equal(qualifyType("Byte[]", "p"), "java.lang.Byte[]");
  assert.equal(qualifyType("Thing", "p"), "p.Thing");
  assert.equal(qualifyType("Thing", ""), "Thing");
  assert.equal(qualifyType("Outer$Inner", "p"), "p.Outer$Inner");
  assert.equal(qualifyType("java.util.Map<String, Thing>", "p"), "java.util.Map<java.lang.String,p.Thing>");
});

// ------------------------------------------------------------------------------------------------
// Problems
// ------------------------------------------------------------------------------------------------

const BAD = `<jdo>
  <package name="p">
    <class name="A" identity-type="durable" embedded-only="yes">
      <inheritance strategy="joined">
        <discriminator strategy="guess"/>
      </inheritance>
      <fetch-group>
        <field name="x"/>
      </fetch-group>
      <fetch-group name="g">
        <field/>
      </fetch-group>
      <field column="NONAME"/>
      <field name="a" persistence-modifier="sometimes" primary-key="1" null-value="zero">
        <column name="A" length="ten" scale="-1" allows-null="maybe"/>
        <extension vendor-name="extent" key="enum-constants" value=" , "/>
      </field>
      <field name="a"/>
      <field name="e">
        <embedded><field column="X"/></embedded>
      </field>
      <extension vendor-name="extent" key="abstract" value="yes"/>
    </class>
    <class identity-type="application"/>
    <class name="A"/>
  </package>
  <package>
    <class name="B"/>
  </package>
</jdo>`;

test("every problem, with file, line, class and field", () => {
  const { document, problems } = readJdoXml(BAD, "bad.jdo");
  const p = (line: number, message: string, cls?: string, field?: string) => ({
    file: "bad.jdo",
    line,
    ...(cls ? { class: cls } : {}),
    ...(field ? { field } : {}),
    message,
  });
  assert.deepEqual(problems, [
    p(3, '<class> identity-type="durable" is not one of application, datastore, nondurable', "p.A"),
    p(3, '<class> embedded-only="yes" must be "true" or "false"', "p.A"),
    p(4, '<inheritance> strategy="joined" is not one of new-table, superclass-table, subclass-table, complete-table', "p.A"),
    p(5, '<discriminator> strategy="guess" is not one of class-name, value-map, none', "p.A"),
    p(7, "<fetch-group> without a name attribute", "p.A"),
    p(11, '<field> without a name attribute in fetch group "g"', "p.A"),
    p(13, "<field> without a name attribute", "p.A"),
    p(14, '<field> persistence-modifier="sometimes" is not one of persistent, transactional, none', "p.A", "a"),
    p(14, '<field> primary-key="1" must be "true" or "false"', "p.A", "a"),
    p(14, '<field> null-value="zero" is not one of none, exception, default', "p.A", "a"),
    p(15, '<column> length="ten" must be a non-negative integer', "p.A", "a"),
    p(15, '<column> scale="-1" must be a non-negative integer', "p.A", "a"),
    p(15, '<column> allows-null="maybe" must be "true" or "false"', "p.A", "a"),
    p(16, 'the "enum-constants" extension lists no constants', "p.A", "a"),
    p(20, "<field> without a name attribute", "p.A"),
    p(22, '<extension> value="yes" must be "true" or "false"', "p.A"),
    p(18, "field declared twice in this class", "p.A", "a"),
    p(24, "<class> without a name attribute"),
    p(25, "class declared twice in this document", "p.A"),
    p(27, "<package> without a name attribute"),
  ]);
  // What could be read still is.
  assert.deepEqual(
    document.classes.map((c) => c.name),
    ["p.A", "p.A", "B"],
  );
});

test("malformed XML is one problem with its line", () => {
  const { document, problems } = readJdoXml(`<jdo>\n  <package name="p">\n    <class name="A">\n  </package>\n</jdo>`, "broken.jdo");
  assert.deepEqual(document, { source: "broken.jdo", classes: [] });
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.file, "broken.jdo");
  assert.equal(problems[0]!.line, 4);
  assert.match(problems[0]!.message, /^malformed XML: .*'class'/);
});

test("an empty document and a wrong root element are problems", () => {
  assert.deepEqual(
    readJdoXml("", "empty.jdo").problems.map((p) => [p.file, p.line, /^malformed XML/.test(p.message)]),
    [["empty.jdo", 1, true]],
  );
  assert.deepEqual(readJdoXml(`<?xml version="1.0"?>\n<entity-mappings/>`, "orm.xml").problems, [
    { file: "orm.xml", line: 2, message: "expected a <jdo> or <orm> root element, found <entity-mappings>" },
  ]);
});
