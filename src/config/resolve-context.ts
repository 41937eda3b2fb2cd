/**
 * Resolves a named persistence context from configuration files given as text. Pure (no file
 * system): the CLI reads the folder with `loadConfigDir`, while edge runtimes can pass bundled
 * strings. Every problem names its file, so a broken configuration is fixed in one pass.
 *
 * Lookup order: a jdoconfig.xml `persistence-manager-factory` named NAME, else a persistence.xml
 * `persistence-unit` named NAME. A factory may point at a unit (`javax.jdo.option.PersistenceUnitName`);
 * the unit then supplies what the factory lacks, and the factory's own properties win.
 */
import { type MetadataText, type PersistenceContext, SYNCHRONOUS_PROPERTY, parseSynchronous } from "./context.ts";
import { normalizeConnectionUrl } from "./connection-url.ts";
import { parseJdoConfig, parsePersistenceXml, type FactoryDecl, type PersistenceUnitDecl } from "./persistence-xml.ts";
import type { ModelProblem } from "../metadata/problems.ts";
import { accessFromProperties } from "./access.ts";
import { CORS_PROPERTY, resolveCors } from "./cors.ts";
import { LIMIT_NAMES, LIMIT_PROPERTY, type Limits, parseLimit } from "./limits.ts";

const PERSISTENCE_FILES = ["persistence.xml", "META-INF/persistence.xml"];
const JDOCONFIG_FILES = ["jdoconfig.xml", "META-INF/jdoconfig.xml"];

/** Connection URL and auth token properties, in the order they are looked for. */
const URL_KEYS = ["javax.jdo.option.ConnectionURL", "jakarta.persistence.jdbc.url", "javax.persistence.jdbc.url", "datanucleus.ConnectionURL"];
const TOKEN_KEYS = [
  "javax.jdo.option.ConnectionPassword",
  "jakarta.persistence.jdbc.password",
  "javax.persistence.jdbc.password",
  "datanucleus.ConnectionPassword",
];
const PU_NAME = "javax.jdo.option.PersistenceUnitName";
const METADATA_FILES = "extent.metadata.files";
/** Modules exporting decorated classes (TypeScript or JavaScript), relative to DIR. */
const CLASS_MODULES = "extent.classes";
/** Folders of Java sources (comma-separated, relative to DIR). */
export const JAVA_SOURCES = "extent.java.sources";

/** Where the Java model is read from, and which of its classes the unit lists. */
export interface JavaSourcesDecl {
  /** Folders relative to DIR. */
  folders: string[];
  /** Whether the folders were named (a missing one is then a problem), or found by Maven's layout. */
  explicit: boolean;
  classes: string[];
  excludeUnlisted: boolean;
  /** The declaration listing the classes, for a problem with one. */
  listedIn?: { file: string; line?: number };
}

/** DIR a Maven/Gradle `src/main/resources` (or its META-INF): the sibling `src/main/java`, relative to DIR. */
function mavenJavaFolder(dir: string): string | undefined {
  const path = normalizePath(dir).replace(/\/+$/, "");
  if (/(^|\/)src\/main\/resources$/.test(path)) return "../java";
  if (/(^|\/)src\/main\/resources\/META-INF$/.test(path)) return "../../java";
  return undefined;
}

type Decl = { kind: "persistence-unit"; decl: PersistenceUnitDecl } | { kind: "persistence-manager-factory"; decl: FactoryDecl };

/** `a/./b/../c` → `a/c`, `\` → `/`; absolute paths keep their leading `/`. */
function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length && parts[parts.length - 1] !== "..") parts.pop();
    else parts.push(part);
  }
  return (absolute ? "/" : "") + parts.join("/");
}

function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function firstProperty(props: Record<string, string> | undefined, keys: string[]): { key: string; value: string } | undefined {
  for (const key of keys) {
    const value = props?.[key]?.trim();
    if (value) return { key, value };
  }
  return undefined;
}

