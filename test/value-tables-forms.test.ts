/**
 * A collection of values kept in a table of its own, in every metadata form: JDO XML, orm.xml,
 * JDO and JPA decorators, and Java sources with JDO or JPA annotations all give the same table,
 * owner column, value column and order column; without `<join>`/`@CollectionTable` the
 * collection stays a JSON column.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as jdo from "../src/jdo.ts";
import * as jpa from "../src/jpa.ts";
import { loadModel } from "../src/config/load-model.ts";
import { readJavaSources } from "../src/metadata/java/read.ts";
import type { Model } from "../src/metadata/model.ts";
import { ModelError } from "../src/metadata/problems.ts";
import { javaParser } from "../src/runtime/java-sources.ts";

const TAGS = { table: "ITEM_TAGS", ownerColumns: ["ITEM_ID"], valueColumn: "TAG" };
const SIZES = { table: "ITEM_SIZES", ownerColumns: ["ITEM_ID"], valueColumn: "SIZE", orderColumn: "POS" };

function expectTables(model: Model, cls: string): void {
  const meta = model.classes.get(cls)!;
  assert.ok(meta, `${cls} in ${[...model.classes.keys()].join()}`);
  assert.deepEqual(meta.fields.get("tags")!.valueTable, TAGS);
  assert.deepEqual(meta.fields.get("sizes")!.valueTable, SIZES);
  assert.equal(meta.fields.get("plain")!.valueTable, undefined);
  assert.equal(meta.fields.get("plain")!.column, "plain");
}

test("JDO XML", () => {
  const xml = `<jdo><package name="x"><class name="Item" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="tags" field-type="java.util.Set" table="ITEM_TAGS"><collection element-type="java.lang.String"/><join column="ITEM_ID"/><element column="TAG"/></field>
    <field name="sizes" field-type="java.util.List" table="ITEM_SIZES"><collection element-type="int"/><join column="ITEM_ID"/><element column="SIZE"/><order column="POS"/></field>
    <field name="plain" field-type="java.util.Set"><collection element-type="java.lang.String"/></field>
  </class></package></jdo>`;
  expectTables(loadModel({ metadata: [{ source: "x.jdo", text: xml }] }), "x.Item");
});

test("orm.xml", () => {
  const xml = `<entity-mappings><package>x</package><entity class="Item"><attributes>
    <id name="id" attribute-type="long"/>
    <element-collection name="tags" target-class="String"><column name="TAG"/><collection-table name="ITEM_TAGS"><join-column name="ITEM_ID"/></collection-table></element-collection>
    <element-collection name="sizes" target-class="int" attribute-type="java.util.List"><order-column name="POS"/><column name="SIZE"/><collection-table name="ITEM_SIZES"><join-column name="ITEM_ID"/></collection-table></element-collection>
    <element-collection name="plain" target-class="String"/>
  </attributes></entity></entity-mappings>`;
  expectTables(loadModel({ metadata: [{ source: "orm.xml", text: xml }] }), "x.Item");
});

test("JDO decorators", () => {
  @jdo.PersistenceCapable({ package: "x" })
  class Item {
    @jdo.PrimaryKey({ type: "long" }) id?: number;
    @jdo.Persistent({ type: "java.util.Set", elementType: String })
    @jdo.Join({ table: "ITEM_TAGS", column: "ITEM_ID" })
    @jdo.Element({ column: "TAG" })
    tags?: string[];
    @jdo.Persistent({ type: "java.util.List", elementType: "int" })
    @jdo.Join({ table: "ITEM_SIZES", column: "ITEM_ID" })
    @jdo.Element({ column: "SIZE" })
    @jdo.Order({ column: "POS" })
    sizes?: number[];
    @jdo.Persistent({ type: "java.util.Set", elementType: String }) plain?: string[];
  }
  expectTables(loadModel({ classes: [Item] }), "x.Item");
});

test("JPA decorators", () => {
  @jpa.Entity({ package: "x" })
  class Item {
    @jpa.Id({ type: "long" }) id?: number;
    @jpa.ElementCollection({ targetClass: String })
    @jpa.CollectionTable({ name: "ITEM_TAGS", joinColumns: [{ name: "ITEM_ID" }] })
    @jpa.Column({ name: "TAG" })
    tags?: string[];
    @jpa.ElementCollection({ targetClass: "int", type: "java.util.List" })
    @jpa.CollectionTable({ name: "ITEM_SIZES", joinColumns: [{ name: "ITEM_ID" }] })
    @jpa.Column({ name: "SIZE" })
    @jpa.OrderColumn({ name: "POS" })
    sizes?: number[];
    @jpa.ElementCollection({ targetClass: String }) plain?: string[];
  }
  expectTables(loadModel({ classes: [Item] }), "x.Item");
});

const parser = await javaParser();
function javaModel(text: string): Model {
  const java = readJavaSources(parser, [{ file: "x/Item.java", text }], {});
  if (java.problems.length) throw new ModelError(java.problems);
  return loadModel({ documents: java.documents, jpaClasses: java.jpaClasses });
}

test("Java sources, JDO annotations", () => {
  expectTables(
    javaModel(`package x;
import java.util.*;
import javax.jdo.annotations.*;
@PersistenceCapable
public class Item {
  @PrimaryKey long id;
  @Join(table = "ITEM_TAGS", column = "ITEM_ID") @Element(column = "TAG") Set<String> tags;
  @Join(table = "ITEM_SIZES", column = "ITEM_ID") @Element(column = "SIZE") @Order(column = "POS") List<Integer> sizes;
  Set<String> plain;
}`),
    "x.Item",
  );
});

test("Java sources, JPA annotations", () => {
  expectTables(
    javaModel(`package x;
import java.util.*;
import jakarta.persistence.*;
@Entity
public class Item {
  @Id long id;
  @ElementCollection @CollectionTable(name = "ITEM_TAGS", joinColumns = @JoinColumn(name = "ITEM_ID")) @Column(name = "TAG") Set<String> tags;
  @ElementCollection @CollectionTable(name = "ITEM_SIZES", joinColumns = @JoinColumn(name = "ITEM_ID")) @Column(name = "SIZE") @OrderColumn(name = "POS") List<Integer> sizes;
  @ElementCollection Set<String> plain;
}`),
    "x.Item",
  );
});

test("a table of values shared with a class or another collection is refused, naming the file, class and field", () => {
  const xml = `<jdo><package name="x">
  <class name="Item" identity-type="application">
    <field name="id" field-type="long" primary-key="true"/>
    <field name="tags" field-type="java.util.Set" table="Label"><collection element-type="java.lang.String"/><join/></field>
    <field name="codes" field-type="java.util.Set" table="ITEM_CODES"><collection element-type="java.lang.String"/><join/></field>
    <field name="more" field-type="java.util.Set" table="item_codes"><collection element-type="java.lang.String"/><join/></field>
  </class>
  <class name="Label" identity-type="application"><field name="id" field-type="long" primary-key="true"/></class>
</package></jdo>`;
  assert.throws(
    () => loadModel({ metadata: [{ source: "x.jdo", text: xml }] }),
    (e: unknown) => {
      assert.ok(e instanceof ModelError);
      const lines = e.message.split("\n").filter((l) => l.includes("also used by"));
      assert.equal(lines.length, 2, e.message);
      assert.match(lines[0]!, /x\.jdo:4.*class x\.Item.*field tags.*table Label of this collection's values is also used by class x\.Label/);
      assert.match(lines[1]!, /x\.jdo:6.*field more.*table item_codes of this collection's values is also used by x\.Item\.codes/);
      return true;
    },
  );
});
