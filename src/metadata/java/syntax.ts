/**
 * The Java syntax Extent reads: what a compilation unit declares about its types (package,
 * imports, classes, enums, fields, getters, annotations with their element values). Method
 * bodies and everything else are not kept. Names are as written; `names.ts` resolves them.
 */

/** A place in a `.java` file (line and column from 1). */
export interface JavaPos {
  file: string;
  line: number;
  column: number;
}

/** A type as written: `java.util.Map<String, Book>`, `byte[]`, `int`. */
export interface JavaType {
  /** Dotted name as written (`Map`, `java.util.Map`, `Outer.Inner`), or a primitive. */
  name: string;
  args: JavaType[];
  /** Array dimensions (`byte[]` is 1). */
  dims: number;
  at: JavaPos;
}

/** An annotation element's value as written. */
export type ElementValue =
  | { kind: "literal"; value: string | number | boolean | null; at: JavaPos }
  /** A name: an enum constant (`IdentityType.APPLICATION`) or a constant (`TABLE`, `Names.TABLE`). */
  | { kind: "name"; name: string; at: JavaPos }
  | { kind: "class"; type: JavaType; at: JavaPos }
  | { kind: "array"; items: ElementValue[]; at: JavaPos }
  | { kind: "annotation"; annotation: JavaAnnotation; at: JavaPos }
  /** `"A" + NAME`: string concatenation of constants. */
  | { kind: "concat"; parts: ElementValue[]; at: JavaPos }
  | { kind: "unsupported"; text: string; at: JavaPos };

export interface JavaAnnotation {
  /** As written: `Persistent`, `javax.jdo.annotations.Persistent`. */
  name: string;
  /** Element values; a single unnamed value is `value`. */
  elements: Map<string, ElementValue>;
  at: JavaPos;
}

export interface JavaMember {
  name: string;
  type: JavaType;
  modifiers: Set<string>;
  annotations: JavaAnnotation[];
  at: JavaPos;
}

export interface JavaClass {
  kind: "class" | "interface" | "enum" | "record" | "annotation";
  /** Simple name. */
  name: string;
  modifiers: Set<string>;
  annotations: JavaAnnotation[];
  typeParameters: string[];
  superclass?: JavaType;
  fields: JavaMember[];
  /** `getX()` / `isX()` methods without parameters, named after their property (`x`). */
  getters: JavaMember[];
  /** Enum constants, in order. */
  constants: string[];
  /** Static final fields with a constant initializer, for annotation values that name them. */
  constantValues: Map<string, ElementValue>;
  nested: JavaClass[];
  at: JavaPos;
}

export interface JavaImport {
  /** `java.util.List`, or `java.util` for `java.util.*`. */
  name: string;
  onDemand: boolean;
  isStatic: boolean;
}

export interface CompilationUnit {
  file: string;
  package: string;
  imports: JavaImport[];
  classes: JavaClass[];
}
