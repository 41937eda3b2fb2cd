/**
 * Merging declarations of the same class from several sources. As in JDO, a later source
 * (an .orm after its .jdo, XML after code) overrides an earlier one attribute by attribute,
 * and fields are matched by name.
 */
import type { ClassDecl, FieldDecl } from "./declarations.ts";

/** Copies the defined properties of `over` onto `base` (undefined never erases). */
function overlay<T extends object>(base: T, over: T): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [k, v] of Object.entries(over)) if (v !== undefined) out[k] = v;
  return out as T;
}

function mergeFields(base: FieldDecl[], over: FieldDecl[]): FieldDecl[] {
  const out = base.map((f) => ({ ...f }));
  for (const f of over) {
    const i = out.findIndex((b) => b.name === f.name);
    if (i < 0) out.push(f);
    else {
      const merged = overlay(out[i]!, f);
      merged.column = f.column || out[i]!.column ? { ...out[i]!.column, ...f.column } : undefined;
      // The type is the code's (or the .jdo's) to say: a mapping file rarely repeats it.
      merged.source = out[i]!.typeName || !f.typeName ? out[i]!.source : f.source;
      out[i] = merged;
    }
  }
  return out;
}

export function mergeClassDecls(decls: readonly ClassDecl[]): ClassDecl[] {
  const byName = new Map<string, ClassDecl>();
  for (const decl of decls) {
    const prior = byName.get(decl.name);
    if (!prior) {
      byName.set(decl.name, { ...decl, fields: decl.fields.map((f) => ({ ...f })) });
      continue;
    }
    const merged = overlay(prior, decl);
    merged.source = prior.source;
    merged.fields = mergeFields(prior.fields, decl.fields);
    merged.inheritance =
      prior.inheritance || decl.inheritance
        ? {
            ...prior.inheritance,
            ...decl.inheritance,
            discriminator:
              prior.inheritance?.discriminator || decl.inheritance?.discriminator
                ? { ...prior.inheritance?.discriminator, ...decl.inheritance?.discriminator }
                : undefined,
          }
        : undefined;
    merged.fetchGroups = [...(prior.fetchGroups ?? []), ...(decl.fetchGroups ?? [])];
    byName.set(decl.name, merged);
  }
  return [...byName.values()];
}
