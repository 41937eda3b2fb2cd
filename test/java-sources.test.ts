/**
 * The Java source reader (src/metadata/java/): hand-written Java in both vocabularies, every
 * construct the issue names, read into the model through the same declarations as the other
 * forms; and its failure modes, each a start-up problem naming file, line and column.
 *
 * Run: node --import tsx --test test/java-sources.test.ts
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModel } from "../src/config/load-model.ts";
import type { MetadataText } from "../src/config/context.ts";
import { type JavaReadOptions, readJavaSources } from "../src/metadata/java/read.ts";
import type { Model } from "../src/metadata/model.ts";
import { ModelError, formatProblem } from "../src/metadata/problems.ts";
import { javaParser } from "../src/runtime/java-sources.ts";

const parser = await javaParser();

/** Sources as `path → text`; the model they give with the XML on top. */
function read(files: Record<string, string>, options: JavaReadOptions = {}) {
  return readJavaSources(
    parser,
    Object.entries(files).map(([file, text]) => ({ file, text })),
    options,
  );
}
function model(files: Record<string, string>, metadata: MetadataText[] = [], options: JavaReadOptions = {}): Model {
  const java = read(files, { ...options, metadata });
  if (java.problems.length) throw new ModelError(java.problems);
  return loadModel({ documents: java.documents, jpaClasses: java.jpaClasses, metadata });
}
function problems(files: Record<string, string>, metadata: MetadataText[] = []): string[] {
  const java = read(files, { metadata });
  // In document order, as start-up prints them.
  if (java.problems.length) return new ModelError(java.problems).problems.map(formatProblem);
  try {
    loadModel({ documents: java.documents, metadata });
  } catch (e) {
    if (e instanceof ModelError) return e.problems.map(formatProblem);
    throw e;
  }
  return [];
}
const typeOf = (m: Model, cls: string, field: string) => m.classes.get(cls)?.fields.get(field)?.type;

const LIBRARY = {
  "src/org/lib/Names.java": `package org.lib;
public final class Names { public static final String PREFIX = "LIB_"; private Names() {} }`,
  "src/org/lib/Audited.java": `package org.lib;
import javax.jdo.annotations.PersistenceCapable;
import java.lang.annotation.*;
/** A meta-annotation: classes carrying it are persistent. */
@PersistenceCapable @Retention(RetentionPolicy.RUNTIME) @Target(ElementType.TYPE)
public @interface Audited {}`,
  "src/org/lib/Genre.java": `package org.lib;
public enum Genre { FICTION, SCIENCE("sci") { }, HISTORY; private final String code; Genre() { this(null); } Genre(String c) { code = c; } }`,
};