function describe(d: Decl): string {
  return `${d.kind} "${d.decl.name}"`;
}

function problemAt(d: Decl, message: string): ModelProblem {
  return { file: d.decl.source.file, line: d.decl.source.line, message: `${describe(d)}: ${message}` };
}

/**
 * @param files configuration and metadata files by path relative to the configuration folder DIR
 * @param name the persistence context to resolve
 * @param dir how DIR is named in the problem raised when it holds no configuration file at all
 */
export function resolveContext(
  files: Map<string, string>,
  name: string,
  dir = ".",
): { context: PersistenceContext; problems: ModelProblem[]; classModules: string[]; java?: JavaSourcesDecl } {
  const problems: ModelProblem[] = [];
  const classModules: string[] = [];
  const context: PersistenceContext = { name, url: "" };

  const units: PersistenceUnitDecl[] = [];
  const factories: FactoryDecl[] = [];
  const configFiles = [...PERSISTENCE_FILES, ...JDOCONFIG_FILES].filter((f) => files.has(f));
  for (const file of configFiles) {
    if (PERSISTENCE_FILES.includes(file)) {
      const r = parsePersistenceXml(files.get(file)!, file);
      units.push(...r.units);
      problems.push(...r.problems);
    } else {
      const r = parseJdoConfig(files.get(file)!, file);
      factories.push(...r.factories);
      problems.push(...r.problems);
    }
  }
  if (configFiles.length === 0) {
    problems.push({ file: dir, message: "no persistence.xml or jdoconfig.xml, neither in the folder nor in its META-INF/" });
    return { context, problems, classModules };
  }

  // Which declarations make up the context: a factory, a unit, or a factory pointing at a unit.
  const factory = factories.find((f) => f.name === name);
  let unit = factory ? undefined : units.find((u) => u.name === name);
  const factoryDecl: Decl | undefined = factory && { kind: "persistence-manager-factory", decl: factory };
  const unitName = factory?.properties[PU_NAME]?.trim();
  if (factoryDecl && unitName) {
    unit = units.find((u) => u.name === unitName);
    if (!unit) {
      const found = units.map((u) => `"${u.name}"`).join(", ");
      problems.push(
        problemAt(
          factoryDecl,
          `${PU_NAME} names persistence-unit "${unitName}", which ${units.length ? `is not declared (found: ${found})` : "is not declared: there is no persistence-unit"}`,
        ),
      );
    }
  }
  const unitDecl: Decl | undefined = unit && { kind: "persistence-unit", decl: unit };
  if (!factoryDecl && !unitDecl) {
    const found = [...factories.map((f) => `persistence-manager-factory "${f.name}"`), ...units.map((u) => `persistence-unit "${u.name}"`)];
    problems.push({
      file: configFiles.join(", "),
      message: `no persistence-unit or persistence-manager-factory is named "${name}" (${found.length ? `found: ${found.join(", ")}` : "none is declared"})`,
    });
    return { context, problems, classModules };
  }
  const owner = (factoryDecl ?? unitDecl)!;

  // Connection: the factory's own properties first, then the unit's.
  const urlFrom = factoryDecl && firstProperty(factory!.properties, URL_KEYS) ? factoryDecl : unitDecl;
  const url = urlFrom && firstProperty(urlFrom.decl.properties, URL_KEYS);
  if (!url) {
    problems.push(problemAt(owner, `no connection URL (set one of ${URL_KEYS.join(", ")})`));
  } else {
    try {
      context.url = normalizeConnectionUrl(url.value);
    } catch (e) {
      problems.push(problemAt(urlFrom!, `bad ${url.key}: ${(e as Error).message}`));
    }
  }
  const token = firstProperty(factory?.properties, TOKEN_KEYS) ?? firstProperty(unit?.properties, TOKEN_KEYS);
  if (token) context.authToken = token.value;

  // Metadata: the factory's extent.metadata.files replace the unit's mapping files.
  const listed = factory?.properties[METADATA_FILES];
  const metadataFrom: Decl | undefined = listed !== undefined ? factoryDecl : unitDecl;
  const paths =
    listed !== undefined
      ? listed
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : (unit?.mappingFiles ?? []);
  const metadata: MetadataText[] = [];
  for (const path of paths) {
    // Relative to DIR; failing that, relative to the folder of the file that lists it (META-INF/).
    const folder = folderOf(metadataFrom!.decl.source.file);
    const candidates = [...new Set([normalizePath(path), normalizePath(folder ? `${folder}/${path}` : path)])];
    const found = candidates.find((c) => files.has(c));
    if (found === undefined) {
      problems.push(problemAt(metadataFrom!, `mapping file "${path}" not found (looked for ${candidates.map((c) => `"${c}"`).join(", ")})`));
    } else if (!metadata.some((m) => m.source === found)) {
      metadata.push({ source: found, text: files.get(found)! });
    }
  }
  context.metadata = metadata;

  const properties = { ...unit?.properties, ...factory?.properties };
  // Decorated classes live in code: the runtime entry imports these modules (this module cannot).
  for (const path of (properties[CLASS_MODULES] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean))
    classModules.push(normalizePath(path));
  const javaListed = properties[JAVA_SOURCES]?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const maven = mavenJavaFolder(dir);
  const java: JavaSourcesDecl | undefined =
    javaListed?.length || maven
      ? {
          folders: javaListed?.length ? javaListed.map(normalizePath) : [maven!],
          explicit: !!javaListed?.length,
          classes: unit?.classes ?? [],
          excludeUnlisted: unit?.excludeUnlistedClasses ?? false,
          listedIn: unit?.source,
        }
      : undefined;
  const off = (key: string) => properties[key]?.trim().toLowerCase() === "false";
  context.autoCreateSchema = !(off("datanucleus.schema.autoCreateAll") || off("extent.schema.autoCreate"));

  // Limits: extent.limit.body-bytes and the like, the factory's over the unit's.
  const limits: Partial<Limits> = {};
  for (const name of Object.keys(LIMIT_NAMES) as (keyof Limits)[]) {
    const key = LIMIT_PROPERTY(name);
    const text = properties[key];
    if (text === undefined) continue;
    const parsed = parseLimit(name, text);
    if (parsed.ok) limits[name] = parsed.value;
    else problems.push(problemAt(factory?.properties[key] !== undefined ? factoryDecl! : unitDecl!, `${key} ${parsed.message}`));
  }
  if (Object.keys(limits).length) context.limits = limits;
  // When commits reach the disk (embedded files): full or normal.
  const synchronous = properties[SYNCHRONOUS_PROPERTY];
  if (synchronous !== undefined) {
    const parsed = parseSynchronous(synchronous);
    if (parsed) context.synchronous = parsed;
    else
      problems.push(
        problemAt(
          factory?.properties[SYNCHRONOUS_PROPERTY] !== undefined ? factoryDecl! : unitDecl!,
          `${SYNCHRONOUS_PROPERTY} must be full or normal, got ${JSON.stringify(synchronous)}`,
        ),
      );
  }
  // Access: extent.auth.* and extent.access.file as given, checked by createRestHandler (resolveAccess).
  const access = accessFromProperties(properties);
  if (access) context.access = access;
  // CORS: extent.cors.origins, * or origins separated by commas, checked here to name the file.
  const origins = properties[CORS_PROPERTY];
  if (origins !== undefined) {
    try {
      resolveCors({ origins });
      context.cors = { origins };
    } catch (e) {
      problems.push(problemAt(factory?.properties[CORS_PROPERTY] !== undefined ? factoryDecl! : unitDecl!, (e as Error).message));
    }
  }

  return { context, problems, classModules, ...(java ? { java } : {}) };
}
