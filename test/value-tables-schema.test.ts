/**
 * A schema a Java application made (Hibernate's tables for `@ElementCollection` with
 * `@CollectionTable`, written by hand here) mapped by JPA's orm.xml: the rows it holds read as
 * the objects' collections, and writes keep to its tables and columns. The migration adds only
 * its index on the owner column.
 */
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { startHarness, type Harness } from "./support/harness.ts";

const ORM = `<?xml version="1.0" encoding="UTF-8"?>
<entity-mappings xmlns="https://jakarta.ee/xml/ns/persistence/orm" version="3.1">
  <package>shop</package>
  <entity class="Product">
    <table name="PRODUCT"/>
    <attributes>
      <id name="id" attribute-type="long"><column name="ID"/></id>
      <basic name="title" attribute-type="String"><column name="TITLE"/></basic>
      <element-collection name="tags" target-class="String" fetch="EAGER">
        <column name="TAG"/>
        <collection-table name="PRODUCT_TAGS"><join-column name="PRODUCT_ID"/></collection-table>
      </element-collection>
      <element-collection name="sizes" target-class="Integer" attribute-type="java.util.List" fetch="EAGER">
        <order-column name="SIZES_ORDER"/>
        <column name="SIZE_VALUE"/>
        <collection-table name="PRODUCT_SIZES"><join-column name="PRODUCT_ID"/></collection-table>
      </element-collection>
    </attributes>
  </entity>
</entity-mappings>`;

const SCHEMA = `
CREATE TABLE PRODUCT (ID BIGINT NOT NULL PRIMARY KEY, TITLE VARCHAR(255));
CREATE TABLE PRODUCT_TAGS (PRODUCT_ID BIGINT NOT NULL REFERENCES PRODUCT (ID), TAG VARCHAR(255));
CREATE TABLE PRODUCT_SIZES (PRODUCT_ID BIGINT NOT NULL REFERENCES PRODUCT (ID), SIZE_VALUE INTEGER,
  SIZES_ORDER INTEGER NOT NULL, PRIMARY KEY (PRODUCT_ID, SIZES_ORDER));
INSERT INTO PRODUCT VALUES (1, 'shirt'), (2, 'sock');
INSERT INTO PRODUCT_TAGS VALUES (1, 'cotton'), (1, 'blue'), (2, 'wool');
INSERT INTO PRODUCT_SIZES VALUES (1, 42, 1), (1, 38, 0), (2, 40, 0);
`;

let dir: string;
let url: string;
let h: Harness;
const tables = async () => (await h.sql("SELECT name, sql FROM sqlite_schema WHERE name LIKE 'PRODUCT%' ORDER BY name")).map((r) => String(r[1]));
let before_: string[];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "extent-vt-schema-"));
  url = `file:${join(dir, "java.db")}`;
  const client = createClient({ url });
  await client.executeMultiple(SCHEMA);
  client.close();
  h = await startHarness({ url, metadata: [{ source: "orm.xml", text: ORM }] });
  before_ = await tables();
});
after(() => {
  h?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the existing rows read as the collections, lists in their order column's order", async () => {
  const r = await h.get("/shop.Product");
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, [
    { class: "shop.Product", id: 1, title: "shirt", tags: ["blue", "cotton"], sizes: [38, 42] },
    { class: "shop.Product", id: 2, title: "sock", tags: ["wool"], sizes: [40] },
  ]);
  assert.deepEqual((await h.get("/shop.Product/1?maxFetchDepth=-1")).body, r.body[0]);
  const q = await h.get(`/jpql?query=${encodeURIComponent("SELECT p.title FROM Product p WHERE 'wool' MEMBER OF p.tags")}`);
  assert.deepEqual(q.body, ["sock"]);
});

test("the migration leaves the tables as the application made them, adding an index on the owner", async () => {
  assert.equal(before_.length, 3);
  assert.ok(!before_.some((t) => /\btags\b|\bsizes\b/.test(t)), before_.join("\n"));
  assert.ok(before_[0]!.startsWith("CREATE TABLE PRODUCT ("), before_[0]);
  assert.deepEqual(await h.sql("SELECT name FROM pragma_index_info((SELECT name FROM pragma_index_list('PRODUCT_TAGS') WHERE origin = 'c'))"), [
    ["PRODUCT_ID"],
  ]);
});

test("writes keep to the application's tables and columns", async () => {
  const created = await h.post("/shop.Product", { id: 3, title: "hat", tags: ["felt"], sizes: [7, 8] });
  assert.equal(created.status, 201, created.text);
  const put = await h.put("/shop.Product/1", { sizes: [44] });
  assert.equal(put.status, 200, put.text);
  assert.deepEqual(await h.sql("SELECT PRODUCT_ID, SIZE_VALUE, SIZES_ORDER FROM PRODUCT_SIZES ORDER BY PRODUCT_ID, SIZES_ORDER"), [
    [1, 44, 0],
    [2, 40, 0],
    [3, 7, 0],
    [3, 8, 1],
  ]);
  assert.equal((await h.del("/shop.Product/3")).status, 204);
  assert.deepEqual(await h.sql("SELECT count(*) FROM PRODUCT_TAGS WHERE PRODUCT_ID = 3 UNION ALL SELECT count(*) FROM PRODUCT_SIZES WHERE PRODUCT_ID = 3"), [
    [0],
    [0],
  ]);
  assert.deepEqual((await h.get("/shop.Product/1")).body.tags, ["blue", "cotton"]);
});