const JDO = {
  ...LIBRARY,
  "src/org/shop/Item.java": `package org.shop;

import javax.jdo.annotations.*;
import java.util.*;
import java.math.BigDecimal;
import org.lib.Genre;
import org.lib.Names;
import org.apache.commons.logging.Log; // not in the tree: only used by a field the model does not need
import static org.lib.Names.PREFIX;

@PersistenceCapable(identityType = IdentityType.APPLICATION, table = PREFIX + "ITEM", objectIdClass = Item.Key.class)
@Inheritance(strategy = InheritanceStrategy.NEW_TABLE)
@Discriminator(strategy = DiscriminatorStrategy.VALUE_MAP, column = "KIND", value = "ITEM")
@Version(strategy = VersionStrategy.VERSION_NUMBER, column = "VERSION")
@FetchGroup(name = "withTags", members = {@Persistent(name = "tags")})
public abstract class Item implements Comparable<Item> {
  private static final String TITLE = "TITLE";
  private static final long serialVersionUID = 1L;
  private static Log log;

  @PrimaryKey private long id;
  @PrimaryKey private String code;
  @Persistent @Column(name = TITLE, length = 200, allowsNull = "false") private String title;
  @Persistent(columns = {@Column(name = Names.PREFIX + "PRICE")}) private BigDecimal price;
  private Set<String> tags = new HashSet<>();
  private Map<String, java.lang.Double> ratings;
  private Genre genre;
  private List<Genre> genres;
  private byte[] cover;
  private java.time.LocalDate published;
  private UUID ref;
  private Integer[] counts;
  private transient Log logger;
  private transient int cached;
  @Persistent private transient String kept;
  @NotPersistent private String scratch;
  @NotPersistent private org.shop.util.Helper helper; // a class of the tree that is not persistent: fine here
  private transient Unknown unknown; // never persistent: its type is never looked for

  public int compareTo(Item other) { return Long.compare(id, other.id); }

  /** The key class, nested and static. */
  public static class Key implements java.io.Serializable {
    public long id;
    public String code;
    public Key() {}
  }
}`,
  "src/org/shop/Book.java": `package org.shop;
import javax.jdo.annotations.*;
@PersistenceCapable
@Discriminator(value = "BOOK")
public class Book extends Item {
  private int pages;
  @Persistent(types = {Author.class}) private Named author;
  @Persistent(table = "BOOK_SHELF") @Join(column = "BOOK_ID") @Element(column = "SHELF_ID") @Order(column = "POS")
  private java.util.List<Shelf> shelves;
}`,
  "src/org/shop/Named.java": `package org.shop; public interface Named { String getName(); }`,
  "src/org/shop/Author.java": `package org.shop;
import org.lib.Audited;
@Audited
public class Author implements Named {
  private String name;
  @javax.jdo.annotations.Persistent(mappedBy = "author") private java.util.Set<Book> books;
  @javax.jdo.annotations.Embedded(members = {@javax.jdo.annotations.Persistent(name = "city", column = "CITY")})
  private Address address;
  public String getName() { return name; }
}`,
  "src/org/shop/Address.java": `package org.shop;
@javax.jdo.annotations.EmbeddedOnly
public class Address { String street; String city; }`,
  "src/org/shop/Shelf.java": `package org.shop;
import javax.jdo.annotations.*;
@PersistenceCapable
@DatastoreIdentity(strategy = IdGeneratorStrategy.INCREMENT, column = "SHELF_ID")
public class Shelf { String label; }`,
  "src/org/shop/util/Helper.java": `package org.shop.util;
import org.junit.Test; // a test utility outside the tree: never needed
public class Helper { @Test public void works() {} }`,
};

test("JDO annotations: every construct of the issue reads into the model", () => {
  const m = model(JDO);
  assert.deepEqual([...m.classes.keys()].sort(), ["org.shop.Address", "org.shop.Author", "org.shop.Book", "org.shop.Item", "org.shop.Shelf"]);
  const item = m.classes.get("org.shop.Item")!;
  assert.equal(item.abstract, true);
  assert.equal(item.table, "LIB_ITEM");
  assert.deepEqual(item.identity, { kind: "application", fields: ["id", "code"], keyClass: "org.shop.Item$Key" });
  assert.equal(item.discriminator?.column, "KIND");
  assert.equal(item.version?.column, "VERSION");
  assert.deepEqual(item.fetchGroups.get("withTags"), ["tags"]);
  assert.deepEqual(
    [...item.fields.keys()],
    ["id", "code", "title", "price", "tags", "ratings", "genre", "genres", "cover", "published", "ref", "counts", "kept"],
  );
  assert.equal(item.fields.get("title")!.column, "TITLE");
  assert.equal(item.fields.get("title")!.nullable, false);
  assert.equal(item.fields.get("price")!.column, "LIB_PRICE");
  assert.deepEqual(typeOf(m, "org.shop.Item", "tags"), {
    kind: "collection",
    collection: "set",
    element: { kind: "basic", basic: "string", primitive: false },
  });
  assert.deepEqual(typeOf(m, "org.shop.Item", "ratings"), {
    kind: "map",
    key: { kind: "basic", basic: "string", primitive: false },
    value: { kind: "basic", basic: "double", primitive: false },
  });
  assert.deepEqual(typeOf(m, "org.shop.Item", "genre"), { kind: "enum", name: "org.lib.Genre", constants: ["FICTION", "SCIENCE", "HISTORY"] });
  assert.deepEqual(typeOf(m, "org.shop.Item", "genres"), {
    kind: "collection",
    collection: "list",
    element: { kind: "enum", name: "org.lib.Genre", constants: ["FICTION", "SCIENCE", "HISTORY"] },
  });
  assert.equal((typeOf(m, "org.shop.Item", "cover") as { basic: string }).basic, "bytes");
  assert.equal((typeOf(m, "org.shop.Item", "published") as { basic: string }).basic, "local-date");
  assert.equal((typeOf(m, "org.shop.Item", "ref") as { basic: string }).basic, "uuid");
  assert.equal(typeOf(m, "org.shop.Item", "counts")?.kind, "collection");

  const book = m.classes.get("org.shop.Book")!;
  assert.equal(book.superclass, "org.shop.Item");
  assert.deepEqual(typeOf(m, "org.shop.Book", "author"), { kind: "ref", class: "org.shop.Author" });
  const shelves = book.fields.get("shelves")!;
  assert.deepEqual(shelves.relation?.storage, {
    kind: "join-table",
    table: "BOOK_SHELF",
    ownerColumns: ["Book_id", "Book_code"],
    elementColumns: ["SHELF_ID"],
    orderColumn: "POS",
  });

  const author = m.classes.get("org.shop.Author")!;
  assert.equal(author.identity.kind, "datastore");
  assert.equal(author.fields.get("books")!.relation?.inverse, "author");
  assert.equal(author.fields.get("address")!.embeddedColumns?.city, "CITY");
  assert.equal(m.classes.get("org.shop.Address")!.embeddedOnly, true);
  assert.equal(m.classes.get("org.shop.Shelf")!.identity.kind, "datastore");
});

