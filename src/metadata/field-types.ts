/**
 * Resolving a field's declared type names into a `FieldType`, against the classes of the model.
 */
import type { ClassDecl, FieldDecl } from "./declarations.ts";
import { basicType, canonicalTypeName, collectionKind, isMapType } from "./java-types.ts";
import type { FieldType, ValueType } from "./model.ts";

export interface TypeContext {
  classes: ReadonlyMap<string, ClassDecl>;
  /** The class whose field is being resolved. */
  owner: ClassDecl;
  /** The key class of the owner's hierarchy, when it has one. */
  keyClass?: string;
}

/** `optional`: the field was declared `java.util.Optional<T>` and `type` is T's. */
export type Resolved = { ok: true; type: FieldType; optional?: boolean } | { ok: false; message: string };

/** `java.util.Optional<T>` (or `Optional<T>`): T, else undefined. */
export function optionalOf(typeName: string): string | undefined {
  const m = /^(?:java\.util\.)?Optional\s*(?:<\s*(.*?)\s*>)?$/.exec(typeName.trim());
  return m ? (m[1] ?? "") : undefined;
}

function qualify(name: string, ctx: TypeContext): string {
  const canonical = canonicalTypeName(name);
  if (canonical.includes(".") || canonical.endsWith("[]")) return canonical;
  // An unqualified class name is relative to the owner's package.
  const dot = ctx.owner.name.lastIndexOf(".");
  const qualified = dot < 0 ? canonical : `${ctx.owner.name.slice(0, dot)}.${canonical}`;
  return ctx.classes.has(qualified) ? qualified : canonical;
}

/** A single value type: basic, enum (when constants are declared), embedded, reference or ancestor key. */
function valueType(name: string, field: FieldDecl, ctx: TypeContext, role: string): ValueType | string {
  const basic = basicType(name);
  if (basic) return { kind: "basic", basic: basic.basic, primitive: basic.primitive };
  const qualified = qualify(name, ctx);
  if (ctx.keyClass && qualified === ctx.keyClass) return { kind: "key", class: qualified };
  const target = ctx.classes.get(qualified);
  if (target) {
    return target.embeddedOnly || (field.embedded && role === "field") ? { kind: "embedded", class: qualified } : { kind: "ref", class: qualified };
  }
  if (field.enumConstants?.length) return { kind: "enum", name: qualified, constants: field.enumConstants };
  return `unknown ${role} type "${name}": not a supported Java type, not a persistent class of the model, and not an enum with an "enum-constants" extension`;
}

export function resolveFieldType(field: FieldDecl, ctx: TypeContext): Resolved {
  const inner = field.typeName ? optionalOf(field.typeName) : undefined;
  if (inner !== undefined) return resolveOptional(field, inner, ctx);
  const typeName = field.typeName?.trim();
  const fail = (message: string): Resolved => ({ ok: false, message });
  const single = (name: string, role: string): ValueType | string => valueType(name, field, ctx, role);

  const map = typeName ? isMapType(typeName) : undefined;
  if (map || (!typeName && (field.keyType || field.valueType))) {
    const keyName = field.keyType ?? map?.key;
    const valueName = field.valueType ?? map?.value;
    if (!keyName || !valueName) return fail("a map needs its key and value types (<map key-type value-type>)");
    const key = single(keyName, "map key");
    const value = single(valueName, "map value");
    if (typeof key === "string") return fail(key);
    if (typeof value === "string") return fail(value);
    if (![key, value].every(isPlainValue)) return fail("maps may hold basic values and enums only (a map of persistent objects is not supported)");
    return { ok: true, type: { kind: "map", key, value } };
  }

  const coll = typeName ? collectionKind(typeName) : undefined;
  if (coll || (!typeName && (field.elementType || field.collectionKind))) {
    const elementName = field.elementType ?? coll?.element;
    if (!elementName) return fail("a collection needs its element type (<collection element-type>)");
    const element = single(elementName, "element");
    if (typeof element === "string") return fail(element);
    if (element.kind === "embedded" || element.kind === "key") return fail(`collections of ${element.kind} objects are not supported`);
    return { ok: true, type: { kind: "collection", collection: coll?.kind ?? field.collectionKind ?? "collection", element } };
  }

  if (!typeName) return fail('the field has no type: add field-type="..." (JDO) or attribute-type="..." (JPA)');
  const value = single(typeName, "field");
  return typeof value === "string" ? fail(value) : { ok: true, type: value };
}

const isPlainValue = (t: ValueType): boolean => t.kind === "basic" || t.kind === "enum";

/**
 * `java.util.Optional<T>` holds one value: T is resolved as the field's type, and an empty Optional
 * is null (JDO 3.2 §14.6.2 queries it so: `opt == null` is `!opt.isPresent()`).
 */
function resolveOptional(field: FieldDecl, inner: string, ctx: TypeContext): Resolved {
  if (!inner) return { ok: false, message: 'an Optional field needs its value type: field-type="java.util.Optional<T>"' };
  if (collectionKind(inner) || isMapType(inner) || optionalOf(inner) !== undefined)
    return { ok: false, message: `an Optional field holds one value (a basic value, an enum or a persistent object), not "${inner}"` };
  const basic = basicType(inner);
  if (basic?.primitive) return { ok: false, message: `Optional<${inner}> is not Java: an Optional holds an object (use the wrapper class)` };
  const value = valueType(inner, field, ctx, "Optional value");
  if (typeof value === "string") return { ok: false, message: value };
  if (value.kind === "embedded" || value.kind === "key")
    return { ok: false, message: `an Optional of an ${value.kind === "key" ? "key class" : "embedded object"} is not supported` };
  return { ok: true, type: value, optional: true };
}
