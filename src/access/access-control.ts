/**
 * Access control as the handler holds it: the rules compiled against the model (policy.ts), the
 * tables' views per set of roles (visibility.ts), and, per request, what its principal's
 * statements start with. Built once, when the handler is; a request only binds its claims.
 */
import { parseAccessRules } from "../config/access-rules.ts";
import type { Principal } from "../config/access.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import type { Operation } from "../config/access-rules.ts";
import { type Compiled, type SQL, bind, compile, join, sql } from "../store/sql.ts";
import { guardDoomed } from "../write/cascade-plan.ts";
import type { Statement } from "../store/store.ts";
import { claimValues } from "./claims.ts";
import { Policy } from "./policy.ts";
import { type RoleViews, type TableView, Visibility, rolesKey } from "./visibility.ts";
import { refused } from "./refusal.ts";
import { guardPasses } from "../write/write-guards.ts";
import { BoundedCache } from "../cache/bounded-cache.ts";
import { QueryError } from "../errors/query-error.ts";
import type { GraphNode } from "../mapping/read-graph.ts";
import type { QQuery } from "../query/shared/model.ts";
import { fieldsNavigated } from "../query/shared/walk.ts";
import type { HiddenFields } from "../read/fetch-plan.ts";
import type { Slot } from "../write/write-node.ts";
import { withFields } from "../util/objects.ts";

const NONE: ReadonlySet<string> = new Set();

export class AccessControl {
  readonly policy: Policy;
  private readonly visibility: Visibility;
  /** Claims bound per principal: the authenticator keeps a principal per token, so a client's requests bind once. */
  private readonly scopes = new WeakMap<Principal, ((statement: Statement) => Statement) | null>();
  private readonly claims = new WeakMap<Principal, Record<string, unknown>>();
  private readonly hidden = new BoundedCache<HiddenFields | null>(256);
  private hiddenKeys = 0;
  private readonly queryChecks = new WeakMap<QQuery, Map<string, QueryError | null>>();
  private readonly unwritable = new BoundedCache<Set<string>>(4096);
  /** The cascade guards, compiled per set of roles, hierarchy and table: bounded by the model and the roles seen. */
  private readonly cascade = new BoundedCache<Compiled>(1024);

  constructor(model: Model, rules: unknown, source: string) {
    this.policy = new Policy(model, parseAccessRules(rules, source), source);
    this.visibility = new Visibility(this.policy);
    // Every role set's view is built on first use; the empty one now, so a broken rule fails start-up, not a request.
    this.visibility.viewsOf({ roles: [], claims: {} });
  }

  /**
   * How `principal`'s statements are rewritten: each starts with the WITH clause of the restricted
   * tables it names, the claims bound; null when the principal may read every row.
   */
  statementScope(principal: Principal): ((statement: Statement) => Statement) | null {
    let scope = this.scopes.get(principal);
    if (scope === undefined) {
      const views = this.visibility.viewsOf(principal);
      this.scopes.set(principal, (scope = views && scopeOf(views, this.claimsOf(principal))));
    }
    return scope;
  }

  /**
   * The fields `principal` may not read, for its fetch plans (absent from its JSON); undefined when
   * it may read every field. One object per set of roles, so plan caches see few keys.
   */
  hiddenFields(principal: Principal): HiddenFields | undefined {
    if (!this.policy.hasFieldRules) return undefined;
    const key = rolesKey(principal);
    return (
      this.hidden.get(key, () => {
        const of = new Map([...this.policy.model.classes.values()].map((m) => [m, this.policy.hiddenFields(principal, m, "read")] as const));
        if ([...of.values()].every((h) => !h.size)) return null;
        return { key: `h${++this.hiddenKeys}`, of: (meta: ClassMeta) => of.get(meta) ?? NONE };
      }) ?? undefined
    );
  }

  /**
   * Refuses a query that names a field `principal` may not read, anywhere (400, as a field the
   * class does not have: a hidden field's value is not learnt by comparing, ordering or counting it).
   */
  checkQuery(principal: Principal, query: QQuery): void {
    const hidden = this.hiddenFields(principal);
    if (!hidden) return;
    // Worked out once per prepared query and set of hidden fields, not per request.
    let byHidden = this.queryChecks.get(query);
    if (!byHidden) this.queryChecks.set(query, (byHidden = new Map()));
    let refusal = byHidden.get(hidden.key);
    if (refusal === undefined) {
      const field = fieldsNavigated(query)
        .filter((f) => hidden.of(f.owner).has(f.field.name))
        .sort((a, b) => a.pos.offset - b.pos.offset)[0];
      byHidden.set(hidden.key, (refusal = field ? new QueryError(`unknown field "${field.field.name}" of class ${field.owner.name}`, field.pos) : null));
    }
    if (refusal) throw refusal;
  }