test("problems name the .java file, line and column, the class and the field", () => {
  assert.deepEqual(problems({ "A.java": "package p;\n@javax.jdo.annotations.PersistenceCapable\npublic class A {\n  int x\n  int y;\n}" }), [
    "A.java:4:8: Java syntax error: missing ;",
  ]);
  assert.deepEqual(
    problems({ "p/A.java": "package p;\nimport javax.jdo.annotations.*;\n@PersistenceCapable\npublic class A {\n  @Persistent private Strnig name;\n}" }),
    ["p/A.java:5:23, class p.A, field name: cannot resolve the type Strnig"],
  );
  assert.deepEqual(
    problems({
      "p/A.java":
        "package p;\nimport javax.jdo.annotations.*;\n@PersistenceCapable\npublic class A {\n  @Persistent private B b;\n  @Persistent private java.util.List<B> bs;\n}",
      "p/B.java": "package p;\npublic class B { int n; }",
    }),
    [
      "p/A.java:5:23, class p.A, field b: p.B is not persistent: annotate it (@PersistenceCapable, @Entity, @Embeddable, ...) or name it in the metadata",
      "p/A.java:6:23, class p.A, field bs: p.B is not persistent: annotate it (@PersistenceCapable, @Entity, @Embeddable, ...) or name it in the metadata",
    ],
  );
  assert.deepEqual(problems({ "p/A.java": "package p;\nimport javax.jdo.annotations.*;\n@PersistenceCapable(table = MISSING)\npublic class A { long id; }" }), [
    "p/A.java:3:29, class p.A: cannot resolve the constant MISSING",
  ]);
  // A model problem found later points at the Java declaration too.
  assert.deepEqual(
    problems({
      "p/A.java":
        'package p;\nimport javax.jdo.annotations.*;\n@PersistenceCapable\npublic class A {\n  @Persistent(mappedBy = "nope") private java.util.Set<A> as;\n}',
    }).map((p) => p.replace(/: .*$/, ":")),
    ["p/A.java:5:59, class p.A, field as:"],
  );
});

