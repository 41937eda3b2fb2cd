/**
 * SQL composition through Drizzle: statements are built with Drizzle's `sql` template (identifiers
 * quoted by `sql.identifier`, values always bound as parameters, never spliced into text) and
 * compiled once by Drizzle's SQLite dialect. Per-request values are `sql.placeholder`s, filled in
 * when a cached statement runs, so the request path does no SQL building at all.
 */
import { Name, Param, Placeholder, SQL, StringChunk, fillPlaceholders, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { processCache } from "../cache/bounded-cache.ts";
import type { Statement } from "./store.ts";

/** Compiled statement shapes kept (writes, deletes, lookups), in entries and in characters. */
const SHAPE_LIMIT = 2000;
const SHAPE_WEIGHT = 2_000_000;

const dialect = new SQLiteAsyncDialect();

export { sql, SQL };

/** A statement compiled once, whose placeholders are filled per request. */
export interface Compiled {
  sql: string;
  params: unknown[];
}

export const ident = (name: string): SQL => sql`${sql.identifier(name)}`;
export const qualified = (alias: string, column: string): SQL => sql`${sql.identifier(alias)}.${sql.identifier(column)}`;
export const param = (name: string): SQL => sql`${sql.placeholder(name)}`;

/**
 * Text the model fixes (class and field names in the JSON a select writes) as an SQL string
 * literal, quotes doubled. Never for a request's values: those are always bound. Literals, not
 * parameters, because a JSON select holds dozens of them and D1 binds at most 100 per statement.
 */
export const literal = (text: string): SQL => sql.raw(`'${text.replace(/'/g, "''")}'`);

export function compile(query: SQL): Compiled {
  const q = dialect.sqlToQuery(query);
  return { sql: q.sql, params: q.params };
}

export function bind(compiled: Compiled, values: Record<string, unknown> = {}): Statement {
  return { sql: compiled.sql, params: compiled.params.length ? fillPlaceholders(compiled.params, values) : [] };
}

/**
 * Compiles and binds in one step: the statements a request builds as it goes (writes, deletes,
 * lookups), whose values are inline. Drizzle compiles each *shape* once: the statement's text with
 * its values as `?`, read off the SQL tree by a walk much cheaper than a compile, keys a bounded
 * cache of compiled texts, and the walk's values, in the compiler's order, are bound to it.
 */
export function statement(query: SQL): Statement {
  const walked = walk(query);
  if (!walked) return bind(compile(query));
  return { sql: shapes.get(walked.shape, () => compile(query).sql), params: walked.params };
}

/** Compiled texts by shape, shared by every model (a shape names its tables and columns). */
const shapes = processCache<string>("statementShapes", SHAPE_LIMIT, { limit: SHAPE_WEIGHT, weigh: (key, text) => key.length + text.length });

/** A statement's shape and values, as Drizzle's compiler would bind them; undefined for chunks it does not know. */
function walk(query: SQL): { shape: string; params: unknown[] } | undefined {
  const parts: string[] = [];
  const params: unknown[] = [];
  const visit = (chunks: readonly unknown[]): boolean => {
    for (const chunk of chunks) {
      if (chunk instanceof StringChunk) parts.push(chunk.value.join(""));
      else if (chunk instanceof SQL) {
        if ((chunk as unknown as { shouldInlineParams?: boolean }).shouldInlineParams || !visit(chunk.queryChunks)) return false;
      } else if (chunk instanceof Name) parts.push(`"${chunk.value}"`);
      else if (chunk instanceof Placeholder) {
        parts.push(`?:${chunk.name}`);
        params.push(chunk);
      } else if (chunk instanceof Param) {
        if (chunk.value instanceof Placeholder || chunk.value instanceof SQL) return false;
        parts.push("?");
        params.push(chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value));
      } else if (chunk === undefined) continue;
      else if (Array.isArray(chunk)) {
        parts.push(`(${chunk.length}`);
        if (!visit(chunk.flatMap((c, i) => (i ? [new StringChunk(", "), c] : [c])))) return false;
        parts.push(")");
      } else if (typeof chunk === "object" && chunk !== null && !(chunk instanceof Uint8Array) && (chunk.constructor as unknown as Record<symbol, unknown> | undefined)?.[ENTITY_KIND] !== undefined) {
        return false; // a table, column, subquery...: the compiler's business
      } else {
        parts.push("?");
        params.push(chunk);
      }
    }
    return true;
  };
  return visit(query.queryChunks) ? { shape: parts.join("\u0000"), params } : undefined;
}

const ENTITY_KIND = Symbol.for("drizzle:entityKind");

export const join = (parts: readonly SQL[], separator: SQL = sql`, `): SQL => sql.join(parts as SQL[], separator);

/** `(a, b)` for composite keys, `a` for single ones. */
export function tuple(parts: readonly SQL[]): SQL {
  return parts.length === 1 ? parts[0]! : sql`(${join(parts)})`;
}

/**
 * `a AS c0, b AS c1, ...`: result columns with distinct names whatever their expressions, for
 * drivers that return rows as objects keyed by column name (D1's batch) and would otherwise keep
 * only one of two equal names.
 */
export function distinctNames(parts: readonly SQL[], prefix = "c"): SQL {
  return join(parts.map((p, i) => sql`${p} AS ${sql.raw(`${prefix}${i}`)}`));
}