  /** The fields of a body's objects that `principal` may not write, each with its place in the body (422). */
  refusedFields(principal: Principal, nodes: readonly GraphNode[]): { path: string; message: string }[] {
    if (!this.policy.hasFieldRules) return [];
    return nodes.flatMap((node) => {
      const hidden = this.unwritable.get(`${rolesKey(principal)}\u0000${node.meta.name}`, () => this.policy.hiddenFields(principal, node.meta, "write"));
      const named = [...node.values.keys(), ...node.refs.keys(), ...node.many.keys()].filter((f) => hidden.has(f));
      return named.map((f) => ({ path: `${node.path}/${f}`, message: `the principal may not write ${f} of ${node.meta.name}` }));
    });
  }

  /** The placeholder values of the claims the rules name, for `principal`. */
  claimsOf(principal: Principal): Record<string, unknown> {
    let values = this.claims.get(principal);
    if (!values) this.claims.set(principal, (values = claimValues(this.policy.model, this.policy.claims, principal)));
    return values;
  }

  /**
   * The guard that aborts a write batch (403) unless `principal` may `operation` the object of
   * exactly `meta` keyed `key`; none when every such object is allowed. Throws ForbiddenError when
   * no grant allows any (the request is refused before its batch).
   */
  writeGuard(principal: Principal, meta: ClassMeta, key: readonly Slot[], operation: Exclude<Operation, "read">): Statement | undefined {
    if (!this.policy.grants(principal, meta, operation)) throw refused(principal, meta, operation);
    // By the row's own class (a DELETE of /Item/5 may find a Book, whose rules are its own).
    const test = this.visibility.primaryTest(principal, meta.primaryTable!, operation);
    if (test === "all") return undefined;
    const passes = test === "none" ? () => sql`0` : test;
    return guardPasses(meta, key, `${operation}|${rolesKey(principal)}`, passes, this.claimsOf(principal));
  }

  /**
   * The guards that abort a write batch (403) when it deletes, along dependent relations, an object
   * of the hierarchies `roots` that `principal` may not delete (src/write/cascade-plan.ts): one per
   * primary table whose rows the rules restrict. The objects are judged as stored.
   */
  cascadeGuards(principal: Principal, roots: readonly string[]): Statement[] {
    const model = this.policy.model;
    const out: Statement[] = [];
    for (const root of roots) {
      const tables = new Set([...model.classes.values()].filter((c) => c.root === root && c.primaryTable && !c.embeddedOnly).map((c) => c.primaryTable!));
      for (const table of tables) {
        const test = this.visibility.primaryTest(principal, table, "delete");
        if (test === "all") continue;
        const key = `${rolesKey(principal)}\u0000${root}\u0000${table}`;
        out.push(
          bind(
            this.cascade.get(key, () => compile(guardDoomed(model, root, table, test))),
            this.claimsOf(principal),
          ),
        );
      }
    }
    return out;
  }

  /**
   * Which rows of `meta`'s primary table `principal` may delete through DELETE of the extent: those
   * it may read and delete (SQL over the row aliased as given; undefined: every row). Built inside
   * `onStoredTables` by the delete plan, which caches it by `shape`.
   */
  extentDeletion(principal: Principal, meta: ClassMeta): { shape: string; keep: (alias: string) => SQL; values: Record<string, unknown> } | undefined {
    const tests = (["read", "delete"] as const).map((o) => this.visibility.primaryTest(principal, meta.primaryTable!, o)).filter((t) => t !== "all");
    if (!tests.length) return undefined;
    return {
      shape: `delete|${rolesKey(principal)}`,
      keep: (alias) =>
        tests.includes("none")
          ? sql`0`
          : sql`(${join(
              tests.map((t) => (t as (a: string) => SQL)(alias)),
              sql` AND `,
            )})`,
      values: this.claimsOf(principal),
    };
  }

  /** Whether `principal` may not read every row of `table` (its statements read a view of it). */
  restricts(principal: Principal, table: string): boolean {
    const quoted = `"${table.replace(/"/g, '""')}"`;
    return this.visibility.viewsOf(principal)?.views.some((v) => v.quoted === quoted) ?? false;
  }

  /** Whether `principal` has any grant of `operation` on `meta`: without one the request is refused whatever the object. */
  grants(principal: Principal, meta: ClassMeta, operation: Operation): boolean {
    return this.policy.grants(principal, meta, operation);
  }
}

/** The rewrite of one principal's statements: its role set's views, their claims bound once. */
function scopeOf(views: RoleViews, claims: Record<string, unknown>): (statement: Statement) => Statement {
  const params = new Map<TableView, readonly unknown[]>(views.views.map((v) => [v, bind(v.compiled, claims).params]));
  return (s) => {
    const scoped = views.scoped(s.sql);
    if (!scoped.views.length) return s;
    const first = scoped.views.flatMap((v) => params.get(v)!);
    // A view's filter may read other rows for each row read (a navigation, a contains): not fixed-cost.
    return withFields(s, { sql: scoped.sql, params: first.length ? [...first, ...s.params] : s.params, fixedCost: false });
  };
}