const JPA = (pkg: "jakarta.persistence" | "javax.persistence") => ({
  [`src/${pkg}/Customer.java`]: `package org.crm;
import ${pkg}.*;
import java.util.*;
@Entity(name = "Client")
@Table(name = "CUSTOMER")
@Inheritance(strategy = InheritanceType.JOINED)
@NamedEntityGraph(name = "withOrders", attributeNodes = {@NamedAttributeNode(value = "orders", subgraph = "o")}, subgraphs = {@NamedSubgraph(name = "o", attributeNodes = @NamedAttributeNode("lines"))})
public class Customer {
  @Id @GeneratedValue(strategy = GenerationType.IDENTITY) private Long id;
  @Column(name = "FULL_NAME", nullable = false) private String name;
  @OneToMany(mappedBy = "customer", cascade = CascadeType.ALL) private List<Order> orders;
  @ElementCollection @CollectionTable(name = "CUSTOMER_PHONES") private Map<String, String> phones;
  @ElementCollection private Set<String> tags;
  @Enumerated(EnumType.ORDINAL) private Level level;
  private Address address;
  @Transient private String scratch;
  private transient int cache;
  @Version private int version;
  public enum Level { LOW, HIGH }
}`,
  [`src/${pkg}/Vip.java`]: `package org.crm;
@${pkg}.Entity
public class Vip extends Customer { private double discount; }`,
  [`src/${pkg}/Order.java`]: `package org.crm;
import ${pkg}.*;
@Entity
@Access(AccessType.PROPERTY)
public class Order {
  private long id; private Customer customer; private java.util.List<String> lines;
  @Id public long getId() { return id; }
  @ManyToOne(optional = false) @JoinColumn(name = "CUST_ID") public Customer getCustomer() { return customer; }
  @ElementCollection @OrderColumn public java.util.List<String> getLines() { return lines; }
}`,
  [`src/${pkg}/Address.java`]: `package org.crm;
@${pkg}.Embeddable
public class Address { private String city; private String zip; }`,
});

for (const pkg of ["jakarta.persistence", "javax.persistence"] as const) {
  test(`JPA annotations (${pkg}) read into the model`, () => {
    const m = model(JPA(pkg));
    const customer = m.classes.get("org.crm.Customer")!;
    assert.equal(customer.entityName, "Client");
    assert.equal(customer.table, "CUSTOMER");
    assert.deepEqual(customer.identity.kind === "application" && customer.identity.fields, ["id"]);
    assert.equal(customer.fields.get("id")!.generation.kind, "sequence");
    assert.equal(customer.fields.get("name")!.column, "FULL_NAME");
    assert.equal(customer.fields.get("name")!.nullable, false);
    assert.equal(customer.fields.get("orders")!.dependent, true);
    assert.equal(customer.fields.get("orders")!.relation?.inverse, "customer");
    assert.equal(typeOf(m, "org.crm.Customer", "phones")?.kind, "map");
    assert.deepEqual(typeOf(m, "org.crm.Customer", "level"), { kind: "enum", name: "org.crm.Customer$Level", constants: ["LOW", "HIGH"] });
    assert.equal(customer.fields.get("level")!.enumOrdinal, true);
    assert.deepEqual(typeOf(m, "org.crm.Customer", "address"), { kind: "embedded", class: "org.crm.Address" });
    assert.ok(!customer.fields.has("scratch") && !customer.fields.has("cache"));
    assert.equal(customer.version?.fieldName, "version");
    assert.deepEqual(customer.fetchGroups.get("withOrders"), ["orders", "orders.lines"]);
    assert.equal(m.classes.get("org.crm.Vip")!.superclass, "org.crm.Customer");
    const order = m.classes.get("org.crm.Order")!;
    assert.deepEqual([...order.fields.keys()], ["id", "customer", "lines"]);
    assert.deepEqual(order.fields.get("customer")!.fkColumns, ["CUST_ID"]);
    assert.equal(order.fields.get("customer")!.nullable, false);
  });
}

// ---- XML and Java together --------------------------------------------------------------------

const jdoXml = (body: string): MetadataText => ({ source: "package.jdo", text: `<?xml version="1.0"?><jdo><package name="p">${body}</package></jdo>` });

