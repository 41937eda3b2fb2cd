/**
 * JDOQL type names: a class is found by its qualified name, through the candidate's package,
 * single-type imports and on-demand imports (`pkg.*`), in that order; two on-demand imports
 * that both provide a name make it ambiguous.
 */
import type { ClassMeta, Model } from "../../metadata/model.ts";
import { basicType, canonicalTypeName } from "../../metadata/java-types.ts";
import { fail } from "../shared/errors.ts";
import type { Pos } from "../shared/model.ts";

export interface TypeNames {
  /** The candidate class's package (its simple names need no import). */
  packageName: string;
  imports: readonly string[];
}

export const packageOf = (name: string) => name.slice(0, Math.max(0, name.lastIndexOf(".")));

/** The persistent class a name denotes, or undefined. */
export function resolveClass(model: Model, names: TypeNames, name: string, pos?: Pos): ClassMeta | undefined {
  if (model.classes.has(name)) return model.classes.get(name);
  if (name.includes(".")) return undefined;
  const single = names.imports.find((i) => !i.endsWith(".*") && i.slice(i.lastIndexOf(".") + 1) === name);
  if (single) return model.classes.get(single);
  const local = model.classes.get(names.packageName ? `${names.packageName}.${name}` : name);
  if (local) return local;
  const onDemand = [
    ...new Set(
      names.imports
        .filter((i) => i.endsWith(".*"))
        .map((i) => `${i.slice(0, -2)}.${name}`)
        .filter((n) => model.classes.has(n)),
    ),
  ];
  if (onDemand.length > 1) fail(`"${name}" is ambiguous: it is imported from ${onDemand.map(packageOf).join(" and ")}`, pos);
  return onDemand[0] ? model.classes.get(onDemand[0]) : undefined;
}

/** Java names that are not persistent classes but may appear as types: wrappers, String, dates, collections. */
export function isJavaTypeName(name: string): boolean {
  const canonical = canonicalTypeName(name.replace(/<.*>$/, ""));
  return (
    !!basicType(canonical) ||
    /^java\.util\.(Collection|List|Set|Map|HashSet|ArrayList|HashMap)$/.test(canonical) ||
    ["Collection", "List", "Set", "Map", "Object", "java.lang.Object"].includes(canonical)
  );
}
