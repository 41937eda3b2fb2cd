/**
 * The command line as a user runs it: `extent serve` on a config folder, answering real HTTP
 * once it prints its URL; a broken model or configuration stops it with precise messages.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIN = new URL("../bin/extent.js", import.meta.url).pathname;

function run(args: string[], cwd: string): { done: Promise<{ code: number | null; out: string }>; url: Promise<string>; kill: () => void } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let resolveUrl: (u: string) => void;
  const url = new Promise<string>((r) => (resolveUrl = r));
  const onData = (d: Buffer) => {
    out += d.toString();
    const m = /at (http:\/\/\S+)/.exec(out);
    if (m) resolveUrl(m[1]!);
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const done = new Promise<{ code: number | null; out: string }>((r) => child.on("exit", (code) => r({ code, out })));
  return { done, url, kill: () => child.kill() };
}

function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "extent-cli-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const JDO = `<jdo><package name="org.cli">
  <class name="Note" identity-type="application">
    <field name="id" field-type="long" primary-key="true" value-strategy="increment"/>
    <field name="text" field-type="java.lang.String"/>
  </class></package></jdo>`;

test("extent serve reads jdoconfig.xml under META-INF and serves the model over HTTP with a prefix", async () => {
  const dir = configDir({
    "META-INF/jdoconfig.xml": `<jdoconfig><persistence-manager-factory name="notes">
      <property name="javax.jdo.option.ConnectionURL" value="jdbc:sqlite:db/notes.db"/>
      <property name="extent.metadata.files" value="model/package.jdo"/>
    </persistence-manager-factory></jdoconfig>`,
    "model/package.jdo": JDO,
  });
  const server = run(["serve", "--config", dir, "--persistence-context", "notes", "--port", "0", "--prefix", "/p"], dir);
  try {
    const url = await server.url;
    const created = await fetch(`${url}/org.cli.Note`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "hi" }),
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("location"), "/p/org.cli.Note/1");
    const got = await fetch(`${url}/org.cli.Note/1`);
    assert.deepEqual(await got.json(), { class: "org.cli.Note", id: 1, text: "hi" });
    const head = await fetch(`${url}/org.cli.Note/2`, { method: "HEAD" });
    assert.equal(head.status, 404);
  } finally {
    server.kill();
    await server.done;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("extent serve refuses a model with problems, one line per problem naming file, class and field", async () => {
  const dir = configDir({
    "persistence.xml": `<persistence><persistence-unit name="bad"><mapping-file>bad.jdo</mapping-file>
      <properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/></properties></persistence-unit></persistence>`,
    "bad.jdo": `<jdo><package name="org.bad">
      <class name="A" identity-type="application">
        <field name="name" field-type="java.lang.Strin"/>
      </class>
      <class name="B"><field name="owner" field-type="org.bad.A" mapped-by="nothing"/></class>
    </package></jdo>`,
  });
  const { code, out } = await run(["serve", "--config", dir, "--persistence-context", "bad", "--port", "0"], dir).done;
  rmSync(dir, { recursive: true, force: true });
  assert.equal(code, 1);
  assert.match(out, /bad\.jdo:3, class org\.bad\.A, field name: unknown field type "java\.lang\.Strin"/);
  assert.match(out, /bad\.jdo:\d+, class org\.bad\.A: identity-type "application" needs at least one field with primary-key="true"/);
  assert.match(out, /bad\.jdo:5, class org\.bad\.B, field owner: mapped-by names "nothing"/);
});

test("extent serve names an unknown persistence context and a missing flag", async () => {
  const dir = configDir({
    "persistence.xml": `<persistence><persistence-unit name="x"><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/></properties></persistence-unit></persistence>`,
  });
  const unknown = await run(["serve", "--config", dir, "--persistence-context", "nope"], dir).done;
  assert.equal(unknown.code, 1);
  assert.match(unknown.out, /no persistence-unit or persistence-manager-factory is named "nope" \(found: persistence-unit "x"\)/);
  const missing = await run(["serve", "--config", dir], dir).done;
  assert.equal(missing.code, 1);
  assert.match(missing.out, /--persistence-context: is required/);
  rmSync(dir, { recursive: true, force: true });
});

test("extent serve reads the Java sources beside a Maven src/main/resources, and names a Java problem's file, line and column", async () => {
  const dir = configDir({
    "src/main/resources/META-INF/persistence.xml": `<persistence><persistence-unit name="notes"><mapping-file>META-INF/package.jdo</mapping-file>
      <properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/></properties></persistence-unit></persistence>`,
    // The XML overrides the annotated class: its column.
    "src/main/resources/META-INF/package.jdo": `<jdo><package name="org.cli"><class name="Note"><field name="text" column="BODY"/></class></package></jdo>`,
    "src/main/java/org/cli/Note.java": `package org.cli;
import javax.jdo.annotations.*;
@PersistenceCapable(identityType = IdentityType.APPLICATION)
public class Note {
  @PrimaryKey @Persistent(valueStrategy = IdGeneratorStrategy.INCREMENT) private long id;
  private String text;
}`,
  });
  const server = run(["serve", "--config", join(dir, "src/main/resources"), "--persistence-context", "notes", "--port", "0"], dir);
  try {
    const url = await server.url;
    const created = await fetch(`${url}/org.cli.Note`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "hi" }),
    });
    assert.equal(created.status, 201);
    assert.deepEqual(await (await fetch(`${url}/org.cli.Note/1`)).json(), { class: "org.cli.Note", id: 1, text: "hi" });
  } finally {
    server.kill();
    await server.done;
  }
  const bad = configDir({
    "persistence.xml": `<persistence><persistence-unit name="bad"><properties>
      <property name="jakarta.persistence.jdbc.url" value=":memory:"/><property name="extent.java.sources" value="java"/></properties></persistence-unit></persistence>`,
    "java/p/A.java": "package p;\n@javax.jdo.annotations.PersistenceCapable\npublic class A {\n  @javax.jdo.annotations.Persistent Missing m;\n}",
  });
  const { code, out } = await run(["serve", "--config", bad, "--persistence-context", "bad", "--port", "0"], bad).done;
  rmSync(dir, { recursive: true, force: true });
  rmSync(bad, { recursive: true, force: true });
  assert.equal(code, 1);
  assert.match(out, /java\/p\/A\.java:4:37, class p\.A, field m: cannot resolve the type Missing/);
});
