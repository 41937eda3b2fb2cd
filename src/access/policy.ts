/**
 * The access rules (contract §8) checked and compiled against the model once, at start-up: every
 * class named exists, every `where` is a JDOQL filter of its class that binds (its claims as
 * implicit parameters), every role a `fields` list names is granted somewhere. Each mistake is an
 * AccessRulesError naming the file and the rule. What a request then asks (may this principal
 * read this class at all; which filters hold for its rows) is answered here, from the compiled
 * grants; src/access/visibility.ts turns them into SQL.
 */
import {
  type AccessRules,
  AccessRulesError,
  type ClassRules,
  type FieldRule,
  type Grant,
  OPERATIONS,
  type Operation,
  rulePath,
} from "../config/access-rules.ts";
import type { Principal } from "../config/access.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import { QueryError } from "../errors/query-error.ts";
import { bindFilter } from "../query/prepare.ts";
import type { ParamSpec, QQuery } from "../query/shared/model.ts";
import { describeType } from "../query/shared/types.ts";

/** A grant with its filter bound against the class of its entry. */
export interface CompiledGrant {
  role: string;
  /** The rule's place in the file, for messages: `classes["C"].read[0]`. */
  path: string;
  where?: { query: QQuery; params: readonly ParamSpec[] };
}

/** The rules in force for a class: its own entry, its nearest ancestor's, or the default. */
export interface Entry {
  /** The class whose entry it is (`undefined`: the document's `default`). */
  owner?: ClassMeta;
  grants: Readonly<Record<Operation, readonly CompiledGrant[]>>;
  /** Per field with rules: the roles that may read it, and write it (a missing list: anyone). */
  fields: ReadonlyMap<string, FieldRule>;
}

/** What the grants of one operation allow a principal: everything, nothing, or the objects that pass one of some filters. */
export type Allowed = "all" | "none" | readonly CompiledGrant[];

const ALL_ROLES = "*";

export class Policy {
  private readonly entries = new Map<string, Entry>();
  /** The claims the rules' filters name, each with the type its uses give it. */
  readonly claims: ReadonlyMap<string, ParamSpec>;

  constructor(
    readonly model: Model,
    rules: AccessRules,
    readonly source: string,
  ) {
    const error = (path: (string | number)[], reason: string) => new AccessRulesError(source, rulePath(path), reason);
    const classes = rules.classes ?? {};
    const owned = new Map<string, Entry>();
    const claims = new Map<string, ParamSpec>();
    for (const [name, entry] of Object.entries(classes)) {
      const meta = model.classes.get(name);
      if (!meta || meta.embeddedOnly) throw error(["classes", name], `the model has no persistent class "${name}"${suggestion(model, name)}`);
      owned.set(name, {
        owner: meta,
        grants: compileGrants(model, meta, entry, ["classes", name], error, claims),
        fields: new Map(Object.entries(entry.fields ?? {})),
      });
    }
    // A field rule names a field of its class and roles some grant gives (a typo would hide the field from everyone).
    const granted = new Set(["*", ...[...owned.values()].flatMap((e) => OPERATIONS.flatMap((o) => e.grants[o].map((g) => g.role)))]);
    for (const [name, entry] of owned) {
      for (const [field, rule] of entry.fields) {
        const meta = entry.owner!;
        const f = meta.fields.get(field);
        if (!f) throw error(["classes", name, "fields", field], `${meta.name} has no persistent field "${field}"`);
        if (f.primaryKey && rule.read)
          throw error(["classes", name, "fields", field, "read"], `"${field}" is a key field: an object's identity cannot be hidden`);
        for (const side of ["read", "write"] as const) {
          const unknown = (rule[side] ?? []).find((r) => !granted.has(r));
          if (unknown !== undefined) throw error(["classes", name, "fields", field, side], `no grant names the role "${unknown}"`);
        }
      }
    }
    const fallback = rules.default === "allow" ? everyone() : nobody();
    for (const meta of model.classes.values()) {
      if (meta.embeddedOnly) continue;
      let entry: Entry | undefined;
      for (let c: ClassMeta | undefined = meta; c && !entry; c = c.superclass ? model.classes.get(c.superclass) : undefined) entry = owned.get(c.name);
      this.entries.set(meta.name, entry ?? fallback);
    }
    this.claims = claims;
    // Rows of classes with different rules in one table are told apart by the discriminator (src/access/visibility.ts).
    for (const meta of model.classes.values()) {
      const entry = this.entries.get(meta.name);
      if (!entry?.owner || !meta.primaryTable || meta.discriminator) continue;
      const other = [...model.classes.values()].find((c) => c.primaryTable === meta.primaryTable && this.entries.get(c.name) !== entry);
      if (other) {
        const sub = entry.owner.superclass && other.name === entry.owner.superclass ? entry.owner : (this.entries.get(other.name)?.owner ?? entry.owner);
        throw error(
          ["classes", sub.name],
          `${meta.name} and ${other.name} keep their rows in one table (${meta.primaryTable}) without a discriminator, so rows cannot be told apart: give them one rule, or the hierarchy a discriminator`,
        );
      }
    }
  }

