/**
 * Cascades and required references in every metadata form (issue 23): one small model, a parent
 * whose `children` go with it and with orphan removal (JPA cascade ALL + orphanRemoval, JDO
 * dependent-element), whose `extras` go with it only (JPA cascade REMOVE; JDO has no such
 * relation, so its forms say orphanRemoval=false in the plain object form only), and `tags` that
 * name it through a required reference (JPA `@JoinColumn(nullable=false)`, JDO
 * `null-value="exception"`) and refuse its deletion. The same requests give the same answers.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { PersistenceContext } from "../src/config/context.ts";
import { readJavaModel } from "../src/runtime/java-sources.ts";
import { Entity, Id, JoinColumn, ManyToOne, OneToMany } from "../src/jpa.ts";
import { PersistenceCapable, Persistent, PrimaryKey } from "../src/jdo.ts";
import { databaseDigest } from "./support/digest.ts";
import { startHarness } from "./support/harness.ts";

const ORM_XML = `<?xml version="1.0" encoding="UTF-8"?>
<entity-mappings xmlns="https://jakarta.ee/xml/ns/persistence/orm" version="3.1">
  <package>org.f</package>
  <entity class="Parent">
    <attributes>
      <id name="id" attribute-type="long"/>
      <one-to-many name="children" target-entity="Child" mapped-by="parent" orphan-removal="true"><cascade><cascade-all/></cascade></one-to-many>
      <one-to-many name="extras" target-entity="Extra" mapped-by="parent"><cascade><cascade-remove/></cascade></one-to-many>
    </attributes>
  </entity>
  <entity class="Child">
    <attributes>
      <id name="id" attribute-type="long"/>
      <many-to-one name="parent" target-entity="Parent"><join-column name="parent" nullable="false"/></many-to-one>
    </attributes>
  </entity>
  <entity class="Extra">
    <attributes>
      <id name="id" attribute-type="long"/>
      <many-to-one name="parent" target-entity="Parent"/>
    </attributes>
  </entity>
  <entity class="Tag">
    <attributes>
      <id name="id" attribute-type="long"/>
      <many-to-one name="parent" target-entity="Parent"><join-column name="parent" nullable="false"/></many-to-one>
    </attributes>
  </entity>
</entity-mappings>`;

const JAVA: Record<string, string> = {
  "Parent.java": `package org.f;
import jakarta.persistence.*;
import java.util.Set;
@Entity public class Parent {
  @Id private long id;
  @OneToMany(mappedBy = "parent", cascade = CascadeType.ALL, orphanRemoval = true) private Set<Child> children;
  @OneToMany(mappedBy = "parent", cascade = {CascadeType.REMOVE}) private Set<Extra> extras;
}`,
  "Child.java": `package org.f;
import jakarta.persistence.*;
@Entity public class Child {
  @Id private long id;
  @ManyToOne @JoinColumn(name = "parent", nullable = false) private Parent parent;
}`,
  "Extra.java": `package org.f;
import jakarta.persistence.*;
@Entity public class Extra {
  @Id private long id;
  @ManyToOne private Parent parent;
}`,
  "Tag.java": `package org.f;
import jakarta.persistence.*;
@Entity public class Tag {
  @Id private long id;
  @ManyToOne(optional = false) private Parent parent;
}`,
};

// JPA decorators.
@Entity({ package: "org.f" })
class Parent {
  @Id({ type: Number }) id?: number;
  @OneToMany({ targetEntity: () => Child, mappedBy: "parent", cascade: ["ALL"], orphanRemoval: true }) children?: unknown[];
  @OneToMany({ targetEntity: () => Extra, mappedBy: "parent", cascade: ["REMOVE"] }) extras?: unknown[];
}
@Entity({ package: "org.f" })
class Child {
  @Id({ type: Number }) id?: number;
  @ManyToOne({ targetEntity: () => Parent }) @JoinColumn({ name: "parent", nullable: false }) parent?: Parent;
}
@Entity({ package: "org.f" })
class Extra {
  @Id({ type: Number }) id?: number;
  @ManyToOne({ targetEntity: () => Parent }) parent?: Parent;
}
@Entity({ package: "org.f" })
class Tag {
  @Id({ type: Number }) id?: number;
  @ManyToOne({ targetEntity: () => Parent, optional: false }) parent?: Parent;
}

// JDO decorators: dependent-element on the mapped-by collection (deletes with the owner and on release).
@PersistenceCapable({ package: "org.f", name: "Parent" })
class JdoParent {
  @PrimaryKey({ type: Number }) id?: number;
  @Persistent({ mappedBy: "parent", dependentElement: true, elementType: () => JdoChild }) children?: unknown[];
  @Persistent({ mappedBy: "parent", dependentElement: true, elementType: () => JdoExtra }) extras?: unknown[];
}
@PersistenceCapable({ package: "org.f", name: "Child" })
class JdoChild {
  @PrimaryKey({ type: Number }) id?: number;
  @Persistent({ type: () => JdoParent, nullValue: "exception" }) parent?: unknown;
}
@PersistenceCapable({ package: "org.f", name: "Extra" })
class JdoExtra {
  @PrimaryKey({ type: Number }) id?: number;
  @Persistent({ type: () => JdoParent }) parent?: unknown;
}
@PersistenceCapable({ package: "org.f", name: "Tag" })
class JdoTag {
  @PrimaryKey({ type: Number }) id?: number;
  @Persistent({ type: () => JdoParent, nullValue: "exception" }) parent?: unknown;
}

const OBJECT_FORM = {
  package: "org.f",
  classes: {
    Parent: {
      identityType: "application",
      fields: {
        id: { type: "long", primaryKey: true },
        children: { type: "java.util.Set", elementType: "Child", mappedBy: "parent", dependent: true },
        extras: { type: "java.util.Set", elementType: "Extra", mappedBy: "parent", dependent: true, orphanRemoval: false },
      },
    },
    Child: { identityType: "application", fields: { id: { type: "long", primaryKey: true }, parent: { type: "Parent", nullValue: "exception" } } },
    Extra: { identityType: "application", fields: { id: { type: "long", primaryKey: true }, parent: "Parent" } },
    Tag: { identityType: "application", fields: { id: { type: "long", primaryKey: true }, parent: { type: "Parent", nullValue: "exception" } } },
  },
};

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

type Form = { name: string; context: () => Promise<Pick<PersistenceContext, "metadata" | "classes" | "documents" | "jpaClasses" | "models">>; jdo?: boolean };
const FORMS: Form[] = [
  { name: "JPA orm.xml", context: async () => ({ metadata: [{ source: "orm.xml", text: ORM_XML }] }) },
  {
    name: "JPA-annotated Java sources",
    context: async () => {
      const dir = mkdtempSync(join(tmpdir(), "extent-cascade-java-"));
      dirs.push(dir);
      for (const [file, text] of Object.entries(JAVA)) writeFileSync(join(dir, file), text);
      const read = await readJavaModel([dir]);
      assert.deepEqual(read.problems, []);
      return { documents: read.documents, jpaClasses: read.jpaClasses };
    },
  },
  { name: "JPA decorators", context: async () => ({ classes: [Parent, Child, Extra, Tag] }) },
  { name: "JDO decorators", context: async () => ({ classes: [JdoParent, JdoChild, JdoExtra, JdoTag] }), jdo: true },
  { name: "plain object form", context: async () => ({ models: [OBJECT_FORM] }) },
];

for (const form of FORMS) {
  describe(form.name, () => {
    test("the model says which relations cascade, which remove orphans, which references are required", async () => {
      const h = await startHarness(await form.context());
      try {
        const parent = h.model.classes.get("org.f.Parent")!;
        const children = parent.fields.get("children")!;
        const extras = parent.fields.get("extras")!;
        assert.deepEqual([children.dependent, children.orphanRemoval], [true, true]);
        // A JDO dependent-element removes orphans too; JPA's cascade REMOVE alone does not.
        assert.deepEqual([extras.dependent, extras.orphanRemoval], [true, form.jdo === true]);
        assert.equal(h.model.classes.get("org.f.Child")!.fields.get("parent")!.nullable, false);
        assert.equal(h.model.classes.get("org.f.Tag")!.fields.get("parent")!.nullable, false);
      } finally {
        h.close();
      }
    });

    test("delete cascades; a PUT deletes orphans where the relation says so; a required reference refuses (409), nothing written", async () => {
      const h = await startHarness(await form.context());
      try {
        const ok = (r: { status: number; text: string }, status: number) => assert.equal(r.status, status, r.text);
        ok(await h.post("/org.f.Parent", { id: 1, children: [{ id: 1 }, { id: 2 }], extras: [{ id: 1 }, { id: 2 }] }), 201);
        ok(await h.put("/org.f.Parent/1", { children: [{ id: 1 }], extras: [{ id: 1 }] }), 200);
        assert.deepEqual(await h.sql('SELECT "id" FROM "Child" ORDER BY 1'), [[1]]);
        // Extra 2 released: deleted where the relation removes orphans, else left without a parent.
        assert.deepEqual(
          await h.sql('SELECT "id", "parent" FROM "Extra" ORDER BY 1'),
          form.jdo
            ? [[1, 1]]
            : [
                [1, 1],
                [2, null],
              ],
        );
        ok(await h.post("/org.f.Tag", { id: 1, parent: { id: 1 } }), 201);
        const before = await databaseDigest(h.sql);
        const refused = await h.del("/org.f.Parent/1");
        ok(refused, 409);
        assert.deepEqual(
          refused.body.errors.map((e: { path: string }) => e.path),
          ["org.f.Tag.parent"],
        );
        assert.match(refused.body.detail, /1 org\.f\.Tag object refers to an object it deletes through org\.f\.Tag\.parent/);
        assert.equal(await databaseDigest(h.sql), before);
        ok(await h.del("/org.f.Tag/1"), 204);
        ok(await h.del("/org.f.Parent/1"), 204);
        assert.deepEqual(await h.sql('SELECT count(*) FROM "Child"'), [[0]]);
        assert.deepEqual(await h.sql('SELECT "id" FROM "Extra" ORDER BY 1'), form.jdo ? [] : [[2]]);
      } finally {
        h.close();
      }
    });
  });
}