test("JDO XML overrides the annotations field by field; classes only the XML names take their types from Java", () => {
  const files = {
    "p/A.java": `package p;
import javax.jdo.annotations.*;
@PersistenceCapable(table = "A_TABLE")
public class A {
  @PrimaryKey private long id;
  @Column(name = "N") private String name;
  @Column(name = "AGE") private int age;
  private B b;
}`,
    // A plain class: persistent only through the XML, which does not repeat its types.
    "p/B.java": `package p;
import java.util.*;
public class B {
  private long bid;
  private String label;
  private transient Set<Named> as = new HashSet<>(); // element type is A
  private transient int cache;
}`,
    "p/Named.java": "package p; public interface Named {}",
  };
  const xml = jdoXml(`
    <class name="A"><field name="name" column="NAME_X"/></class>
    <class name="B" identity-type="application">
      <field name="bid" primary-key="true"/>
      <field name="as" persistence-modifier="persistent" mapped-by="b"><collection element-type="A"/></field>
    </class>`);
  const m = model(files, [xml]);
  const a = m.classes.get("p.A")!;
  assert.equal(a.table, "A_TABLE");
  assert.equal(a.fields.get("name")!.column, "NAME_X");
  assert.equal(a.fields.get("age")!.column, "AGE");
  assert.deepEqual(a.identity.kind === "application" && a.identity.fields, ["id"]);
  const b = m.classes.get("p.B")!;
  assert.deepEqual([...b.fields.keys()], ["bid", "label", "as"]);
  assert.deepEqual(typeOf(m, "p.B", "as"), { kind: "collection", collection: "set", element: { kind: "ref", class: "p.A" } });
  assert.equal(b.fields.get("as")!.relation?.inverse, "b");
  // Without the XML, B is not persistent: as in JDO, A's unannotated reference to it is not either.
  assert.ok(!model(files).classes.get("p.A")!.fields.has("b"));
});

test("orm.xml overrides JPA annotations field by field", () => {
  const files = {
    "p/E.java": `package p;
import jakarta.persistence.*;
@Entity public class E { @Id private long id; @Column(name = "C1") private String a; private String b; @ManyToOne private E parent; }`,
  };
  const orm: MetadataText = {
    source: "orm.xml",
    text: `<entity-mappings><package>p</package><entity class="E"><table name="E_T"/><attributes><basic name="a"><column name="A_X"/></basic></attributes></entity></entity-mappings>`,
  };
  const m = model(files, [orm]);
  const e = m.classes.get("p.E")!;
  assert.equal(e.table, "E_T");
  assert.equal(e.fields.get("a")!.column, "A_X");
  assert.equal(e.fields.get("b")!.column, "b");
  assert.deepEqual(e.identity.kind === "application" && e.identity.fields, ["id"]);
  assert.deepEqual(typeOf(m, "p.E", "parent"), { kind: "ref", class: "p.E" });
});

test("persistence.xml <class> entries and <exclude-unlisted-classes>", () => {
  const files = {
    "p/A.java": "package p;\n@jakarta.persistence.Entity public class A { @jakarta.persistence.Id long id; }",
    "p/B.java": "package p;\n@jakarta.persistence.Entity public class B { @jakarta.persistence.Id long id; }",
    "p/C.java": "package p;\npublic class C { long id; String name; }",
  };
  assert.deepEqual([...model(files).classes.keys()].sort(), ["p.A", "p.B"]);
  const only = model(files, [], { listedClasses: ["p.A"], excludeUnlisted: true });
  assert.deepEqual([...only.classes.keys()], ["p.A"]);
  // A listed plain class is persistent (its id from XML or, here, datastore identity).
  const listed = model(files, [], { listedClasses: ["p.A", "p.C"], excludeUnlisted: true });
  assert.deepEqual([...listed.classes.keys()].sort(), ["p.A", "p.C"]);
  assert.deepEqual([...listed.classes.get("p.C")!.fields.keys()], ["id", "name"]);
  const missing = read(files, { listedClasses: ["p.Nope"], listedIn: { file: "META-INF/persistence.xml", line: 3 } });
  assert.deepEqual(missing.problems.map(formatProblem), ["META-INF/persistence.xml:3: <class>p.Nope</class> is not a class of the Java sources"]);
});

