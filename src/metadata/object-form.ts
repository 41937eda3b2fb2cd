/**
 * The plain object form of metadata: a model written as a TypeScript/JSON object, in JDO's
 * vocabulary, for code that has no XML files (edge runtimes, tests, generated models).
 *
 *   defineModel({ package: "org.example", classes: {
 *     Person: { identityType: "application", fields: { id: { type: "long", primaryKey: true, valueStrategy: "increment" }, name: "String" } },
 *   } })
 *
 * A field given as a string is just its type. Validated with valibot; problems name the path.
 */
import * as v from "valibot";
import type { ClassDecl, FieldDecl, MetadataDocument } from "./declarations.ts";
import { ModelError, type ModelProblem } from "./problems.ts";

const Bool = v.optional(v.boolean());
const Str = v.optional(v.string());

const ColumnSchema = v.object({
  name: Str,
  jdbcType: Str,
  sqlType: Str,
  length: v.optional(v.number()),
  scale: v.optional(v.number()),
  allowsNull: Bool,
  defaultValue: Str,
});

const FieldSchema = v.strictObject({
  type: Str,
  elementType: Str,
  collectionKind: v.optional(v.picklist(["set", "list", "collection", "array"])),
  keyType: Str,
  valueType: Str,
  persistenceModifier: v.optional(v.picklist(["persistent", "transactional", "none"])),
  primaryKey: Bool,
  valueStrategy: Str,
  nullValue: v.optional(v.picklist(["none", "exception", "default"])),
  defaultFetchGroup: Bool,
  mappedBy: Str,
  embedded: Bool,
  embeddedColumns: v.optional(v.record(v.string(), v.string())),
  column: v.optional(v.union([v.string(), ColumnSchema])),
  joinTable: Str,
  join: v.optional(v.union([v.boolean(), v.object({ column: Str })])),
  elementColumn: Str,
  keyColumn: Str,
  valueColumn: Str,
  orderColumn: Str,
  enumConstants: v.optional(v.array(v.string())),
  dependent: Bool,
  orphanRemoval: Bool,
});

const ClassSchema = v.strictObject({
  identityType: v.optional(v.picklist(["application", "datastore", "nondurable"])),
  objectIdClass: Str,
  superclass: Str,
  embeddedOnly: Bool,
  abstract: Bool,
  entityName: Str,
  table: Str,
  datastoreIdentity: v.optional(v.object({ strategy: Str, column: Str })),
  inheritance: v.optional(
    v.object({
      strategy: v.optional(v.picklist(["new-table", "superclass-table", "subclass-table", "complete-table"])),
      discriminator: v.optional(v.object({ strategy: v.optional(v.picklist(["class-name", "value-map", "none"])), column: Str, value: Str })),
    }),
  ),
  version: v.optional(v.object({ strategy: Str, column: Str, fieldName: Str })),
  fetchGroups: v.optional(v.record(v.string(), v.array(v.string()))),
  fields: v.optional(v.record(v.string(), v.union([v.string(), FieldSchema])), {}),
});

const ModelSchema = v.strictObject({
  package: Str,
  classes: v.record(v.string(), ClassSchema),
});

export type ObjectModel = v.InferInput<typeof ModelSchema>;

/** Identity for type inference in user code: `defineModel({...})`. */
export function defineModel(model: ObjectModel): ObjectModel {
  return model;
}

export function readObjectModel(input: unknown, sourceName = "model object"): MetadataDocument {
  const parsed = v.safeParse(ModelSchema, input);
  if (!parsed.success) {
    const problems: ModelProblem[] = parsed.issues.map((issue) => {
      const path = (issue.path ?? []).map((p) => String(p.key));
      const classIdx = path.indexOf("classes");
      const fieldIdx = path.indexOf("fields");
      return {
        file: sourceName,
        class: classIdx >= 0 ? path[classIdx + 1] : undefined,
        field: fieldIdx >= 0 ? path[fieldIdx + 1] : undefined,
        message: `${path.join(".") || "model"}: ${issue.message}`,
      };
    });
    throw new ModelError(problems);
  }
  const model = parsed.output;
  const qualify = (name: string) => (name.includes(".") || !model.package ? name : `${model.package}.${name}`);
  const source = { file: sourceName };
  const classes: ClassDecl[] = Object.entries(model.classes).map(([name, c]) => ({
    name: qualify(name),
    source,
    identityType: c.identityType,
    objectIdClass: c.objectIdClass,
    superclass: c.superclass && qualify(c.superclass),
    embeddedOnly: c.embeddedOnly,
    abstract: c.abstract,
    entityName: c.entityName,
    table: c.table,
    datastoreIdentity: c.datastoreIdentity,
    inheritance: c.inheritance,
    version: c.version,
    fetchGroups: Object.entries(c.fetchGroups ?? {}).map(([g, fields]) => ({ name: g, source, fields })),
    fields: Object.entries(c.fields).map(([fieldName, f]): FieldDecl => {
      if (typeof f === "string") return { name: fieldName, source, typeName: qualifyType(f, qualify) };
      const { type, column, join, embeddedColumns, elementType, ...rest } = f;
      return {
        ...rest,
        name: fieldName,
        source,
        typeName: type && qualifyType(type, qualify),
        elementType: elementType && qualifyType(elementType, qualify),
        column: typeof column === "string" ? { name: column } : column,
        join: join === true ? {} : join === false ? undefined : join,
        embeddedFields: embeddedColumns && Object.entries(embeddedColumns).map(([n, col]) => ({ name: n, source, column: { name: col } })),
      };
    }),
  }));
  return { source: sourceName, classes };
}

/** Capitalized names that are not Java's own are classes of the model's package. */
function qualifyType(type: string, qualify: (n: string) => string): string {
  return /^[A-Z][\w$]*$/.test(type) && !["String", "Boolean", "Byte", "Short", "Integer", "Long", "Float", "Double", "Character"].includes(type)
    ? qualify(type)
    : type;
}
