import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeConnectionUrl } from "../src/config/connection-url.ts";
import { parseJdoConfig, parsePersistenceXml } from "../src/config/persistence-xml.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";

const JDO = `<jdo><package name="p"><class name="A"/></package></jdo>`;
const ORM = `<orm><package name="p"><class name="A" table="T"/></package></orm>`;

function persistenceXml(units: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
${units}
</persistence>`;
}

// ------------------------------------------------------------------------------------------------
// Connection URLs
// ------------------------------------------------------------------------------------------------

test("connection URLs: libSQL forms pass through, jdbc:sqlite is translated", () => {
  assert.equal(normalizeConnectionUrl("jdbc:sqlite:data/app.db"), "file:data/app.db");
  assert.equal(normalizeConnectionUrl("jdbc:sqlite:/abs/app.db"), "file:/abs/app.db");
  assert.equal(normalizeConnectionUrl("jdbc:sqlite::memory:"), ":memory:");
  assert.equal(normalizeConnectionUrl("jdbc:sqlite:file:x.db"), "file:x.db");
  assert.equal(normalizeConnectionUrl("file:local.db"), "file:local.db");
  assert.equal(normalizeConnectionUrl(":memory:"), ":memory:");
  assert.equal(normalizeConnectionUrl("libsql://db.example.turso.io"), "libsql://db.example.turso.io");
  assert.equal(normalizeConnectionUrl("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  assert.equal(normalizeConnectionUrl("https://db.example.com"), "https://db.example.com");
  assert.equal(normalizeConnectionUrl("ws://127.0.0.1:8080"), "ws://127.0.0.1:8080");
  assert.equal(normalizeConnectionUrl("wss://db.example.com"), "wss://db.example.com");
  assert.equal(normalizeConnectionUrl("  file:trimmed.db "), "file:trimmed.db");
});

test("connection URLs: anything else throws a precise error", () => {
  assert.throws(() => normalizeConnectionUrl(""), { message: "the connection URL is empty" });
  assert.throws(
    () => normalizeConnectionUrl("jdbc:mysql://root:secret@localhost/db"),
    (e: Error) => {
      assert.match(e.message, /^the "mysql" JDBC driver is not supported, only SQLite\/libSQL: "jdbc:mysql:\/\/\*\*\*@localhost\/db"; expected file:PATH/);
      assert.doesNotMatch(e.message, /secret/);
      return true;
    },
  );
  assert.throws(
    () => normalizeConnectionUrl("postgres://h/db"),
    /^Error: unsupported connection URL: "postgres:\/\/h\/db"; expected file:PATH, :memory:, libsql:\/\/HOST/,
  );
  assert.throws(() => normalizeConnectionUrl("data.db"), /unsupported connection URL: "data.db"/);
});

// ------------------------------------------------------------------------------------------------
// persistence.xml and jdoconfig.xml readers
// ------------------------------------------------------------------------------------------------

test("parsePersistenceXml reads units, mapping files and properties", () => {
  const text = persistenceXml(`  <persistence-unit name="one" transaction-type="RESOURCE_LOCAL">
    <provider>org.datanucleus.api.jakarta.PersistenceProviderImpl</provider>
    <mapping-file> model/package.jdo </mapping-file>
    <mapping-file>META-INF/orm.xml</mapping-file>
    <class>org.example.Listed</class>
    <properties>
      <property name="jakarta.persistence.jdbc.url" value="file:one.db"/>
      <property name="x">text value</property>
    </properties>
  </persistence-unit>
  <persistence-unit name="two"/>`);
  const { units, problems } = parsePersistenceXml(text, "persistence.xml");
  assert.deepEqual(problems, []);
  assert.deepEqual(units, [
    {
      name: "one",
      source: { file: "persistence.xml", line: 3 },
      mappingFiles: ["model/package.jdo", "META-INF/orm.xml"],
      properties: { "jakarta.persistence.jdbc.url": "file:one.db", x: "text value" },
      // Read for the Java sources (contract §10): which classes the unit lists.
      classes: ["org.example.Listed"],
    },
    { name: "two", source: { file: "persistence.xml", line: 13 }, mappingFiles: [], properties: {} },
  ]);
});

test("parsePersistenceXml problems", () => {
  const text = persistenceXml(`  <persistence-unit>
  </persistence-unit>
  <persistence-unit name="u">
    <mapping-file>  </mapping-file>
    <properties><property value="v"/></properties>
  </persistence-unit>
  <persistence-unit name="u"/>`);
  assert.deepEqual(parsePersistenceXml(text, "persistence.xml").problems, [
    { file: "persistence.xml", line: 3, message: "<persistence-unit> without a name attribute" },
    { file: "persistence.xml", line: 6, message: 'empty <mapping-file> in persistence-unit "u"' },
    { file: "persistence.xml", line: 7, message: "<property> without a name attribute" },
    { file: "persistence.xml", line: 9, message: 'persistence-unit "u" is declared twice' },
  ]);
  assert.deepEqual(parsePersistenceXml("<jdoconfig/>", "persistence.xml").problems, [
    { file: "persistence.xml", line: 1, message: "expected a <persistence> root element, found <jdoconfig>" },
  ]);
  const broken = parsePersistenceXml("<persistence>\n<persistence-unit name='x'>\n</persistence>", "META-INF/persistence.xml");
  assert.equal(broken.units.length, 0);
  assert.equal(broken.problems.length, 1);
  assert.equal(broken.problems[0]!.file, "META-INF/persistence.xml");
  assert.equal(broken.problems[0]!.line, 3);
  assert.match(broken.problems[0]!.message, /^malformed XML: /);
});

test("parseJdoConfig reads property children and the attribute forms", () => {
  const text = `<?xml version="1.0"?>
<jdoconfig xmlns="https://db.apache.org/jdo/xmlns/jdoconfig">
  <persistence-manager-factory name="attrs" connection-url="file:a.db" persistence-unit-name="unit"
      connection-password="tok" optimistic="true" unknown-attribute="x">
    <property name="extent.metadata.files" value="a.jdo"/>
    <property name="javax.jdo.option.ConnectionURL" value="file:child-wins.db"/>
  </persistence-manager-factory>
  <persistence-manager-factory>
    <property name="javax.jdo.option.ConnectionURL" value=":memory:"/>
  </persistence-manager-factory>
</jdoconfig>`;
  const { factories, problems } = parseJdoConfig(text, "jdoconfig.xml");
  assert.deepEqual(problems, []);
  assert.deepEqual(factories, [
    {
      name: "attrs",
      source: { file: "jdoconfig.xml", line: 3 },
      properties: {
        "javax.jdo.option.ConnectionURL": "file:child-wins.db",
        "javax.jdo.option.PersistenceUnitName": "unit",
        "javax.jdo.option.ConnectionPassword": "tok",
        "javax.jdo.option.Optimistic": "true",
        "extent.metadata.files": "a.jdo",
      },
    },
    { name: "", source: { file: "jdoconfig.xml", line: 8 }, properties: { "javax.jdo.option.ConnectionURL": ":memory:" } },
  ]);
});

test("parseJdoConfig problems", () => {
  const text = `<jdoconfig>
  <persistence-manager-factory name="f"><property value="x"/></persistence-manager-factory>
  <persistence-manager-factory name="f"/>
</jdoconfig>`;
  assert.deepEqual(parseJdoConfig(text, "jdoconfig.xml").problems, [
    { file: "jdoconfig.xml", line: 2, message: "<property> without a name attribute" },
    { file: "jdoconfig.xml", line: 3, message: 'persistence-manager-factory "f" is declared twice' },
  ]);
  assert.deepEqual(parseJdoConfig("<persistence/>", "META-INF/jdoconfig.xml").problems, [
    { file: "META-INF/jdoconfig.xml", line: 1, message: "expected a <jdoconfig> root element, found <persistence>" },
  ]);
});

// ------------------------------------------------------------------------------------------------
// resolveContext
// ------------------------------------------------------------------------------------------------

test("persistence.xml at the root", () => {
  const files = new Map([
    [
      "persistence.xml",
      persistenceXml(`<persistence-unit name="sample">
  <mapping-file>model/package.jdo</mapping-file>
  <mapping-file>./model/../model/package-standard.orm</mapping-file>
  <mapping-file>META-INF/orm.xml</mapping-file>
  <properties>
    <property name="jakarta.persistence.jdbc.url" value="jdbc:sqlite:data/sample.db"/>
    <property name="jakarta.persistence.jdbc.password" value="token-1"/>
  </properties>
</persistence-unit>
<persistence-unit name="other"/>`),
    ],
    ["model/package.jdo", JDO],
    ["model/package-standard.orm", ORM],
    ["META-INF/orm.xml", "<entity-mappings/>"],
  ]);
  assert.deepEqual(resolveContext(files, "sample"), {
    context: {
      name: "sample",
      url: "file:data/sample.db",
      authToken: "token-1",
      metadata: [
        { source: "model/package.jdo", text: JDO },
        { source: "model/package-standard.orm", text: ORM },
        { source: "META-INF/orm.xml", text: "<entity-mappings/>" },
      ],
      autoCreateSchema: true,
    },
    problems: [],
    classModules: [],
  });
});

test("persistence.xml under META-INF: javax and datanucleus URLs, mapping files next to it, autoCreate off", () => {
  const files = new Map([
    [
      "META-INF/persistence.xml",
      persistenceXml(`<persistence-unit name="a">
  <mapping-file>package.jdo</mapping-file>
  <properties>
    <property name="javax.persistence.jdbc.url" value="libsql://a.example.io"/>
    <property name="javax.persistence.jdbc.password" value="tok"/>
    <property name="datanucleus.schema.autoCreateAll" value="false"/>
  </properties>
</persistence-unit>
<persistence-unit name="b">
  <properties>
    <property name="datanucleus.ConnectionURL" value="jdbc:sqlite::memory:"/>
    <property name="extent.schema.autoCreate" value="FALSE"/>
  </properties>
</persistence-unit>
<persistence-unit name="c">
  <properties>
    <property name="datanucleus.ConnectionURL" value="http://127.0.0.1:8081"/>
    <property name="datanucleus.schema.autoCreateAll" value="true"/>
  </properties>
</persistence-unit>`),
    ],
    // Not found relative to DIR, so looked for relative to META-INF/.
    ["META-INF/package.jdo", JDO],
  ]);
  assert.deepEqual(resolveContext(files, "a"), {
    context: { name: "a", url: "libsql://a.example.io", authToken: "tok", metadata: [{ source: "META-INF/package.jdo", text: JDO }], autoCreateSchema: false },
    problems: [],
    classModules: [],
  });
  assert.deepEqual(resolveContext(files, "b"), {
    context: { name: "b", url: ":memory:", metadata: [], autoCreateSchema: false },
    problems: [],
    classModules: [],
  });
  assert.deepEqual(resolveContext(files, "c"), {
    context: { name: "c", url: "http://127.0.0.1:8081", metadata: [], autoCreateSchema: true },
    problems: [],
    classModules: [],
  });
});

test("jdoconfig.xml with extent.metadata.files", () => {
  const files = new Map([
    [
      "META-INF/jdoconfig.xml",
      `<jdoconfig>
  <persistence-manager-factory name="shop">
    <property name="javax.jdo.option.ConnectionURL" value="wss://shop.example.io"/>
    <property name="javax.jdo.option.ConnectionPassword" value="secret-token"/>
    <property name="extent.metadata.files" value=" model/package.jdo ,model/package-standard.orm, "/>
    <property name="extent.schema.autoCreate" value="false"/>
  </persistence-manager-factory>
  <persistence-manager-factory name="attr" connection-url="file:attr.db"/>
</jdoconfig>`,
    ],
    ["model/package.jdo", JDO],
    ["model/package-standard.orm", ORM],
  ]);
  assert.deepEqual(resolveContext(files, "shop"), {
    context: {
      name: "shop",
      url: "wss://shop.example.io",
      authToken: "secret-token",
      metadata: [
        { source: "model/package.jdo", text: JDO },
        { source: "model/package-standard.orm", text: ORM },
      ],
      autoCreateSchema: false,
    },
    problems: [],
    classModules: [],
  });
  assert.deepEqual(resolveContext(files, "attr"), {
    context: { name: "attr", url: "file:attr.db", metadata: [], autoCreateSchema: true },
    problems: [],
    classModules: [],
  });
});

test("jdoconfig.xml pointing at a persistence unit: the unit fills in, the factory wins", () => {
  const files = new Map([
    [
      "jdoconfig.xml",
      `<jdoconfig>
  <persistence-manager-factory name="via-unit" persistence-unit-name="base"/>
  <persistence-manager-factory name="override">
    <property name="javax.jdo.option.PersistenceUnitName" value="base"/>
    <property name="javax.jdo.option.ConnectionURL" value="file:override.db"/>
    <property name="extent.metadata.files" value="b.jdo"/>
    <property name="datanucleus.schema.autoCreateAll" value="true"/>
  </persistence-manager-factory>
</jdoconfig>`,
    ],
    [
      "META-INF/persistence.xml",
      persistenceXml(`<persistence-unit name="base">
  <mapping-file>a.jdo</mapping-file>
  <properties>
    <property name="jakarta.persistence.jdbc.url" value="file:base.db"/>
    <property name="jakarta.persistence.jdbc.password" value="base-token"/>
    <property name="datanucleus.schema.autoCreateAll" value="false"/>
  </properties>
</persistence-unit>`),
    ],
    ["a.jdo", JDO],
    ["b.jdo", ORM],
  ]);
  assert.deepEqual(resolveContext(files, "via-unit"), {
    context: { name: "via-unit", url: "file:base.db", authToken: "base-token", metadata: [{ source: "a.jdo", text: JDO }], autoCreateSchema: false },
    problems: [],
    classModules: [],
  });
  assert.deepEqual(resolveContext(files, "override"), {
    context: { name: "override", url: "file:override.db", authToken: "base-token", metadata: [{ source: "b.jdo", text: ORM }], autoCreateSchema: true },
    problems: [],
    classModules: [],
  });
});

test("problem: no configuration file at all", () => {
  const { problems } = resolveContext(new Map([["model/package.jdo", JDO]]), "x", "config");
  assert.deepEqual(problems, [{ file: "config", message: "no persistence.xml or jdoconfig.xml, neither in the folder nor in its META-INF/" }]);
});

test("problem: no context with that name lists the names that exist", () => {
  const files = new Map([
    ["persistence.xml", persistenceXml(`<persistence-unit name="u1"/><persistence-unit name="u2"/>`)],
    ["META-INF/jdoconfig.xml", `<jdoconfig><persistence-manager-factory name="f1"/></jdoconfig>`],
  ]);
  assert.deepEqual(resolveContext(files, "missing").problems, [
    {
      file: "persistence.xml, META-INF/jdoconfig.xml",
      message:
        'no persistence-unit or persistence-manager-factory is named "missing" (found: persistence-manager-factory "f1", persistence-unit "u1", persistence-unit "u2")',
    },
  ]);
  assert.deepEqual(resolveContext(new Map([["jdoconfig.xml", "<jdoconfig/>"]]), "x").problems, [
    { file: "jdoconfig.xml", message: 'no persistence-unit or persistence-manager-factory is named "x" (none is declared)' },
  ]);
});

test("problem: missing URL", () => {
  const files = new Map([
    ["META-INF/persistence.xml", persistenceXml(`<persistence-unit name="u"/>`)],
    ["jdoconfig.xml", `<jdoconfig>\n<persistence-manager-factory name="f"/>\n</jdoconfig>`],
  ]);
  const urls = "javax.jdo.option.ConnectionURL, jakarta.persistence.jdbc.url, javax.persistence.jdbc.url, datanucleus.ConnectionURL";
  assert.deepEqual(resolveContext(files, "u").problems, [
    { file: "META-INF/persistence.xml", line: 3, message: `persistence-unit "u": no connection URL (set one of ${urls})` },
  ]);
  assert.deepEqual(resolveContext(files, "f").problems, [
    { file: "jdoconfig.xml", line: 2, message: `persistence-manager-factory "f": no connection URL (set one of ${urls})` },
  ]);
});

test("problem: mapping file not found", () => {
  const files = new Map([
    [
      "META-INF/persistence.xml",
      persistenceXml(`<persistence-unit name="u">
  <mapping-file>model/missing.jdo</mapping-file>
  <properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/></properties>
</persistence-unit>`),
    ],
    [
      "jdoconfig.xml",
      `<jdoconfig>\n<persistence-manager-factory name="f" connection-url=":memory:">\n<property name="extent.metadata.files" value="a.jdo,gone.orm"/>\n</persistence-manager-factory>\n</jdoconfig>`,
    ],
    ["a.jdo", JDO],
  ]);
  const u = resolveContext(files, "u");
  assert.deepEqual(u.problems, [
    {
      file: "META-INF/persistence.xml",
      line: 3,
      message: 'persistence-unit "u": mapping file "model/missing.jdo" not found (looked for "model/missing.jdo", "META-INF/model/missing.jdo")',
    },
  ]);
  assert.deepEqual(u.context.metadata, []);
  const f = resolveContext(files, "f");
  assert.deepEqual(f.problems, [
    { file: "jdoconfig.xml", line: 2, message: 'persistence-manager-factory "f": mapping file "gone.orm" not found (looked for "gone.orm")' },
  ]);
  assert.deepEqual(f.context.metadata, [{ source: "a.jdo", text: JDO }]);
});

test("problem: bad URL names the property", () => {
  const files = new Map([
    [
      "persistence.xml",
      persistenceXml(
        `<persistence-unit name="u"><properties><property name="javax.persistence.jdbc.url" value="jdbc:postgresql://h/db"/></properties></persistence-unit>`,
      ),
    ],
  ]);
  const { context, problems } = resolveContext(files, "u");
  assert.equal(context.url, "");
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.file, "persistence.xml");
  assert.equal(problems[0]!.line, 3);
  assert.match(problems[0]!.message, /^persistence-unit "u": bad javax.persistence.jdbc.url: the "postgresql" JDBC driver is not supported/);
});

test("problem: PersistenceUnitName names no unit", () => {
  const jdoconfig = `<jdoconfig>\n<persistence-manager-factory name="f" persistence-unit-name="nope" connection-url=":memory:"/>\n</jdoconfig>`;
  assert.deepEqual(resolveContext(new Map([["jdoconfig.xml", jdoconfig]]), "f").problems, [
    {
      file: "jdoconfig.xml",
      line: 2,
      message:
        'persistence-manager-factory "f": javax.jdo.option.PersistenceUnitName names persistence-unit "nope", which is not declared: there is no persistence-unit',
    },
  ]);
  const files = new Map([
    ["jdoconfig.xml", jdoconfig],
    ["persistence.xml", persistenceXml(`<persistence-unit name="yes"/>`)],
  ]);
  assert.deepEqual(resolveContext(files, "f").problems, [
    {
      file: "jdoconfig.xml",
      line: 2,
      message: 'persistence-manager-factory "f": javax.jdo.option.PersistenceUnitName names persistence-unit "nope", which is not declared (found: "yes")',
    },
  ]);
});

test("problem: a malformed configuration file is reported with its line", () => {
  const files = new Map([
    ["persistence.xml", `<persistence>\n  <persistence-unit name="u">\n</persistence>`],
    ["jdoconfig.xml", `<jdoconfig><persistence-manager-factory name="u" connection-url=":memory:"/></jdoconfig>`],
  ]);
  const { context, problems } = resolveContext(files, "u");
  assert.equal(context.url, ":memory:");
  assert.equal(problems.length, 1);
  assert.deepEqual([problems[0]!.file, problems[0]!.line], ["persistence.xml", 3]);
  assert.match(problems[0]!.message, /^malformed XML: /);
});

// ------------------------------------------------------------------------------------------------
// loadConfigDir
// ------------------------------------------------------------------------------------------------

test("loadConfigDir reads xml, jdo and orm files recursively, skipping node_modules and dot-folders", async () => {
  const dir = await mkdtemp(join(tmpdir(), "extent-config-"));
  try {
    await mkdir(join(dir, "META-INF"));
    await mkdir(join(dir, "model", "deep"), { recursive: true });
    await mkdir(join(dir, "node_modules", "x"), { recursive: true });
    await mkdir(join(dir, ".git"));
    await writeFile(join(dir, "META-INF", "persistence.xml"), "<persistence/>");
    await writeFile(join(dir, "model", "package.jdo"), JDO);
    await writeFile(join(dir, "model", "deep", "package-standard.ORM"), ORM);
    await writeFile(join(dir, "model", "notes.txt"), "no");
    await writeFile(join(dir, "node_modules", "x", "skip.xml"), "<x/>");
    await writeFile(join(dir, ".git", "skip.xml"), "<x/>");
    const files = await loadConfigDir(dir);
    assert.deepEqual([...files.keys()].sort(), ["META-INF/persistence.xml", "model/deep/package-standard.ORM", "model/package.jdo"]);
    assert.equal(files.get("model/package.jdo"), JDO);
    // The two halves work together.
    await writeFile(
      join(dir, "jdoconfig.xml"),
      `<jdoconfig><persistence-manager-factory name="n" connection-url="jdbc:sqlite:x.db"><property name="extent.metadata.files" value="model/package.jdo"/></persistence-manager-factory></jdoconfig>`,
    );
    const { context, problems } = resolveContext(await loadConfigDir(dir), "n");
    assert.deepEqual(problems, []);
    assert.deepEqual(context, { name: "n", url: "file:x.db", metadata: [{ source: "model/package.jdo", text: JDO }], autoCreateSchema: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