test("values Extent cannot honour are problems at their place; interface-typed members take the type the annotations state", () => {
  const files = {
    "p/A.java": `package p;
import javax.jdo.annotations.*;
@PersistenceCapable @Inheritance(strategy = InheritanceStrategy.BOGUS_TABLE)
public class A { @PrimaryKey @Column(length = 10 * 2) long id; }`,
    "q/E.java": `package q;
import jakarta.persistence.*;
@Entity public class E { @Id @GeneratedValue(strategy = GenerationType.SOMETIMES) long id; }`,
  };
  assert.deepEqual(problems(files), [
    'p/A.java:3:21, class p.A: @Inheritance strategy "BOGUS_TABLE" is not one of NEW_TABLE, SUPERCLASS_TABLE, SUBCLASS_TABLE, COMPLETE_TABLE',
    "p/A.java:4:47, class p.A, field id: cannot evaluate the annotation value 10 * 2",
    'q/E.java:3:88, class q.E, field id: @GeneratedValue strategy "SOMETIMES" is not one of AUTO, IDENTITY, SEQUENCE, TABLE, UUID',
  ]);

  const m = model({
    "q/E.java": `package q;
import jakarta.persistence.*;
@Entity public class E {
  @Id long id;
  @ManyToOne(targetEntity = F.class) Named f;
  @OneToMany(targetEntity = F.class, mappedBy = "e") java.util.List<Named> fs;
}`,
    "q/F.java":
      "package q;\n@jakarta.persistence.Entity public class F implements Named { @jakarta.persistence.Id long id; @jakarta.persistence.ManyToOne E e; }",
    "q/Named.java": "package q; public interface Named {}",
  });
  assert.deepEqual(typeOf(m, "q.E", "f"), { kind: "ref", class: "q.F" });
  assert.deepEqual(typeOf(m, "q.E", "fs"), { kind: "collection", collection: "list", element: { kind: "ref", class: "q.F" } });
});

test("more of the syntax: @Columns, @Key/@Value, @FetchGroups, property access typed by an interface, static on-demand imports, text blocks, records", () => {
  const m = model({
    "p/Names.java": `package p;
public interface Names { String TABLE = """
    THINGS"""; String PREFIX = "T_"; }`,
    "p/Thing.java": `package p;
import javax.jdo.annotations.*;
import java.util.Map;
import static p.Names.*;
@PersistenceCapable(table = TABLE)
@FetchGroups({@FetchGroup(name = "a", members = {@Persistent(name = "label")}), @FetchGroup(name = "b", members = @Persistent(name = "owner"), fetchGroups = {"a"})})
public class Thing {
  private long id;
  private String label;
  private Map<String, Integer> counts;
  private Object owner;
  @PrimaryKey public long getId() { return id; }
  @Columns({@Column(name = PREFIX + "LABEL", length = 40)}) public String getLabel() { return label; }
  @Persistent @Key(column = "K") @Value(column = "V") public Map<String, Integer> getCounts() { return counts; }
  @Persistent(types = Owner.class) public Object getOwner() { return owner; }
  public static int helper() { return 0; }
}`,
    "p/Owner.java": "package p;\n@javax.jdo.annotations.PersistenceCapable public class Owner { @javax.jdo.annotations.PrimaryKey String name; Point at; }",
    "p/Point.java": "package p;\n@javax.jdo.annotations.EmbeddedOnly public record Point(double x, double y) {}",
  });
  const thing = m.classes.get("p.Thing")!;
  assert.equal(thing.table, "THINGS");
  assert.deepEqual([...thing.fields.keys()], ["id", "label", "counts", "owner"]);
  assert.equal(thing.fields.get("label")!.column, "T_LABEL");
  assert.deepEqual(typeOf(m, "p.Thing", "owner"), { kind: "ref", class: "p.Owner" });
  assert.equal(typeOf(m, "p.Thing", "counts")?.kind, "map");
  assert.deepEqual(thing.fetchGroups.get("b"), ["owner", "label"]);
  assert.deepEqual([...m.classes.get("p.Point")!.fields.keys()], ["x", "y"]);
  assert.deepEqual(typeOf(m, "p.Owner", "at"), { kind: "embedded", class: "p.Point" });
});
