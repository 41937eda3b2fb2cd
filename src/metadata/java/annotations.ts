/**
 * Annotations resolved: their type's name as Java resolves it, their vocabulary, and their
 * element values evaluated (literals, enum constants by name, class literals as model names,
 * arrays, nested annotations, constants declared in the class or a class it names). A value
 * Extent cannot evaluate is a problem at its place in the source.
 */
import type { ElementValue, JavaAnnotation, JavaPos } from "./syntax.ts";
import type { JavaIndex, TypeEntry } from "./names.ts";
import { vocabularyOf } from "./vocabulary.ts";

export type Value = string | number | boolean | null | Value[] | Annotation;

export interface Annotation {
  /** Fully qualified annotation type. */
  type: string;
  vocabulary?: "jdo" | "jpa";
  /** The simple name within its vocabulary (`Persistent`). */
  name: string;
  at: JavaPos;
  /** Evaluated element values (`value` for a single unnamed one). */
  values: Map<string, Value>;
}

export type Report = (at: JavaPos, message: string) => void;

export class AnnotationReader {
  constructor(
    private readonly index: JavaIndex,
    private readonly report: Report,
  ) {}

  /**
   * The annotations on an element of `from`, meta-annotations expanded: an annotation type
   * declared in the tree passes on the vocabulary annotations it carries (`@Audited` declared
   * `@PersistenceCapable @interface Audited`).
   */
  read(annotations: readonly JavaAnnotation[], from: TypeEntry, seen = new Set<string>()): Annotation[] {
    const out: Annotation[] = [];
    for (const a of annotations) {
      const resolved = this.resolveOne(a, from);
      if (!resolved) continue;
      if (resolved.vocabulary) {
        out.push(resolved);
        continue;
      }
      const declared = this.index.byBinary.get(resolved.type);
      if (declared?.cls.kind === "annotation" && !seen.has(resolved.type)) {
        seen.add(resolved.type);
        out.push(...this.read(declared.cls.annotations, declared, seen).map((m) => ({ ...m, at: a.at })));
      }
    }
    return out;
  }

  private resolveOne(a: JavaAnnotation, from: TypeEntry): Annotation | undefined {
    const type = this.index.resolve(a.name, from);
    if (!type) return undefined;
    const vocabulary = vocabularyOf(type);
    const values = new Map<string, Value>();
    if (vocabulary) for (const [k, v] of a.elements) values.set(k, this.evaluate(v, from));
    return { type, vocabulary: vocabulary?.vocabulary, name: vocabulary?.name ?? type.slice(type.lastIndexOf(".") + 1), at: a.at, values };
  }

  evaluate(v: ElementValue, from: TypeEntry, depth = 0): Value {
    switch (v.kind) {
      case "literal":
        return v.value;
      case "array":
        return v.items.map((i) => this.evaluate(i, from, depth));
      case "annotation":
        return this.resolveOne(v.annotation, from) ?? { type: v.annotation.name, name: v.annotation.name, at: v.at, values: new Map() };
      case "class": {
        const base = this.index.resolve(v.type.name, from);
        if (!base) {
          this.report(v.at, `cannot resolve the class ${v.type.name}`);
          return null;
        }
        return base + "[]".repeat(v.type.dims);
      }
      case "concat": {
        const parts = v.parts.map((p) => this.evaluate(p, from, depth));
        return parts.every((p) => typeof p === "string" || typeof p === "number" || typeof p === "boolean") ? parts.join("") : null;
      }
      case "name":
        return this.named(v.name, v.at, from, depth);
      case "unsupported":
        this.report(v.at, `cannot evaluate the annotation value ${v.text}`);
        return null;
    }
  }

  /** A constant (`TABLE`, `Names.TABLE`) or an enum constant (`IdentityType.APPLICATION`: `APPLICATION`). */
  private named(name: string, at: JavaPos, from: TypeEntry, depth: number): Value {
    const dot = name.lastIndexOf(".");
    const last = name.slice(dot + 1);
    if (depth > 16) {
      this.report(at, `the constant ${name} refers to itself`);
      return null;
    }
    if (dot < 0) {
      // The class, its enclosing classes and superclasses, then static imports.
      for (let e: TypeEntry | undefined = from; e; e = e.outer) {
        const found = this.constantIn(e, last, depth);
        if (found !== undefined) return found;
      }
      for (const i of from.unit.imports) {
        if (!i.isStatic) continue;
        const owner = i.onDemand ? i.name : i.name.slice(0, i.name.lastIndexOf("."));
        if (!i.onDemand && !i.name.endsWith(`.${last}`)) continue;
        const entry = this.index.byCanonical.get(owner);
        const found = entry && this.constantIn(entry, last, depth);
        if (found !== undefined) return found;
        // A static import of a library enum's constant (`import static ...IdentityType.APPLICATION`).
        if (!entry && !i.onDemand) return last;
      }
      this.report(at, `cannot resolve the constant ${name}`);
      return null;
    }
    const owner = this.index.resolve(name.slice(0, dot), from);
    const entry = owner ? this.index.byBinary.get(owner) : undefined;
    if (entry) {
      if (entry.cls.kind === "enum") return last;
      const found = this.constantIn(entry, last, depth);
      if (found !== undefined) return found;
      this.report(at, `${entry.canonicalName} declares no constant ${last}`);
      return null;
    }
    // A library enum (IdentityType, InheritanceType, ...): the constant's name.
    return last;
  }

  private constantIn(entry: TypeEntry, name: string, depth: number): Value | undefined {
    for (let e: TypeEntry | undefined = entry, i = 0; e && i < 32; i++) {
      const value = e.cls.constantValues.get(name);
      if (value) return this.evaluate(value, e, depth + 1);
      if (e.cls.kind === "enum" && e.cls.constants.includes(name)) return name;
      e = this.index.superclassOf(e);
    }
    return undefined;
  }
}

/** The first annotation of `name` in the list. */
export function find(list: readonly Annotation[], name: string): Annotation | undefined {
  return list.find((a) => a.name === name);
}

/** An element value as a string (annotations write JDO's booleans as strings: `primaryKey="true"`). */
export const str = (v: Value | undefined): string | undefined => (v === undefined || v === null || typeof v === "object" ? undefined : String(v));
export const bool = (v: Value | undefined): boolean | undefined => (v === undefined || v === null || v === "" ? undefined : v === true || v === "true");
export const num = (v: Value | undefined): number | undefined =>
  typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && !isNaN(Number(v)) ? Number(v) : undefined;
export const list = (v: Value | undefined): Value[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
export const isAnnotation = (v: Value | undefined): v is Annotation => typeof v === "object" && v !== null && !Array.isArray(v);
