/**
 * JSON Schema 2020-12 for each class's JSON, as src/read/serialize.ts writes it and
 * src/mapping/read-graph.ts reads it (contract §4), for `components.schemas`:
 *
 * - `C`: what GET answers. A class with subclasses is a `oneOf` over its own shape (`C-self`, left
 *   out when abstract) and its subclasses' schemas, with a `discriminator` on `class`.
 * - `C-identity`: a reference written as identity only: `class` and the key fields (or `_id`).
 * - `C-write`: what POST accepts: nothing the server sets is required (generated keys, `_version`),
 *   unknown fields are refused (422), so `additionalProperties` is false; `class` picks a subclass,
 *   so a class with subclasses is an `anyOf` (`class` may be absent) with a discriminator.
 * - `C-update`: what PUT accepts: the same, nothing required.
 * - `C-key`: a composite key as a path segment's JSON object.
 */
import type { BasicKind, ClassMeta, FieldMeta, FieldType, Model, ValueType } from "../metadata/model.ts";
import { classOf, subtree } from "../metadata/model.ts";

export type Schema = Record<string, unknown>;
type Mode = "read" | "write";

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const EPOCH = "epoch milliseconds (UTC)";

/** A value's schema by Java kind (src/json/values.ts: encodeValue writes, decodeValue reads). */
function basicSchema(kind: BasicKind, mode: Mode): Schema {
  // Input also takes ISO-8601 text for dates and times, and a numeric string for BigDecimal.
  const orText = (s: Schema, text: Schema): Schema => (mode === "write" ? { anyOf: [s, text] } : s);
  switch (kind) {
    case "boolean":
      return { type: "boolean" };
    case "byte":
      return { type: "integer", format: "int32", minimum: -128, maximum: 127 };
    case "short":
      return { type: "integer", format: "int32", minimum: -32768, maximum: 32767 };
    case "int":
      return { type: "integer", format: "int32" };
    case "long":
      return { type: "integer", format: "int64", description: "a long: every digit is kept, past 2^53 too" };
    case "biginteger":
      return { type: "integer", format: "int64", description: "a BigInteger, stored in 64 bits" };
    case "float":
      return { type: "number", format: "float" };
    case "double":
      return { type: "number", format: "double" };
    case "decimal":
      return orText({ type: "number", description: "a BigDecimal: its digits, exactly" }, { type: "string", pattern: "^-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?$" });
    case "char":
      return { type: "string", minLength: 1, maxLength: 1, description: "a char: one UTF-16 unit" };
    case "string":
      return { type: "string" };
    case "uuid":
      return { type: "string", format: "uuid" };
    case "bytes":
      return { type: "string", format: "byte", contentEncoding: "base64", description: "a byte[], base64" };
    case "local-date":
      return orText({ type: "integer", format: "int64", description: `a LocalDate: its UTC midnight in ${EPOCH}` }, { type: "string", format: "date" });
    case "local-time":
      return orText(
        { type: "integer", minimum: 0, maximum: 86_399_999, description: "a LocalTime: milliseconds since midnight" },
        { type: "string", pattern: "^\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?$" },
      );
    default:
      return orText({ type: "integer", format: "int64", description: `a ${kind}: ${EPOCH}` }, { type: "string", description: "ISO-8601" });
  }
}

/** The schema plus null. */
export function orNull(s: Schema): Schema {
  if (typeof s.type === "string" && !("anyOf" in s)) {
    const out: Schema = { ...s, type: [s.type, "null"] };
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null];
    return out;
  }
  return { anyOf: [s, { type: "null" }] };
}

export class SchemaWriter {
  constructor(private readonly model: Model) {}

  private value(type: ValueType, mode: Mode, depth = 0): Schema {
    switch (type.kind) {
      case "basic":
        return basicSchema(type.basic, mode);
      case "enum":
        // Written by constant name; read by name or ordinal.
        return mode === "read"
          ? { type: "string", enum: [...type.constants] }
          : {
              anyOf: [
                { type: "string", enum: [...type.constants] },
                { type: "integer", minimum: 0 },
              ],
            };
      case "ref":
        // Nested to the fetch depth, else the identity only (which the full schema admits too).
        return mode === "read" ? { anyOf: [ref(type.class), ref(`${type.class}-identity`)] } : ref(`${type.class}-write`);
      case "embedded":
        return this.embedded(classOf(this.model, type.class), mode, depth);
      case "key":
        return { type: "object", description: "an ancestor key: the key fields of the parent object, with the key class as `class`" };
    }
  }

  /** An embedded object, inline: its fields, each written as a value. */
  private embedded(meta: ClassMeta, mode: Mode, depth: number): Schema {
    if (depth > 4) return { type: "object" };
    const properties: Record<string, Schema> = {};
    for (const f of meta.fields.values()) properties[f.name] = this.field(f, mode, depth + 1);
    return { type: "object", description: `an embedded ${meta.name}`, properties, ...(mode === "write" ? { additionalProperties: false } : {}) };
  }

  field(field: FieldMeta, mode: Mode, depth = 0): Schema {
    const t: FieldType = field.type;
    let s: Schema;
    // Elements of a collection or a map may be null (src/json/values.ts decodeContainer).
    if (t.kind === "collection") s = { type: "array", items: field.relation ? this.value(t.element, mode, depth) : orNull(this.value(t.element, mode, depth)) };
    else if (t.kind === "map") s = { type: "object", additionalProperties: orNull(this.value(t.value, mode, depth)) };
    else s = this.value(t, mode, depth);
    if (field.isVersionField) s = { type: "integer", description: "the object's version, as `_version`", ...(mode === "write" ? { readOnly: true } : {}) };
    return field.nullable || t.kind !== "basic" ? orNull(s) : s;
  }

