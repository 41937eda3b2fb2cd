/**
 * Every type of a source tree, and names resolved as Java resolves them: type parameters, the
 * class and its enclosing classes with their member types, single-type imports, the package,
 * on-demand imports, `java.lang`, fully qualified names. A nested class's model name is its
 * binary name (`org.example.Category$Key`), as JDO metadata writes it.
 */
import type { CompilationUnit, JavaClass } from "./syntax.ts";
import { libraryType } from "./vocabulary.ts";

export interface TypeEntry {
  cls: JavaClass;
  unit: CompilationUnit;
  /** `pkg.Outer$Inner`: the class's name in the model. */
  binaryName: string;
  /** `pkg.Outer.Inner`: how Java source names it. */
  canonicalName: string;
  outer?: TypeEntry;
}

export const OBJECT = "java.lang.Object";

export class JavaIndex {
  readonly byCanonical = new Map<string, TypeEntry>();
  readonly byBinary = new Map<string, TypeEntry>();
  readonly entries: TypeEntry[] = [];

  constructor(units: readonly CompilationUnit[]) {
    const add = (cls: JavaClass, unit: CompilationUnit, outer?: TypeEntry) => {
      const prefix = unit.package ? `${unit.package}.` : "";
      const entry: TypeEntry = {
        cls,
        unit,
        outer,
        binaryName: outer ? `${outer.binaryName}$${cls.name}` : prefix + cls.name,
        canonicalName: outer ? `${outer.canonicalName}.${cls.name}` : prefix + cls.name,
      };
      // The first declaration of a name wins (a duplicate is the compiler's to report).
      if (!this.byCanonical.has(entry.canonicalName)) {
        this.byCanonical.set(entry.canonicalName, entry);
        this.byBinary.set(entry.binaryName, entry);
        this.entries.push(entry);
      }
      for (const n of cls.nested) add(n, unit, entry);
    };
    for (const unit of units) for (const cls of unit.classes) add(cls, unit);
  }

  /**
   * A type name as written in `from` (a class of the tree) → its model name: a tree class's
   * binary name, a library type's name, a primitive, or a qualified name outside the tree as
   * written. `undefined` when nothing declares it; `unresolvedFromOnDemand` tells whether an
   * on-demand import of a package outside the tree might (so not knowing it is no error).
   */
  resolve(name: string, from: TypeEntry): string | undefined {
    const [first, ...rest] = name.split(".");
    const head = this.resolveSimple(first!, from);
    if (head !== undefined) {
      if (!rest.length) return head;
      const entry = this.byBinary.get(head);
      if (entry) return this.member(entry, rest);
      // A member type of a library type (`Map.Entry`): named as written.
      return `${head}.${rest.join(".")}`;
    }
    if (!rest.length) return undefined;
    // A qualified name: the longest known prefix is the type, the rest its members.
    for (let i = rest.length; i >= 1; i--) {
      const prefix = [first, ...rest.slice(0, i)].join(".");
      const entry = this.byCanonical.get(prefix);
      if (entry) return i === rest.length ? entry.binaryName : this.member(entry, rest.slice(i));
    }
    return name;
  }

  /** Whether `from`'s unit imports a package on demand that the tree does not hold. */
  importsUnknownPackages(from: TypeEntry): boolean {
    return from.unit.imports.some((i) => i.onDemand && !i.isStatic && !this.holdsPackage(i.name) && !this.byCanonical.has(i.name) && !isLibraryPackage(i.name));
  }

  private holdsPackage(pkg: string): boolean {
    return this.entries.some((e) => e.unit.package === pkg);
  }

  private member(entry: TypeEntry, path: string[]): string | undefined {
    let current: TypeEntry | undefined = entry;
    for (const part of path) {
      current = current && this.nestedOf(current, part);
      if (!current) return undefined;
    }
    return current?.binaryName;
  }

  /** A member type named `simple` of `entry`, its own or inherited from a superclass in the tree. */
  private nestedOf(entry: TypeEntry, simple: string, seen = new Set<TypeEntry>()): TypeEntry | undefined {
    if (seen.has(entry)) return undefined;
    seen.add(entry);
    const own = this.byBinary.get(`${entry.binaryName}$${simple}`);
    if (own) return own;
    const parentEntry = this.superclassOf(entry);
    return parentEntry ? this.nestedOf(parentEntry, simple, seen) : undefined;
  }

  private readonly superclasses = new Map<TypeEntry, TypeEntry | null>();

  /** The superclass in the tree. Its name is resolved without the class's inherited member types (as Java does). */
  superclassOf(entry: TypeEntry): TypeEntry | undefined {
    const known = this.superclasses.get(entry);
    if (known !== undefined) return known ?? undefined;
    this.superclasses.set(entry, null); // while resolving: no inherited members
    const name = entry.cls.superclass && this.resolve(entry.cls.superclass.name, entry);
    const found = name ? this.byBinary.get(name) : undefined;
    this.superclasses.set(entry, found && found !== entry ? found : null);
    return found && found !== entry ? found : undefined;
  }

  private resolveSimple(simple: string, from: TypeEntry): string | undefined {
    if (PRIMITIVES.has(simple)) return simple;
    // Type parameters read as their bound's erasure; Object is what Java would store.
    for (let e: TypeEntry | undefined = from; e; e = e.outer) {
      if (e.cls.typeParameters.includes(simple)) return OBJECT;
      if (e.cls.name === simple) return e.binaryName;
      const nested = this.nestedOf(e, simple);
      if (nested) return nested.binaryName;
    }
    const { unit } = from;
    for (const i of unit.imports) {
      if (i.isStatic || i.onDemand) continue;
      if (i.name === simple || i.name.endsWith(`.${simple}`)) return this.byCanonical.get(i.name)?.binaryName ?? i.name;
    }
    const local = this.byCanonical.get(unit.package ? `${unit.package}.${simple}` : simple);
    if (local) return local.binaryName;
    for (const i of unit.imports) {
      if (!i.onDemand || i.isStatic) continue;
      const inTree = this.byCanonical.get(`${i.name}.${simple}`);
      if (inTree) return inTree.binaryName;
      const library = libraryType(i.name, simple);
      if (library) return library;
    }
    return libraryType("java.lang", simple);
  }
}

const PRIMITIVES = new Set(["boolean", "byte", "short", "int", "long", "float", "double", "char", "void"]);
const isLibraryPackage = (pkg: string) => /^(java|javax|jakarta)\./.test(pkg);
