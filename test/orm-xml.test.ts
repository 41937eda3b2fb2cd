/**
 * The JPA orm.xml reader and translator: each element and attribute the contract lists (section
 * 3) becomes the declarations it should, the contract's conventions fill in what XML cannot say,
 * and a broken document gives problems naming file, line, class and field, which stop the server
 * (createRestHandler and `extent serve`) before it starts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRestHandler } from "../src/handler.ts";
import { modelDiagram } from "../src/describe/model-diagram.ts";
import type { ClassDecl, FieldDecl } from "../src/metadata/declarations.ts";
import { readOrmXml } from "../src/metadata/jpa/orm-xml.ts";
import { translateJpa } from "../src/metadata/jpa/translate.ts";
import { loadModel } from "../src/config/load-model.ts";
import type { ClassMeta, Model } from "../src/metadata/model.ts";
import { formatProblem, ModelError } from "../src/metadata/problems.ts";

const FILE = "orm.xml";

/** An orm.xml document: the body starts on line 4. */
function doc(body: string, pkg = "p"): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<entity-mappings xmlns="https://jakarta.ee/xml/ns/persistence/orm" version="3.1">\n  <package>${pkg}</package>\n${body}\n</entity-mappings>`;
}

const at = (line: number) => ({ file: FILE, line });

/** The declarations a document translates into; the document must have no problems. */
function declsOf(body: string): ClassDecl[] {
  const read = readOrmXml(doc(body), FILE);
  assert.deepEqual(read.problems, [], "reader problems");
  const translated = translateJpa(read.classes);
  assert.deepEqual(translated.problems, [], "translation problems");
  return translated.classes;
}

function decl(classes: ClassDecl[], name: string): ClassDecl {
  const found = classes.find((c) => c.name === name);
  assert.ok(found, `no declaration of ${name}`);
  return found;
}

function fieldDecl(c: ClassDecl, name: string): FieldDecl {
  const found = c.fields.find((f) => f.name === name);
  assert.ok(found, `no field ${name} in ${c.name}`);
  return found;
}

function modelOf(body: string): Model {
  return loadModel({ metadata: [{ source: FILE, text: doc(body) }] });
}

function meta(model: Model, name: string): ClassMeta {
  const found = model.classes.get(name);
  assert.ok(found, `no class ${name} in the model`);
  return found;
}

/** The problems of a refused model, as the server prints them: "file:line, class C, field F: message". */
function problemsOf(text: string, file = FILE): string[] {
  try {
    loadModel({ metadata: [{ source: file, text }] });
  } catch (error) {
    if (error instanceof ModelError) return error.problems.map(formatProblem);
    throw error;
  }
  assert.fail("the model was accepted");
}

// ---------------------------------------------------------------------------------------------
// What each element says
// ---------------------------------------------------------------------------------------------

test("entity, table, id, basic, column, version and transient become one class declaration", () => {
  const [a] = declsOf(`<entity class="A" name="Alpha">
    <table name="T_A"/>
    <attributes>
      <id name="id" attribute-type="long">
        <column name="A_ID"/>
        <generated-value strategy="IDENTITY"/>
      </id>
      <basic name="label" attribute-type="String" optional="false" fetch="LAZY">
        <column name="LBL" nullable="false" length="20" scale="0" column-definition="VARCHAR(20)"/>
      </basic>
      <basic name="count" attribute-type="java.lang.Integer" fetch="EAGER"/>
      <version name="rev" attribute-type="int">
        <column name="REV"/>
      </version>
      <transient name="scratch"/>
    </attributes>
  </entity>`);
  assert.deepEqual(a, {
    name: "p.A",
    source: at(4),
    vocabulary: "jpa",
    entityName: "Alpha",
    table: "T_A",
    version: { strategy: "version-number", column: "REV", fieldName: "rev" },
    fields: [
      { name: "id", source: at(7), typeName: "long", primaryKey: true, valueStrategy: "identity", column: { name: "A_ID" } },
      {
        name: "label",
        source: at(11),
        typeName: "java.lang.String",
        nullValue: "exception",
        defaultFetchGroup: false,
        column: { name: "LBL", sqlType: "VARCHAR(20)", length: 20, scale: 0, allowsNull: false },
      },
      // EAGER is a basic's default: nothing to say.
      { name: "count", source: at(14), typeName: "java.lang.Integer" },
      { name: "rev", source: at(15), typeName: "int", isVersionField: true },
      { name: "scratch", source: at(18), persistenceModifier: "none" },
    ],
  });
});

test("generated-value strategies become JDO value strategies; AUTO chooses by the id's type", () => {
  const cases: [string, string, string | undefined, string][] = [
    ['<generated-value strategy="IDENTITY"/>', "long", "identity", "sequence"],
    ['<generated-value strategy="SEQUENCE" generator="seq"/>', "long", "sequence", "sequence"],
    ['<generated-value strategy="TABLE"/>', "long", "increment", "sequence"],
    ['<generated-value strategy="UUID"/>', "String", "uuid-string", "uuid-string"],
    ['<generated-value strategy="UUID"/>', "java.util.UUID", "uuid-string", "uuid-string"],
    ['<generated-value strategy="AUTO"/>', "int", "native", "sequence"],
    ['<generated-value strategy="AUTO"/>', "String", "uuid-string", "uuid-string"],
    ["<generated-value/>", "java.lang.Long", "native", "sequence"],
    ["<generated-value/>", "java.util.UUID", "uuid-string", "uuid-string"],
    ["", "long", undefined, "none"],
  ];
  for (const [generated, type, strategy, generation] of cases) {
    const body = `<entity class="A"><attributes><id name="id" attribute-type="${type}">${generated}</id></attributes></entity>`;
    assert.equal(fieldDecl(declsOf(body)[0]!, "id").valueStrategy, strategy, `${generated} on ${type}`);
    assert.equal(meta(modelOf(body), "p.A").fields.get("id")!.generation.kind, generation, `${generated} on ${type}`);
  }
});

const RELATIONS = `<entity class="A">
    <attributes>
      <id name="id" attribute-type="long"/>
      <many-to-one name="owner" target-entity="B" optional="false" fetch="LAZY">
        <join-column name="OWNER_ID"/>
      </many-to-one>
      <one-to-many name="kids" target-entity="B" mapped-by="parent"/>
      <one-to-many name="ordered" target-entity="B" attribute-type="java.util.List" fetch="EAGER">
        <order-column/>
        <join-table name="A_ORDERED">
          <join-column name="A_ID"/>
          <inverse-join-column name="B_ID"/>
        </join-table>
        <cascade><cascade-remove/></cascade>
      </one-to-many>
      <one-to-one name="twin" target-entity="B" mapped-by="twin"/>
      <one-to-one name="spare" target-entity="B" orphan-removal="true"/>
      <many-to-many name="tags" target-entity="B" attribute-type="java.util.Collection">
        <join-table name="A_TAGS"/>
      </many-to-many>
      <many-to-many name="fans" target-entity="B" mapped-by="idols"/>
    </attributes>
  </entity>
  <entity class="B">
    <attributes>
      <id name="id" attribute-type="long"/>
      <many-to-one name="parent" target-entity="A"/>
      <one-to-one name="twin" target-entity="A"/>
      <many-to-many name="idols" target-entity="A" attribute-type="java.util.List">
        <order-column name="RANK"/>
      </many-to-many>
    </attributes>
  </entity>`;

test("relationships: target-entity, mapped-by, join-column, join-table, order-column, optional, fetch, cascade", () => {
  const a = decl(declsOf(RELATIONS), "p.A");
  const f = (name: string) => {
    const { source, ...rest } = fieldDecl(a, name);
    return rest;
  };
  // A to-one is eager unless fetch=LAZY (JPA's default), so it is in the default fetch group.
  assert.deepEqual(f("owner"), { name: "owner", typeName: "p.B", nullValue: "exception", defaultFetchGroup: false, column: { name: "OWNER_ID" } });
  assert.deepEqual(f("twin"), { name: "twin", typeName: "p.B", mappedBy: "twin", defaultFetchGroup: true });
  assert.deepEqual(f("spare"), { name: "spare", typeName: "p.B", dependent: true, orphanRemoval: true, defaultFetchGroup: true });
  // Collections: java.util.Set unless attribute-type says; lazy unless fetch=EAGER; order-column
  // without a name is JPA's <attribute>_ORDER.
  assert.deepEqual(f("kids"), { name: "kids", typeName: "java.util.Set", elementType: "p.B", mappedBy: "parent" });
  assert.deepEqual(f("ordered"), {
    name: "ordered",
    typeName: "java.util.List",
    elementType: "p.B",
    // A cascade without orphan-removal: deleted with the owner, not when released.
    dependent: true,
    orphanRemoval: false,
    defaultFetchGroup: true,
    joinTable: "A_ORDERED",
    join: { column: "A_ID" },
    elementColumn: "B_ID",
    orderColumn: "ordered_ORDER",
  });
  assert.deepEqual(f("tags"), { name: "tags", typeName: "java.util.Collection", elementType: "p.B", joinTable: "A_TAGS", join: {}, manyToMany: true });
  assert.deepEqual(f("fans"), { name: "fans", typeName: "java.util.Set", elementType: "p.B", mappedBy: "idols", manyToMany: true });

  // And what the model makes of them.
  const model = meta(modelOf(RELATIONS), "p.A");
  // As JSON: a relation without an inverse carries `inverse: undefined`, which says nothing.
  const relation = (name: string) => JSON.parse(JSON.stringify(model.fields.get(name)!.relation));
  assert.deepEqual(relation("owner"), { kind: "many-to-one", target: "p.B", storage: { kind: "fk-owner" } });
  assert.deepEqual(model.fields.get("owner")!.fkColumns, ["OWNER_ID"]);
  assert.equal(model.fields.get("owner")!.nullable, false);
  assert.deepEqual(relation("kids"), { kind: "one-to-many", target: "p.B", inverse: "parent", storage: { kind: "fk-inverse", targetField: "parent" } });
  assert.deepEqual(relation("ordered")!.storage, {
    kind: "join-table",
    table: "A_ORDERED",
    ownerColumns: ["A_ID"],
    elementColumns: ["B_ID"],
    orderColumn: "ordered_ORDER",
  });
  assert.deepEqual(relation("twin"), { kind: "one-to-one", target: "p.B", inverse: "twin", storage: { kind: "fk-inverse", targetField: "twin" } });
  assert.deepEqual(relation("tags")!.storage, { kind: "join-table", table: "A_TAGS", ownerColumns: ["A_id"], elementColumns: ["tags_id"] });
  assert.deepEqual(relation("fans"), { kind: "many-to-many", target: "p.B", inverse: "idols", storage: { kind: "join-inverse", targetField: "idols" } });
  assert.equal(model.fields.get("ordered")!.dependent, true);
  assert.deepEqual(model.fields.get("tags")!.type, { kind: "collection", collection: "collection", element: { kind: "ref", class: "p.B" } });
  assert.deepEqual(meta(modelOf(RELATIONS), "p.B").fields.get("idols")!.relation!.storage, {
    kind: "join-table",
    table: "B_idols",
    ownerColumns: ["B_id"],
    elementColumns: ["idols_id"],
    orderColumn: "RANK",
  });
});

test("a <many-to-many> without an inverse is a many-to-many relation; a <one-to-many> through a join table stays one-to-many", () => {
  const a = meta(modelOf(RELATIONS), "p.A");
  assert.equal(a.fields.get("tags")!.relation!.kind, "many-to-many");
  assert.equal(a.fields.get("ordered")!.relation!.kind, "one-to-many");
  // The model's picture draws the near end by the kind: a tag may belong to many As.
  const diagram = modelDiagram(modelOf(RELATIONS))
    .split("\n")
    .map((l) => l.trim());
  assert.ok(diagram.includes('A "*" --> "*" B : tags'), diagram.join("\n"));
  assert.ok(diagram.includes('A "0..1" --> "*" B : ordered'), diagram.join("\n"));
});

// A deliberate choice (README, "JPA orm.xml"): names JPA would default differently follow
// Extent's defaults in every form, so one model stores the same tables whatever its form. JPA's
// own defaults (owner_id, A_B; JPA 3.1 §11.1.25, §11.1.27) are a candidate for a later release.
test("names orm.xml leaves out follow Extent's defaults, as in every form: join column owner, join table A_tags", () => {
  const model = modelOf(`<entity class="A"><attributes>
      <id name="id" attribute-type="long"/>
      <many-to-one name="owner" target-entity="B"/>
      <many-to-many name="tags" target-entity="B"/>
    </attributes></entity>
    <entity class="B"><attributes><id name="id" attribute-type="long"/></attributes></entity>`);
  assert.deepEqual(meta(model, "p.A").fields.get("owner")!.fkColumns, ["owner"]);
  assert.equal((meta(model, "p.A").fields.get("tags")!.relation!.storage as { table: string }).table, "A_tags");
});

test("element collections: target-class, attribute-type, collection-table, map-key-class, map-key-column, enums", () => {
  const body = `<entity class="A">
    <attributes>
      <id name="id" attribute-type="long"/>
      <element-collection name="nicknames" target-class="String"/>
      <element-collection name="scores" target-class="java.lang.Integer" attribute-type="java.util.List" fetch="EAGER">
        <order-column name="POS"/>
        <column name="SCORE"/>
        <collection-table name="A_SCORES">
          <join-column name="A_ID"/>
        </collection-table>
      </element-collection>
      <element-collection name="props" attribute-type="java.util.Map" target-class="Integer">
        <map-key-class class="String"/>
        <map-key-column name="K"/>
      </element-collection>
      <element-collection name="codes" target-class="Code">
        <enumerated>ORDINAL</enumerated>
        <extension vendor-name="extent" key="enum-constants" value="X, Y"/>
      </element-collection>
    </attributes>
  </entity>`;
  const a = decl(declsOf(body), "p.A");
  assert.deepEqual(fieldDecl(a, "nicknames"), { name: "nicknames", source: at(7), typeName: "java.util.Set", elementType: "java.lang.String" });
  assert.deepEqual(fieldDecl(a, "scores"), {
    name: "scores",
    source: at(8),
    column: { name: "SCORE" },
    typeName: "java.util.List",
    elementType: "java.lang.Integer",
    defaultFetchGroup: true,
    joinTable: "A_SCORES",
    join: { column: "A_ID" },
    orderColumn: "POS",
  });
  assert.deepEqual(fieldDecl(a, "props"), {
    name: "props",
    source: at(15),
    typeName: "java.util.Map",
    keyType: "java.lang.String",
    valueType: "java.lang.Integer",
    keyColumn: "K",
  });
  assert.deepEqual(fieldDecl(a, "codes"), {
    name: "codes",
    source: at(19),
    column: { jdbcType: "INTEGER" },
    typeName: "java.util.Set",
    elementType: "p.Code",
    enumConstants: ["X", "Y"],
  });

  const m = meta(modelOf(body), "p.A");
  const string = { kind: "basic", basic: "string", primitive: false };
  const integer = { kind: "basic", basic: "int", primitive: false };
  assert.deepEqual(m.fields.get("nicknames")!.type, { kind: "collection", collection: "set", element: string });
  assert.deepEqual(m.fields.get("scores")!.type, { kind: "collection", collection: "list", element: integer });
  // A collection table keeps the values in rows of their own; without one they are a JSON column.
  assert.equal(m.fields.get("scores")!.column, undefined);
  assert.deepEqual(m.fields.get("scores")!.valueTable, { table: "A_SCORES", ownerColumns: ["A_ID"], valueColumn: "SCORE", orderColumn: "POS" });
  assert.equal(m.fields.get("nicknames")!.column, "nicknames");
  assert.equal(m.fields.get("scores")!.defaultFetchGroup, true);
  assert.equal(m.fields.get("nicknames")!.defaultFetchGroup, false, "element collections are lazy by default");
  assert.deepEqual(m.fields.get("props")!.type, { kind: "map", key: string, value: integer });
  assert.deepEqual(m.fields.get("codes")!.type, { kind: "collection", collection: "set", element: { kind: "enum", name: "p.Code", constants: ["X", "Y"] } });
  assert.equal(m.fields.get("codes")!.enumOrdinal, true);
});

test("enums: constants from the extent extension in <basic>, by name unless <enumerated>ORDINAL</enumerated>", () => {
  const body = `<entity class="A">
    <attributes>
      <id name="id" attribute-type="long"/>
      <basic name="byName" attribute-type="Colour">
        <enumerated>STRING</enumerated>
        <extension vendor-name="extent" key="enum-constants" value="RED,GREEN"/>
      </basic>
      <basic name="byDefault" attribute-type="org.other.Colour">
        <extension vendor-name="Extent" key="enum-constants" value="RED,GREEN"/>
      </basic>
      <basic name="byOrdinal" attribute-type="Colour">
        <enumerated>ORDINAL</enumerated>
        <extension vendor-name="extent" key="enum-constants" value="RED,GREEN"/>
      </basic>
    </attributes>
  </entity>`;
  const a = decl(declsOf(body), "p.A");
  assert.deepEqual(fieldDecl(a, "byOrdinal"), {
    name: "byOrdinal",
    source: at(14),
    typeName: "p.Colour",
    enumConstants: ["RED", "GREEN"],
    column: { jdbcType: "INTEGER" },
  });
  const m = meta(modelOf(body), "p.A");
  assert.deepEqual(m.fields.get("byName")!.type, { kind: "enum", name: "p.Colour", constants: ["RED", "GREEN"] });
  assert.deepEqual(m.fields.get("byDefault")!.type, { kind: "enum", name: "org.other.Colour", constants: ["RED", "GREEN"] });
  assert.deepEqual(
    ["byName", "byDefault", "byOrdinal"].map((n) => m.fields.get(n)!.enumOrdinal),
    [false, false, true],
  );
});

const KEYS = `<entity class="Order">
    <attributes>
      <embedded-id name="key" attribute-type="OrderKey">
        <attribute-override name="year">
          <column name="ORDER_YEAR"/>
        </attribute-override>
      </embedded-id>
      <basic name="total" attribute-type="double"/>
      <embedded name="ship" attribute-type="Addr">
        <attribute-override name="city">
          <column name="SHIP_CITY"/>
        </attribute-override>
      </embedded>
      <embedded name="bill" attribute-type="Addr"/>
    </attributes>
  </entity>
  <entity class="Node">
    <id-class class="Node$Key"/>
    <attributes>
      <id name="id" attribute-type="long"/>
      <id name="parent" attribute-type="Node$Key"/>
      <basic name="label" attribute-type="String"/>
    </attributes>
  </entity>
  <embeddable class="OrderKey">
    <attributes>
      <basic name="year" attribute-type="int"/>
      <basic name="seq" attribute-type="long">
        <column name="SEQ_NO"/>
      </basic>
    </attributes>
  </embeddable>
  <embeddable class="Addr">
    <attributes>
      <basic name="street" attribute-type="String"/>
      <basic name="city" attribute-type="String"/>
    </attributes>
  </embeddable>`;

test("embedded ids, id classes and ancestor keys: the key fields and their columns", () => {
  const classes = declsOf(KEYS);
  const order = decl(classes, "p.Order");
  // The embeddable's attributes become the entity's key fields, the embeddable its key class.
  assert.equal(order.objectIdClass, "p.OrderKey");
  assert.deepEqual(order.fields.slice(0, 2), [
    { name: "year", source: at(6), typeName: "int", primaryKey: true, column: { name: "ORDER_YEAR" } },
    { name: "seq", source: at(6), typeName: "long", primaryKey: true, column: { name: "SEQ_NO" } },
  ]);
  assert.equal(decl(classes, "p.OrderKey").embeddedOnly, true);
  assert.equal(decl(classes, "p.Node").objectIdClass, "p.Node$Key");

  const model = modelOf(KEYS);
  assert.deepEqual(meta(model, "p.Order").identity, { kind: "application", fields: ["year", "seq"], keyClass: "p.OrderKey" });
  assert.deepEqual(meta(model, "p.Order").keyColumns, ["ORDER_YEAR", "SEQ_NO"]);
  assert.equal(meta(model, "p.Order").fields.has("key"), false, "the embedded id itself is not a field");
  // A key field whose type is the key class is an ancestor key.
  assert.deepEqual(meta(model, "p.Node").identity, { kind: "application", fields: ["id", "parent"], keyClass: "p.Node$Key" });
  assert.deepEqual(meta(model, "p.Node").fields.get("parent")!.type, { kind: "key", class: "p.Node$Key" });
});

test("embedded and embeddable: one column per embedded attribute, attribute-override renames it", () => {
  const order = decl(declsOf(KEYS), "p.Order");
  assert.deepEqual(fieldDecl(order, "ship"), {
    name: "ship",
    source: at(12),
    typeName: "p.Addr",
    embedded: true,
    embeddedFields: [{ name: "city", source: at(12), column: { name: "SHIP_CITY" } }],
  });
  const model = meta(modelOf(KEYS), "p.Order");
  assert.deepEqual(model.fields.get("ship")!.type, { kind: "embedded", class: "p.Addr" });
  assert.deepEqual(model.fields.get("ship")!.embeddedColumns, { street: "ship_street", city: "SHIP_CITY" });
  assert.deepEqual(model.fields.get("bill")!.embeddedColumns, { street: "bill_street", city: "bill_city" });
});

const HIERARCHIES = `<mapped-superclass class="Base">
    <attributes>
      <id name="id" attribute-type="long">
        <generated-value strategy="TABLE"/>
      </id>
      <basic name="created" attribute-type="java.time.Instant"/>
    </attributes>
  </mapped-superclass>
  <mapped-superclass class="Noted" parent-class="Base">
    <attributes>
      <basic name="note" attribute-type="String"/>
    </attributes>
  </mapped-superclass>
  <entity class="Vehicle" parent-class="Noted">
    <inheritance strategy="JOINED"/>
    <discriminator-value>1</discriminator-value>
    <discriminator-column name="KIND" discriminator-type="INTEGER"/>
    <extension vendor-name="extent" key="abstract" value="true"/>
    <attributes>
      <basic name="wheels" attribute-type="int"/>
    </attributes>
  </entity>
  <entity class="Car" parent-class="Vehicle">
    <discriminator-value>2</discriminator-value>
    <attributes>
      <basic name="seats" attribute-type="int"/>
    </attributes>
  </entity>
  <entity class="Bus" parent-class="Vehicle">
    <inheritance strategy="SINGLE_TABLE"/>
    <discriminator-value>3</discriminator-value>
  </entity>
  <entity class="Animal">
    <inheritance strategy="TABLE_PER_CLASS"/>
    <attributes>
      <id name="id" attribute-type="long"/>
    </attributes>
  </entity>
  <entity class="Dog" parent-class="Animal">
    <attributes>
      <basic name="breed" attribute-type="String"/>
    </attributes>
  </entity>
  <entity class="Shape" name="Form">
    <attributes>
      <id name="id" attribute-type="long"/>
    </attributes>
  </entity>
  <entity class="Circle" name="Round" parent-class="Shape"/>
  <entity class="Square" parent-class="Shape"/>`;

test("inheritance, discriminator-column/-value, parent-class, mapped superclasses and abstract", () => {
  const classes = declsOf(HIERARCHIES);
  assert.deepEqual(
    classes.map((c) => c.name),
    ["p.Vehicle", "p.Car", "p.Bus", "p.Animal", "p.Dog", "p.Shape", "p.Circle", "p.Square"],
    "mapped superclasses are no classes of their own",
  );
  const vehicle = decl(classes, "p.Vehicle");
  assert.equal(vehicle.superclass, undefined, "the nearest entity above is the superclass: none");
  assert.equal(vehicle.abstract, true);
  assert.deepEqual(vehicle.inheritance, {
    forSubclasses: "new-table",
    discriminator: { strategy: "value-map", column: "KIND", jdbcType: "INTEGER", value: "1" },
  });
  assert.deepEqual(
    vehicle.fields.map((f) => f.name),
    ["id", "created", "note", "wheels"],
    "mapped superclasses' attributes first, the farthest first",
  );
  assert.equal(fieldDecl(vehicle, "id").valueStrategy, "increment");
  assert.deepEqual(decl(classes, "p.Car"), {
    name: "p.Car",
    source: at(26),
    vocabulary: "jpa",
    superclass: "p.Vehicle",
    inheritance: { discriminator: { value: "2" } },
    fields: [{ name: "seats", source: at(29), typeName: "int" }],
  });
  // <inheritance> on a subclass entity sets that subclass's own strategy (an Extent extension).
  assert.deepEqual(decl(classes, "p.Bus").inheritance, { strategy: "superclass-table", forSubclasses: "superclass-table", discriminator: { value: "3" } });
  // A TABLE_PER_CLASS root is itself complete-table, as JDO writes it.
  assert.deepEqual(decl(classes, "p.Animal").inheritance, { strategy: "complete-table", forSubclasses: "complete-table" });

  const model = modelOf(HIERARCHIES);
  const m = (n: string) => meta(model, `p.${n}`);
  assert.deepEqual([m("Car").inheritance, m("Car").tables], ["new-table", ["Vehicle", "Car"]]);
  assert.deepEqual([m("Bus").inheritance, m("Bus").tables], ["superclass-table", ["Vehicle"]]);
  assert.deepEqual(m("Vehicle").discriminator, { strategy: "value-map", column: "KIND", values: { "p.Vehicle": "1", "p.Car": "2", "p.Bus": "3" } });
  assert.equal(m("Vehicle").abstract, true);
  assert.equal(m("Car").fields.get("note")!.declaringClass, "p.Vehicle");
  assert.deepEqual([m("Dog").inheritance, m("Dog").tables, m("Dog").fieldTables.get("id")], ["complete-table", ["Dog"], "Dog"]);
  // No <inheritance> at all: JPA's SINGLE_TABLE, DTYPE holding entity names (the name attribute, else the simple name).
  assert.deepEqual([m("Circle").inheritance, m("Circle").tables], ["superclass-table", ["Shape"]]);
  assert.deepEqual(m("Shape").discriminator, {
    strategy: "value-map",
    column: "DTYPE",
    values: { "p.Shape": "Form", "p.Circle": "Round", "p.Square": "Square" },
  });
  assert.deepEqual([m("Circle").entityName, model.bySimpleName.get("Round")], ["Round", "p.Circle"]);
  assert.equal(model.classes.has("p.Base"), false);
});

test("a mapped superclass between two entities lends its attributes; the entity above is the superclass", () => {
  const model = modelOf(`<entity class="Product"><attributes><id name="id" attribute-type="long"/></attributes></entity>
  <mapped-superclass class="Warrantied" parent-class="Product">
    <attributes><basic name="months" attribute-type="int"/></attributes>
  </mapped-superclass>
  <entity class="Gadget" parent-class="Warrantied"/>`);
  assert.equal(meta(model, "p.Gadget").superclass, "p.Product");
  assert.equal(meta(model, "p.Gadget").fields.get("months")!.declaringClass, "p.Gadget");
  assert.deepEqual(meta(model, "p.Gadget").identity, { kind: "application", fields: ["id"], keyClass: undefined });
});

test("datastore identity: <datastore-id strategy column/>, in JPA's or JDO's words", () => {
  const body = `<entity class="A"><datastore-id strategy="SEQUENCE" column="OID"/><attributes><basic name="x" attribute-type="int"/></attributes></entity>
  <entity class="B"><datastore-id strategy="uuid-string"/></entity>
  <entity class="C"><datastore-id/></entity>`;
  const classes = declsOf(body);
  assert.deepEqual([decl(classes, "p.A").identityType, decl(classes, "p.A").datastoreIdentity], ["datastore", { strategy: "sequence", column: "OID" }]);
  assert.deepEqual(decl(classes, "p.B").datastoreIdentity, { strategy: "uuid-string" });
  const model = modelOf(body);
  assert.deepEqual(meta(model, "p.A").identity, { kind: "datastore", generation: { kind: "sequence" }, column: "OID" });
  assert.deepEqual(meta(model, "p.B").identity, { kind: "datastore", generation: { kind: "uuid-string" }, column: "_id" });
  assert.deepEqual(meta(model, "p.C").identity, { kind: "datastore", generation: { kind: "sequence" }, column: "_id" });
});

test("named-entity-graph: a fetch group of its name (the entity's name when unnamed); sub-graph nodes as dotted paths", () => {
  const body = `<entity class="A" name="Alpha">
    <named-entity-graph name="withB">
      <named-attribute-node name="b" subgraph="bs"/>
      <named-attribute-node name="label"/>
      <subgraph name="bs">
        <named-attribute-node name="c"/>
      </subgraph>
    </named-entity-graph>
    <named-entity-graph>
      <named-attribute-node name="label"/>
    </named-entity-graph>
    <attributes>
      <id name="id" attribute-type="long"/>
      <basic name="label" attribute-type="String" fetch="LAZY"/>
      <many-to-one name="b" target-entity="B" fetch="LAZY"/>
    </attributes>
  </entity>
  <entity class="B"><attributes><id name="id" attribute-type="long"/><many-to-one name="c" target-entity="B" fetch="LAZY"/></attributes></entity>`;
  assert.deepEqual(decl(declsOf(body), "p.A").fetchGroups, [
    { name: "withB", source: at(5), fields: ["b", "b.c", "label"] },
    { name: "Alpha", source: at(12), fields: ["label"] },
  ]);
  assert.deepEqual(
    [...meta(modelOf(body), "p.A").fetchGroups],
    [
      ["withB", ["b", "b.c", "label"]],
      ["Alpha", ["label"]],
    ],
  );
});

test("names: unqualified classes and types against <package>, java.lang names, namespace prefixes, CRLF, no package", () => {
  const text = [
    `<?xml version="1.0"?>`,
    `<orm:entity-mappings xmlns:orm="https://jakarta.ee/xml/ns/persistence/orm" version="3.1">`,
    `  <orm:package>com.acme.model</orm:package>`,
    `  <orm:entity class="Person">`,
    `    <orm:attributes>`,
    `      <orm:id name="id" attribute-type="Long"/>`,
    `      <orm:basic name="name" attribute-type="String"/>`,
    `      <orm:many-to-one name="boss" target-entity="Person"/>`,
    `      <orm:many-to-one name="home" target-entity="org.geo.Place"/>`,
    `    </orm:attributes>`,
    `  </orm:entity>`,
    `  <orm:entity class="org.geo.Place"><orm:attributes><orm:id name="id" attribute-type="int"/></orm:attributes></orm:entity>`,
    `</orm:entity-mappings>`,
  ].join("\r\n");
  const read = readOrmXml(text, FILE);
  assert.deepEqual(read.problems, []);
  const [person, place] = translateJpa(read.classes).classes;
  assert.deepEqual([person!.name, person!.source, place!.name], ["com.acme.model.Person", at(4), "org.geo.Place"]);
  assert.deepEqual(
    person!.fields.map((f) => [f.name, f.typeName, f.source.line]),
    [
      ["id", "java.lang.Long", 6],
      ["name", "java.lang.String", 7],
      ["boss", "com.acme.model.Person", 8],
      ["home", "org.geo.Place", 9],
    ],
  );
  const model = loadModel({ metadata: [{ source: FILE, text }] });
  assert.deepEqual(model.classes.get("com.acme.model.Person")!.fields.get("home")!.type, { kind: "ref", class: "org.geo.Place" });

  // Without <package>, names stay as written.
  const bare = readOrmXml(
    `<entity-mappings><entity class="Thing"><attributes><id name="id" attribute-type="Thing"/></attributes></entity></entity-mappings>`,
    FILE,
  );
  assert.deepEqual([bare.classes[0]!.className, bare.classes[0]!.attributes[0]!.type], ["Thing", "Thing"]);
});

test("JPA's defaults where orm.xml is silent: to-one eager, to-many and element collections lazy, Sets", () => {
  const m = meta(modelOf(RELATIONS), "p.B");
  assert.equal(m.fields.get("parent")!.defaultFetchGroup, true);
  assert.equal(m.fields.get("twin")!.defaultFetchGroup, true);
  assert.equal(m.fields.get("idols")!.defaultFetchGroup, false);
  const a = meta(modelOf(RELATIONS), "p.A");
  assert.deepEqual(a.fields.get("kids")!.type, { kind: "collection", collection: "set", element: { kind: "ref", class: "p.B" } });
  assert.equal(a.fields.get("kids")!.defaultFetchGroup, false);
});

// ---------------------------------------------------------------------------------------------
// Problems: file, line, class and field
// ---------------------------------------------------------------------------------------------

const BROKEN = doc(`  <entity>
    <attributes><basic name="x" attribute-type="int"/></attributes>
  </entity>
  <entity class="NoId">
    <attributes>
      <basic name="label" attribute-type="String"/>
    </attributes>
  </entity>
  <entity class="A">
    <inheritance strategy="FOO"/>
    <attributes>
      <id name="id" attribute-type="long">
        <generated-value strategy="SOMEHOW"/>
      </id>
      <basic attribute-type="String"/>
      <basic name="size" attribute-type="int" optional="maybe"/>
      <many-to-one name="b" target-entity="B" fetch="SOMETIMES"/>
      <one-to-many name="bs" target-entity="B">
        <join-column name="A_ID"/>
      </one-to-many>
      <basic name="kind" attribute-type="Kind">
        <enumerated>NAME</enumerated>
        <extension vendor-name="extent" key="enum-constants" value=""/>
      </basic>
      <basic name="size" attribute-type="int"/>
    </attributes>
  </entity>
  <entity class="B">
    <discriminator-column name="T" discriminator-type="BOOLEAN"/>
    <attributes>
      <id name="id" attribute-type="long"/>
      <one-to-one name="a" target-entity="A">
        <join-table name="A_B"/>
      </one-to-one>
      <basic name="n" attribute-type="int">
        <column length="x"/>
      </basic>
    </attributes>
  </entity>
  <entity class="A"><attributes><id name="id" attribute-type="long"/></attributes></entity>
  <mapped-superclass/>
  <embeddable class="E"><attributes><transient/></attributes></embeddable>
  <entity class="G">
    <named-entity-graph name="g"><named-attribute-node/></named-entity-graph>
    <attributes><id name="id" attribute-type="long"/></attributes>
  </entity>`);

test("every problem of a broken orm.xml at once, each naming file, line, class and field", () => {
  assert.deepEqual(problemsOf(BROKEN), [
    "orm.xml:4: <entity> without a class attribute",
    "orm.xml:7, class p.NoId: an entity needs an id: an <id> or <embedded-id> attribute (@Id or @EmbeddedId), here or in a mapped superclass, or <datastore-id> (@DatastoreId)",
    'orm.xml:13, class p.A: <inheritance> strategy="FOO" is not one of SINGLE_TABLE, JOINED, TABLE_PER_CLASS',
    'orm.xml:16, class p.A, field id: <generated-value> strategy="SOMEHOW" is not one of AUTO, IDENTITY, SEQUENCE, TABLE, UUID',
    "orm.xml:18, class p.A: <basic> without a name attribute",
    'orm.xml:19, class p.A, field size: <basic> optional="maybe" must be "true" or "false"',
    'orm.xml:20, class p.A, field b: <many-to-one> fetch="SOMETIMES" is not one of EAGER, LAZY',
    "orm.xml:21, class p.A, field bs: a one-to-many with a join column in the target's table needs mapped-by (a bidirectional relationship) or a join table",
    // The model's own problem with what the reader could read: an enum without constants has no type.
    'orm.xml:24, class p.A, field kind: unknown field type "p.Kind": not a supported Java type, not a persistent class of the model, and not an enum with an "enum-constants" extension',
    "orm.xml:25, class p.A, field kind: <enumerated>NAME</enumerated> is not one of ORDINAL, STRING",
    'orm.xml:26, class p.A, field kind: the "enum-constants" extension lists no constants',
    "orm.xml:28, class p.A, field size: attribute declared twice in this class",
    'orm.xml:32, class p.B: <discriminator-column> discriminator-type="BOOLEAN" is not one of STRING, CHAR, INTEGER',
    "orm.xml:35, class p.B, field a: a one-to-one through a join table is not supported: use a join column",
    'orm.xml:39, class p.B, field n: <column> length="x" must be a non-negative integer',
    "orm.xml:43, class p.A: class declared twice in this document",
    "orm.xml:44: <mapped-superclass> without a class attribute",
    "orm.xml:45, class p.E: <transient> without a name attribute",
    "orm.xml:47, class p.G: <named-attribute-node> without a name attribute",
  ]);
});

test("a nameless <named-attribute-node> names its class", () => {
  const problems = problemsOf(BROKEN);
  assert.ok(problems.includes("orm.xml:47, class p.G: <named-attribute-node> without a name attribute"), problems.at(-1));
});

test("malformed XML: the file and the line of the error", () => {
  assert.deepEqual(problemsOf(`<?xml version="1.0"?>\n<entity-mappings>\n  <entity class="A">\n    <attributes>\n  </entity>\n</entity-mappings>`), [
    "orm.xml:5: malformed XML: Expected closing tag 'attributes' (opened in line 4, col 5) instead of closing tag 'entity'.",
  ]);
  assert.deepEqual(problemsOf(`<entity-mappings>\n  <entity class="A" name="x" name="y"/>\n</entity-mappings>`), [
    "orm.xml:2: malformed XML: Attribute 'name' is repeated.",
  ]);
  const [unclosed] = problemsOf(`<entity-mappings>\n<entity class="A">\n<attributes>`);
  assert.match(unclosed!, /^orm\.xml:\d+: malformed XML: /);
});

test("a second root element is malformed XML", () => {
  const [problem] = problemsOf(
    `<entity-mappings>\n  <entity class="A"><attributes><id name="id" attribute-type="long"/></attributes></entity>\n</entity-mappings>\n<entity-mappings/>`,
  );
  assert.match(problem ?? "", /^orm\.xml:4: malformed XML/);
});

test("a root other than <entity-mappings>", () => {
  assert.deepEqual(readOrmXml(`<?xml version="1.0"?>\n<persistence/>`, FILE).problems, [
    { file: FILE, line: 2, message: "expected an <entity-mappings> root element, found <persistence>" },
  ]);
  // Served, a document that is not orm.xml is read as JDO XML, which names the root it found too.
  assert.deepEqual(problemsOf(`<?xml version="1.0"?>\n<persistence/>`), ["orm.xml:2: expected a <jdo> or <orm> root element, found <persistence>"]);
});

test("embedded ids that cannot work", () => {
  const problems = problemsOf(
    doc(`  <entity class="A"><attributes><embedded-id name="key"/></attributes></entity>
  <entity class="B"><attributes><embedded-id name="key" attribute-type="A"/></attributes></entity>
  <entity class="C"><attributes><embedded-id name="key" attribute-type="CKey"/></attributes></entity>
  <embeddable class="CKey"><attributes><basic name="n" attribute-type="int"/><many-to-one name="a" target-entity="A"/></attributes></embeddable>`),
  );
  assert.deepEqual(problems, [
    "orm.xml:4, class p.A, field key: an embedded id needs its embeddable class (attribute-type, or type in @EmbeddedId)",
    "orm.xml:5, class p.B, field key: the embedded id's class p.A is not an embeddable of the model",
    "orm.xml:6, class p.C, field key: the embedded id class p.CKey may hold basic attributes only; a is many-to-one",
    "orm.xml:7, class p.CKey, field a: an embedded class may hold basic values and enums only; this field is a ref",
  ]);
});

const MODEL_PROBLEMS = doc(`  <entity class="A">
    <attributes>
      <id name="id" attribute-type="long"/>
      <basic name="name" attribute-type="java.lang.Strin"/>
      <many-to-one name="b" target-entity="Nope"/>
      <one-to-many name="bs" target-entity="B" mapped-by="nothing"/>
      <embedded name="e"/>
      <element-collection name="m" attribute-type="java.util.Map" target-class="String"/>
      <version name="v" attribute-type="long"/>
    </attributes>
  </entity>
  <entity class="B" parent-class="Missing"><attributes><basic name="x" attribute-type="int"/></attributes></entity>
  <entity class="C"><attributes><id name="code" attribute-type="String"><generated-value strategy="IDENTITY"/></id></attributes></entity>`);

/** MODEL_PROBLEMS as the server lists them. */
const MODEL_PROBLEM_LINES = [
  'orm.xml:7, class p.A, field name: unknown field type "java.lang.Strin": not a supported Java type, not a persistent class of the model, and not an enum with an "enum-constants" extension',
  'orm.xml:8, class p.A, field b: unknown field type "p.Nope": not a supported Java type, not a persistent class of the model, and not an enum with an "enum-constants" extension',
  'orm.xml:9, class p.A, field bs: mapped-by names "nothing", which is not a persistent field of p.B',
  'orm.xml:10, class p.A, field e: the field has no type: add field-type="..." (JDO) or attribute-type="..." (JPA)',
  "orm.xml:11, class p.A, field m: a map needs its key and value types (<map key-type value-type>)",
  "orm.xml:15, class p.B: superclass p.Missing is not a persistent class of the model",
  'orm.xml:16, class p.C, field code: value-strategy "identity" generates numbers, but the field is string',
];

test("problems the model finds point at the orm.xml attribute that causes them", () => {
  assert.deepEqual(problemsOf(MODEL_PROBLEMS), MODEL_PROBLEM_LINES);
});

test("reader and model problems are reported together, so one start-up lists every problem", () => {
  // MODEL_PROBLEMS plus one problem only the reader sees (a bad fetch value), in a class of its own.
  const both = MODEL_PROBLEMS.replace(
    "</entity-mappings>",
    `  <entity class="D"><attributes><id name="id" attribute-type="long"/><basic name="x" attribute-type="int" fetch="SOMETIMES"/></attributes></entity>\n</entity-mappings>`,
  );
  assert.deepEqual(problemsOf(both), [...MODEL_PROBLEM_LINES, 'orm.xml:17, class p.D, field x: <basic> fetch="SOMETIMES" is not one of EAGER, LAZY']);
});

// ---------------------------------------------------------------------------------------------
// The server refuses to start
// ---------------------------------------------------------------------------------------------

test("createRestHandler refuses a broken orm.xml with a ModelError listing every problem", () => {
  assert.throws(
    () => createRestHandler({ context: { name: "bad", url: ":memory:", metadata: [{ source: FILE, text: BROKEN }] } }),
    (error: unknown) => {
      assert.ok(error instanceof ModelError, String(error));
      assert.equal(error.problems.length, 19);
      assert.match(error.message, /^The model has 19 problems:\n/);
      assert.match(error.message, /\n {2}orm\.xml:20, class p\.A, field b: <many-to-one> fetch="SOMETIMES" is not one of EAGER, LAZY\n/);
      return true;
    },
  );
});

const BIN = new URL("../bin/extent.js", import.meta.url).pathname;

test("extent serve refuses a broken orm.xml: exit code 1, one line per problem", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-orm-"));
  writeFileSync(
    join(dir, "persistence.xml"),
    `<persistence><persistence-unit name="bad"><mapping-file>META-INF/orm.xml</mapping-file>
      <properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/></properties></persistence-unit></persistence>`,
  );
  mkdirSync(join(dir, "META-INF"));
  writeFileSync(join(dir, "META-INF/orm.xml"), MODEL_PROBLEMS);
  const child = spawn(process.execPath, [BIN, "serve", "--config", dir, "--persistence-context", "bad", "--port", "0"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  child.stderr.on("data", (d: Buffer) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
  assert.equal(code, 1, out);
  const lines = out.trim().split("\n");
  assert.equal(lines[0], "extent serve: The model has 7 problems:");
  assert.equal(lines.length, 8, out);
  for (const line of lines.slice(1)) assert.match(line, /^ {2}META-INF\/orm\.xml:\d+, class p\.[A-C]\b/, "file, line and class on every line");
  assert.match(out, /\n {2}META-INF\/orm\.xml:7, class p\.A, field name: unknown field type "java\.lang\.Strin"/);
  assert.match(out, /\n {2}META-INF\/orm\.xml:15, class p\.B: superclass p\.Missing is not a persistent class of the model/);
  assert.doesNotMatch(out, /Extent serves/);
});