  /** The classes an object of `meta`'s type can be at run time: `class` is always the runtime class. */
  private runtimeClasses(meta: ClassMeta): string[] {
    const all = subtree(this.model, meta.name);
    const concrete = all.filter((c) => !c.abstract);
    return (concrete.length ? concrete : all).map((c) => c.name);
  }

  /** The key fields (or `_id`) as a write reads them. */
  private identityProperties(meta: ClassMeta, mode: Mode): Record<string, Schema> {
    const id = meta.identity;
    if (id.kind === "datastore") return { _id: id.generation.kind === "sequence" ? { type: "integer", format: "int64" } : { type: "string" } };
    const out: Record<string, Schema> = {};
    for (const name of id.fields) {
      const f = meta.fields.get(name)!;
      out[name] = f.type.kind === "key" ? orNull(this.value(f.type, mode)) : this.value(f.type as ValueType, mode);
    }
    return out;
  }

  private keyNames(meta: ClassMeta): string[] {
    return meta.identity.kind === "datastore" ? ["_id"] : [...meta.identity.fields];
  }

  /** `C`'s own read shape: class, identity, `_version`, every field (each absent unless in the fetch plan). */
  private readSelf(meta: ClassMeta, classes: string[]): Schema {
    const properties: Record<string, Schema> = {
      class: { type: "string", enum: classes, description: "the object's runtime class" },
      ...this.identityProperties(meta, "read"),
    };
    const required = ["class", ...this.keyNames(meta)];
    if (meta.version) {
      properties._version = { type: "integer", minimum: 1, description: "the version: 1 on insert, +1 on every change; also the ETag" };
      required.push("_version");
    }
    for (const f of meta.fields.values()) if (!(f.name in properties)) properties[f.name] = this.field(f, "read");
    return { type: "object", title: meta.simpleName, description: `A ${meta.name} as GET writes it: the fields of the fetch plan.`, properties, required };
  }

  private writeSelf(meta: ClassMeta, partial: boolean): Schema {
    const keys = this.keyNames(meta);
    const properties: Record<string, Schema> = {
      class: { type: "string", enum: subtree(this.model, meta.name).map((c) => c.name), description: "the class to create (absent: this class)" },
      ...this.identityProperties(meta, "write"),
      _version: { type: ["integer", "null"], description: "ignored: the server sets the version (use If-Match to check it)" },
    };
    for (const f of meta.fields.values()) if (!keys.includes(f.name)) properties[f.name] = this.field(f, "write");
    const generated = (name: string) =>
      meta.identity.kind === "datastore" || meta.fields.get(name)?.generation.kind !== "none" || meta.fields.get(name)?.type.kind === "key";
    const required = partial ? [] : keys.filter((k) => !generated(k));
    return { type: "object", properties, additionalProperties: false, ...(required.length ? { required } : {}) };
  }

  /** Every schema of a class, by name, into `out`. */
  addClass(meta: ClassMeta, out: Record<string, Schema>): void {
    const name = meta.name;
    const own = meta.subclasses.length > 0;
    const self = this.readSelf(meta, own ? [name] : this.runtimeClasses(meta));
    if (!own) out[name] = self;
    else {
      const options = [...(meta.abstract ? [] : [name]), ...meta.subclasses];
      out[`${name}-self`] = self;
      const mapping: Record<string, string> = {};
      for (const c of subtree(this.model, name)) mapping[c.name] = `#/components/schemas/${c.name === name ? `${name}-self` : c.name}`;
      out[name] = {
        description: `A ${name} or one of its subclasses, told apart by \`class\`.`,
        oneOf: (options.length ? options : [name]).map((c) => ref(c === name ? `${name}-self` : c)),
        discriminator: { propertyName: "class", mapping },
      };
    }
    const keyProps = this.identityProperties(meta, "read");
    out[`${name}-identity`] = {
      type: "object",
      description: `A ${name} written as its identity only (beyond the fetch depth, or outside the fetch plan).`,
      properties: { class: { type: "string", enum: this.runtimeClasses(meta) }, ...keyProps },
      required: ["class", ...this.keyNames(meta)],
    };
    for (const [suffix, partial] of [
      ["write", false],
      ["update", true],
    ] as const) {
      const s = this.writeSelf(meta, partial);
      if (!own) out[`${name}-${suffix}`] = s;
      else {
        out[`${name}-${suffix}-self`] = s;
        const mapping: Record<string, string> = {};
        for (const c of subtree(this.model, name))
          mapping[c.name] = `#/components/schemas/${c.name}-${suffix}${c.name === name || c.subclasses.length ? "-self" : ""}`;
        out[`${name}-${suffix}`] = {
          description: `What ${suffix === "write" ? "POST" : "PUT"} accepts: \`class\` names a subclass (absent: ${name}).`,
          anyOf: [name, ...meta.subclasses].map((c) => ref(c === name ? `${name}-${suffix}-self` : `${c}-${suffix}`)),
          discriminator: { propertyName: "class", mapping },
        };
      }
    }
    if (this.keyNames(meta).length > 1 || (meta.identity.kind === "application" && meta.fields.get(meta.identity.fields[0]!)?.type.kind === "key")) {
      out[`${name}-key`] = {
        type: "object",
        description: `A key of ${name}: its key fields as a JSON object (URL-encoded in a path).`,
        properties: { class: { type: "string" }, ...this.identityProperties(meta, "write") },
        required: this.keyNames(meta).filter((k) => meta.fields.get(k)?.type.kind !== "key"),
      };
    }
  }
}