  /** The rules in force for `meta`. */
  entryOf(meta: ClassMeta): Entry {
    return this.entries.get(meta.name)!;
  }

  /** What `principal` may do with the objects of `meta` by `operation`. */
  allowed(principal: Principal, meta: ClassMeta, operation: Operation): Allowed {
    const mine = this.entryOf(meta).grants[operation].filter((g) => g.role === ALL_ROLES || principal.roles.includes(g.role));
    if (!mine.length) return "none";
    return mine.some((g) => !g.where) ? "all" : mine;
  }

  /** The names of `meta`'s fields `principal` may not `side` (read: absent from JSON and queries; write: refused in bodies). */
  hiddenFields(principal: Principal, meta: ClassMeta, side: "read" | "write"): Set<string> {
    const hidden = new Set<string>();
    // Embedded-only classes have no entry: their fields are their owner's to hide.
    for (const [name, rule] of this.entries.get(meta.name)?.fields ?? []) {
      const roles = rule[side];
      if (roles && !roles.some((r) => r === ALL_ROLES || principal.roles.includes(r))) hidden.add(name);
    }
    return hidden;
  }

  /** Whether any class has field rules (else no request pays for them). */
  get hasFieldRules(): boolean {
    return [...this.entries.values()].some((e) => e.fields.size > 0);
  }

  /** Whether `principal` has any grant of `operation` on `meta` (else the request is a 401 or 403, whatever the object). */
  grants(principal: Principal, meta: ClassMeta, operation: Operation): boolean {
    return this.allowed(principal, meta, operation) !== "none";
  }
}

function compileGrants(
  model: Model,
  meta: ClassMeta,
  entry: ClassRules,
  at: (string | number)[],
  error: (path: (string | number)[], reason: string) => AccessRulesError,
  claims: Map<string, ParamSpec>,
): Record<Operation, CompiledGrant[]> {
  const out = {} as Record<Operation, CompiledGrant[]>;
  for (const operation of OPERATIONS) {
    out[operation] = (entry[operation] ?? []).map((grant: Grant, i) => {
      const path = [...at, operation, i];
      if (!grant.where) return { role: grant.role, path: rulePath(path) };
      let bound: ReturnType<typeof bindFilter>;
      try {
        bound = bindFilter(model, meta, grant.where);
      } catch (e) {
        if (e instanceof QueryError) throw error([...path, "where"], e.located);
        throw e;
      }
      for (const spec of bound.params) {
        if (typeof spec.key !== "string") throw error([...path, "where"], `?${spec.key}: a rule names the principal's claims as :name, never by position`);
        const prior = claims.get(spec.key);
        if (prior && prior.type.kind !== "unknown" && spec.type.kind !== "unknown" && describeType(prior.type) !== describeType(spec.type)) {
          throw error([...path, "where"], `:${spec.key} is used as ${describeType(spec.type)} here and as ${describeType(prior.type)} in another rule`);
        }
        if (!prior || prior.type.kind === "unknown") claims.set(spec.key, spec);
      }
      return { role: grant.role, path: rulePath(path), where: bound };
    });
  }
  return out;
}

const grantsOf = (grants: () => CompiledGrant[]): Entry => ({
  grants: { read: grants(), create: grants(), update: grants(), delete: grants() },
  fields: new Map(),
});
const everyone = (): Entry => grantsOf(() => [{ role: ALL_ROLES, path: "default" }]);
const nobody = (): Entry => grantsOf(() => []);

function suggestion(model: Model, name: string): string {
  const full = model.bySimpleName.get(name);
  return full ? ` (did you mean "${full}"? rules name classes by their full name)` : "";
}
