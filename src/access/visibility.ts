/**
 * What a principal may read, as SQL every statement of its requests starts with: a common table
 * expression per restricted table, named like the table, so that every reference to the table in
 * the statement (candidates, navigations, variables, joins, subqueries, counts, fetch plans, the
 * write's lookups and read-back) reads only the rows the principal may read. SQLite lets a CTE
 * shadow a table of the same name; `NOT MATERIALIZED` keeps it a view that the planner flattens
 * into each use, so a read by key stays a lookup by key. The CTEs read the stored tables
 * (`main."T"`, which nothing shadows), and so do the rules' filters (src/store/sql.ts
 * `onStoredTables`): a rule judges objects as stored, whatever the principal may read.
 *
 * Per table:
 * - a class's primary table keeps the rows of the objects the class's `read` grants show (per
 *   class, by the discriminator, when the table holds several classes with different rules);
 * - a subclass's own table keeps the rows whose object's primary row is kept;
 * - a join table keeps the links to elements that are kept;
 * - a foreign key to an object that is not kept reads NULL: a hidden object is `null` as a
 *   reference, and no query learns its key through the reference.
 * The WITH text is built once per set of roles; the claims it names are bound per request.
 */
import { type Compiled, type SQL, compile, ident, join, literal, onStoredTables, qualified, sql, tableRef, tuple } from "../store/sql.ts";
import type { Principal } from "../config/access.ts";
import type { ClassMeta, FieldMeta, Model } from "../metadata/model.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import { schemaOf } from "../mapping/schema.ts";
import { isCandidate } from "../query/sql/select.ts";
import { BoundedCache } from "../cache/bounded-cache.ts";
import type { Operation } from "../config/access-rules.ts";
import { type Allowed, type Policy } from "./policy.ts";
import { claimPresent } from "./claims.ts";

const ROW = "_v";
const PRIMARY = "_p";

/** How the rows of one primary table are kept: by a condition on the row aliased `alias`, or all of them. */
export type RowTest = ((alias: string) => SQL) | "all" | "none";

/** One restricted table as a common table expression: `"T" AS NOT MATERIALIZED (SELECT ... FROM main."T" ...)`. */
export interface TableView {
  /** The table's name as statements quote it (`"T"`): a statement naming it needs the view. */
  quoted: string;
  compiled: Compiled;
}

/**
 * What one set of roles may read: a view per restricted table, and, per statement text, the
 * statement with the WITH clause of the views it names (a statement that names no restricted
 * table runs as it is). Statement texts are the plan caches' own strings, so a lookup hashes a
 * text once; the cache is bounded whatever texts come.
 */
export class RoleViews {
  private readonly statements = new BoundedCache<{ sql: string; views: readonly TableView[] }>(2048);
  constructor(readonly views: readonly TableView[]) {}

  /** `statement` with the WITH clause of the views it names (its own WITH kept after them), and those views in their order. */
  scoped(statement: string): { sql: string; views: readonly TableView[] } {
    return this.statements.get(statement, () => {
      const views = this.views.filter((v) => statement.includes(v.quoted));
      if (!views.length) return { sql: statement, views };
      const ctes = views.map((v) => v.compiled.sql).join(", ");
      const own = /^\s*WITH\s+(RECURSIVE\s+)?/i.exec(statement);
      return { sql: own ? `WITH ${own[1] ?? ""}${ctes}, ${statement.slice(own[0].length)}` : `WITH ${ctes} ${statement}`, views };
    });
  }
}

export class Visibility {
  /** The views per set of roles (sorted, joined): a handful in practice; bounded whatever tokens say. */
  private readonly byRoles = new BoundedCache<RoleViews | null>(256);

  constructor(private readonly policy: Policy) {}

  /** The views of what `principal` may read, or null when it may read every row. */
  viewsOf(principal: Principal): RoleViews | null {
    return this.byRoles.get(rolesKey(principal), () => onStoredTables(() => this.build(principal)));
  }

  private build(principal: Principal): RoleViews | null {
    const model = this.policy.model;
    const tests = new Map<string, RowTest>();
    const testOf = (table: string): RowTest => {
      let t = tests.get(table);
      if (!t) tests.set(table, (t = this.primaryTest(principal, table)));
      return t;
    };
    const views: TableView[] = [];
    for (const def of schemaOf(model).values()) {
      const keep = this.tableTest(principal, def.name, testOf);
      const masks = this.masks(def.name, testOf);
      if (keep === "all" && !masks.size) continue;
      const columns = masks.size
        ? join(
            [...def.columns.keys()].map((c) =>
              masks.has(c) ? sql`CASE WHEN ${masks.get(c)!} THEN ${qualified(ROW, c)} END AS ${ident(c)}` : qualified(ROW, c),
            ),
          )
        : sql`${ident(ROW)}.*`;
      const where = keep === "all" ? sql`` : keep === "none" ? sql` WHERE 0` : sql` WHERE ${keep(ROW)}`;
      const compiled = compile(sql`${ident(def.name)} AS NOT MATERIALIZED (SELECT ${columns} FROM ${tableRef(def.name)} ${ident(ROW)}${where})`);
      views.push({ quoted: `"${def.name.replace(/"/g, '""')}"`, compiled });
    }
    return views.length ? new RoleViews(views) : null;
  }

