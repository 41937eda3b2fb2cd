/**
 * Readers for the two standard configuration files: JPA's `persistence.xml` (persistence units)
 * and JDO's `jdoconfig.xml` (persistence-manager factories). They only collect what the files
 * say; `resolveContext` decides which unit or factory to use and what its properties mean.
 */
import type { SourceRef } from "../metadata/declarations.ts";
import { parseXmlTree, type XmlElement } from "../metadata/xml-tree.ts";
import type { ModelProblem } from "../metadata/problems.ts";

export interface PersistenceUnitDecl {
  name: string;
  source: SourceRef;
  /** `<mapping-file>` entries, as written (relative paths). */
  mappingFiles: string[];
  /** `<properties><property name value/></properties>`. */
  properties: Record<string, string>;
  /** `<class>` entries: classes of the unit, as Java names them (absent when there are none). */
  classes?: string[];
  /** `<exclude-unlisted-classes>` (an empty element means true, as in JPA); absent when not written. */
  excludeUnlistedClasses?: boolean;
}

export interface FactoryDecl {
  /** The factory's name; `""` for JDO's unnamed (default) factory. */
  name: string;
  source: SourceRef;
  /** `<property>` children and the standard attributes, all under their `javax.jdo.*` property names. */
  properties: Record<string, string>;
}

function problem(file: string, el: XmlElement, message: string): ModelProblem {
  return { file, line: el.line, message };
}

/** Reads `<property name value>` elements into `into`; a nameless one is a problem. */
function readProperties(els: XmlElement[], into: Record<string, string>, file: string, problems: ModelProblem[]): void {
  for (const p of els) {
    const name = p.attrs["name"];
    if (!name) problems.push(problem(file, p, "<property> without a name attribute"));
    else into[name] = p.attrs["value"] ?? p.text;
  }
}

export function parsePersistenceXml(text: string, file: string): { units: PersistenceUnitDecl[]; problems: ModelProblem[] } {
  const { root, problems } = parseXmlTree(text, file);
  if (!root) return { units: [], problems };
  if (root.name !== "persistence") {
    return { units: [], problems: [problem(file, root, `expected a <persistence> root element, found <${root.name}>`)] };
  }
  const units: PersistenceUnitDecl[] = [];
  for (const el of root.children.filter((c) => c.name === "persistence-unit")) {
    const name = el.attrs["name"];
    if (!name) {
      problems.push(problem(file, el, "<persistence-unit> without a name attribute"));
      continue;
    }
    if (units.some((u) => u.name === name)) problems.push(problem(file, el, `persistence-unit "${name}" is declared twice`));
    const mappingFiles: string[] = [];
    for (const m of el.children.filter((c) => c.name === "mapping-file")) {
      if (m.text) mappingFiles.push(m.text);
      else problems.push(problem(file, m, `empty <mapping-file> in persistence-unit "${name}"`));
    }
    const properties: Record<string, string> = {};
    for (const ps of el.children.filter((c) => c.name === "properties")) {
      readProperties(
        ps.children.filter((c) => c.name === "property"),
        properties,
        file,
        problems,
      );
    }
    const classes = el.children.filter((c) => c.name === "class" && c.text).map((c) => c.text.trim());
    const exclude = el.children.find((c) => c.name === "exclude-unlisted-classes");
    const excludeUnlistedClasses = exclude !== undefined && (exclude.text.trim() === "" || exclude.text.trim().toLowerCase() === "true");
    units.push({
      name,
      source: { file, line: el.line },
      mappingFiles,
      properties,
      ...(classes.length ? { classes } : {}),
      ...(exclude ? { excludeUnlistedClasses } : {}),
    });
  }
  return { units, problems };
}

/**
 * jdoconfig.xml lets the standard properties be written as attributes of the factory element
 * (JDO 2.1+, section 11.1.2); they mean the same as the `javax.jdo.*` properties.
 */
const FACTORY_ATTRIBUTES: Record<string, string> = {
  class: "javax.jdo.PersistenceManagerFactoryClass",
  "connection-url": "javax.jdo.option.ConnectionURL",
  "connection-user-name": "javax.jdo.option.ConnectionUserName",
  "connection-password": "javax.jdo.option.ConnectionPassword",
  "connection-driver-name": "javax.jdo.option.ConnectionDriverName",
  "connection-factory-name": "javax.jdo.option.ConnectionFactoryName",
  "connection-factory2-name": "javax.jdo.option.ConnectionFactory2Name",
  "persistence-unit-name": "javax.jdo.option.PersistenceUnitName",
  mapping: "javax.jdo.option.Mapping",
  optimistic: "javax.jdo.option.Optimistic",
  "retain-values": "javax.jdo.option.RetainValues",
  "restore-values": "javax.jdo.option.RestoreValues",
  "ignore-cache": "javax.jdo.option.IgnoreCache",
  "nontransactional-read": "javax.jdo.option.NontransactionalRead",
  "nontransactional-write": "javax.jdo.option.NontransactionalWrite",
  multithreaded: "javax.jdo.option.Multithreaded",
  "detach-all-on-commit": "javax.jdo.option.DetachAllOnCommit",
  "copy-on-attach": "javax.jdo.option.CopyOnAttach",
  readonly: "javax.jdo.option.ReadOnly",
  "transaction-type": "javax.jdo.option.TransactionType",
  "transaction-isolation-level": "javax.jdo.option.TransactionIsolationLevel",
  "server-time-zone-id": "javax.jdo.option.ServerTimeZoneID",
  "datastore-read-timeout-millis": "javax.jdo.option.DatastoreReadTimeoutMillis",
  "datastore-write-timeout-millis": "javax.jdo.option.DatastoreWriteTimeoutMillis",
};

export function parseJdoConfig(text: string, file: string): { factories: FactoryDecl[]; problems: ModelProblem[] } {
  const { root, problems } = parseXmlTree(text, file);
  if (!root) return { factories: [], problems };
  if (root.name !== "jdoconfig") {
    return { factories: [], problems: [problem(file, root, `expected a <jdoconfig> root element, found <${root.name}>`)] };
  }
  const factories: FactoryDecl[] = [];
  for (const el of root.children.filter((c) => c.name === "persistence-manager-factory")) {
    const name = el.attrs["name"] ?? "";
    if (factories.some((f) => f.name === name)) {
      problems.push(problem(file, el, name ? `persistence-manager-factory "${name}" is declared twice` : "more than one unnamed persistence-manager-factory"));
    }
    const properties: Record<string, string> = {};
    for (const [attr, value] of Object.entries(el.attrs)) {
      const property = FACTORY_ATTRIBUTES[attr];
      if (property) properties[property] = value;
    }
    // Nested <property> elements come after the attributes, so they win when both say the same thing.
    readProperties(
      el.children.filter((c) => c.name === "property"),
      properties,
      file,
      problems,
    );
    factories.push({ name, source: { file, line: el.line }, properties });
  }
  return { factories, problems };
}