  /** Which rows of a table are kept: primary tables by their classes' grants, subclass tables and join tables by what they belong to. */
  private tableTest(principal: Principal, table: string, testOf: (t: string) => RowTest): RowTest {
    const model = this.policy.model;
    const classes = [...model.classes.values()].filter((c) => !c.embeddedOnly && c.primaryTable);
    if (classes.some((c) => c.primaryTable === table)) return testOf(table);
    // A subclass's own table: rows whose object's primary row is kept.
    const owner = classes.find((c) => c.tables.includes(table));
    if (owner) return throughKey(testOf(owner.primaryTable!), owner.primaryTable!, owner.keyColumns, owner.keyColumns);
    // A join table: links whose element is kept (rows of hidden owners are never reached: their owner is not read).
    for (const field of relationFields(model)) {
      const s = relationStorage(model, field);
      if (s.kind !== "join-table" || s.inverse || s.links.table !== table) continue;
      const target = model.classes.get(field.relation!.target);
      if (!target?.primaryTable) return "all";
      return throughKey(testOf(target.primaryTable), target.primaryTable, target.keyColumns, s.links.elementColumns);
    }
    return "all";
  }

  /**
   * The rows of a primary table the principal may `operation` (read, by default): per class
   * sharing it, its grants (SQL over the row aliased as given, reading stored tables: build it
   * inside `onStoredTables`).
   */
  primaryTest(principal: Principal, table: string, operation: Operation = "read"): RowTest {
    const model = this.policy.model;
    const classes = [...model.classes.values()].filter((c) => !c.embeddedOnly && c.primaryTable === table);
    const allowed = classes.map((c) => ({ meta: c, allowed: this.policy.allowed(principal, c, operation) }));
    if (allowed.every((a) => a.allowed === "all")) return "all";
    if (allowed.every((a) => a.allowed === "none")) return "none";
    const distinct = new Set(allowed.map((a) => this.policy.entryOf(a.meta)));
    if (distinct.size === 1) return rowTest(model, classes[0]!, allowed[0]!.allowed);
    // Classes with different rules in one table: the discriminator tells each row's class (the policy checked there is one).
    return (alias) => {
      const disc = qualified(alias, classes[0]!.discriminator!.column);
      const arms = allowed
        .filter((a) => a.allowed !== "none")
        .map((a) => {
          const is = sql`${disc} = ${literal(a.meta.discriminator!.values[a.meta.name]!)}`;
          const test = rowTest(model, a.meta, a.allowed);
          return test === "all" ? is : sql`(${is} AND ${(test as (alias: string) => SQL)(alias)})`;
        });
      return sql`(${join(arms, sql` OR `)})`;
    };
  }

  /** Foreign-key columns of `table` that point at objects the principal may not all read: each read through the target's test. */
  private masks(table: string, testOf: (t: string) => RowTest): Map<string, SQL> {
    const model = this.policy.model;
    const masks = new Map<string, SQL>();
    for (const field of relationFields(model)) {
      const s = relationStorage(model, field);
      if (s.kind !== "owner-fk") continue;
      const owner = model.classes.get(field.declaringClass);
      if (!owner || ![...model.classes.values()].some((c) => c.fieldTables.get(field.name) === table && c.fields.get(field.name) === field)) continue;
      const target = model.classes.get(field.relation!.target);
      if (!target?.primaryTable) continue;
      const test = testOf(target.primaryTable);
      if (test === "all") continue;
      const kept = throughKey(test, target.primaryTable, target.keyColumns, s.columns);
      const condition = kept === "none" ? sql`0` : (kept as (alias: string) => SQL)(ROW);
      for (const c of s.columns) masks.set(c, condition);
    }
    return masks;
  }
}

/** What the rules' SQL for a principal depends on: its roles, as a set. */
export const rolesKey = (principal: Principal): string => [...new Set(principal.roles)].sort().join("\u0000");

/** A row (aliased `alias`) whose `columns` hold the key of a row of `primary` that `test` keeps. */
function throughKey(test: RowTest, primary: string, keyColumns: readonly string[], columns: readonly string[]): RowTest {
  if (test === "all" || test === "none") return test;
  return (alias) =>
    sql`EXISTS (SELECT 1 FROM ${tableRef(primary)} ${ident(PRIMARY)} WHERE ${tuple(keyColumns.map((k) => qualified(PRIMARY, k)))} = ${tuple(columns.map((c) => qualified(alias, c)))} AND ${test(PRIMARY)})`;
}

/** The objects of exactly `meta` (a row of its primary table, aliased) that `principal` may `operation`. */
export function classTest(policy: Policy, principal: Principal, meta: ClassMeta, operation: Operation): RowTest {
  return rowTest(policy.model, meta, policy.allowed(principal, meta, operation));
}

/** The rows of `meta`'s objects (in its primary table, aliased) that pass one of the grants' filters. */
function rowTest(model: Model, meta: ClassMeta, allowed: Allowed): RowTest {
  if (allowed === "all" || allowed === "none") return allowed;
  return (alias) => {
    const key = meta.keyColumns.map((k) => qualified(alias, k));
    const arms = allowed.map((g) => {
      const test = isCandidate(model, g.where!.query, key);
      const claims = g.where!.params.map((p) => claimPresent(String(p.key)));
      return claims.length ? sql`(${join([...claims, test], sql` AND `)})` : test;
    });
    return arms.length === 1 ? arms[0]! : sql`(${join(arms, sql` OR `)})`;
  };
}

/** Every relation field of the model, once (a field inherited by subclasses is one FieldMeta). */
function relationFields(model: Model): FieldMeta[] {
  const seen = new Set<FieldMeta>();
  for (const c of model.classes.values()) for (const f of c.fields.values()) if (f.relation) seen.add(f);
  return [...seen];
}
