/**
 * Cascades: which objects a deletion takes with it (JDO `dependent`, `dependent-element`; JPA
 * `cascade` REMOVE/ALL and `orphanRemoval`), worked out inside the request's batch.
 *
 * The objects to delete (the "doomed" set) are computed by one statement: a recursive common
 * table expression from the seeds (the deleted object, an extent's objects, the objects a PUT
 * releases from a dependent relation) along every dependent relation of the model, written into
 * Extent's own table `extent_doomed` as (hierarchy root, key as a JSON array) rows. `UNION` makes
 * a cycle end: an object already found adds nothing. Every later statement of the deletion reads
 * the doomed keys from that table, so the statements are as many as the model's relations and
 * tables, whatever the number of objects, and the order of the deletes does not matter. The
 * batch empties the table as its last step (a batch is one transaction: no other request ever
 * sees its rows).
 *
 * What the doomed objects leave behind: a reference held by an object that is not doomed is set
 * to null, unless the reference is required (`null-value="exception"`, `optional=false`,
 * `nullable=false`): then a guard refuses the batch (409, nothing written).
 */
import { type ClassMeta, type FieldMeta, type Model, classOf, isAncestor, subtree } from "../metadata/model.ts";
import { relationStorage } from "../mapping/relation-storage.ts";
import { deleteValueRows } from "../mapping/value-tables.ts";
import { guardInsert } from "../mapping/migrate.ts";
import { DOOMED_TABLE } from "../store/reserved-tables.ts";
import { type SQL, ident, join, literal, onStoredTables, qualified, sql, tableRef, tuple } from "../store/sql.ts";
import { alias, discriminatorFilter, groupsOf, keyRefs } from "../read/row-layout.ts";
import { type VersionSteps, clearReference, mirrored } from "./version-steps.ts";
import { holdingTables } from "./write-steps.ts";

/** The closure's working name: the CTE the recursive statement builds (and a diagnosis reads). */
const CLOSURE = "extent_d";
const D = "x_d";
const E = "x_e";

/** `json_extract(<alias>.key, '$[i]')` for each part of a key of `width` columns. */
const keyParts = (width: number, at: string): SQL[] => Array.from({ length: width }, (_, i) => sql.raw(`json_extract("${at}".key, '$[${i}]')`));

/** `a = x AND b = y`: a key compared part by part, so an index on the columns serves it. */
const partsEqual = (columns: readonly SQL[], values: readonly SQL[]): SQL =>
  join(
    columns.map((c, i) => sql`${c} = ${values[i]!}`),
    sql` AND `,
  );

/** A relation that deletes along: the objects of hierarchy `to` that a doomed object of hierarchy `from` takes with it. */
interface Edge {
  from: string;
  to: string;
  /** The recursive SELECT of (root, key) rows, reading the closure aliased `x_d`. */
  select: () => SQL;
}

const edgesByModel = new WeakMap<Model, Edge[]>();

/** Every dependent relation of the model as an edge of the cascade graph (worked out once per model). */
function edgesOf(model: Model): Edge[] {
  let edges = edgesByModel.get(model);
  if (edges) return edges;
  edges = [];
  for (const c of model.classes.values()) {
    for (const field of c.fields.values()) {
      if (!field.relation || !field.dependent || field.declaringClass !== c.name) continue;
      const target = classOf(model, field.relation.target);
      for (const link of links(model, c, field)) {
        edges.push({
          from: c.root,
          to: target.root,
          select: () => {
            const owner = link.owner.map((col) => qualified(E, col));
            const taken = link.taken.map((col) => qualified(E, col));
            return sql`SELECT ${literal(target.root)}, json_array(${join(taken)}) FROM ${ident(CLOSURE)} ${ident(D)} JOIN ${tableRef(link.table)} ${ident(E)} ON ${partsEqual(owner, keyParts(owner.length, D))} WHERE ${qualified(D, "root")} = ${literal(c.root)} AND ${taken[0]!} IS NOT NULL`;
          },
        });
      }
    }
  }
  edgesByModel.set(model, edges);
  return edges;
}

const tags = new WeakMap<Model, string>();
let tagged = 0;

/**
 * A name of the model for the process-wide statement cache (src/write/shaped.ts): a cascade's
 * statements depend on every dependent relation of the model, which their shapes do not spell.
 */
export function modelTag(model: Model): string {
  let tag = tags.get(model);
  if (!tag) tags.set(model, (tag = `m${++tagged}`));
  return tag;
}

/** Where a relation's links are: rows of `table` whose `owner` columns name the owner and whose `taken` columns name the related object. */
export interface Link {
  table: string;
  owner: readonly string[];
  taken: readonly string[];
}

/** The links of relation `field` of class `c`, whatever its storage. */
export function links(model: Model, c: ClassMeta, field: FieldMeta): Link[] {
  const s = relationStorage(model, field);
  const target = classOf(model, field.relation!.target);
  if (s.kind === "owner-fk") return [{ table: c.fieldTables.get(field.name)!, owner: c.keyColumns, taken: s.columns }];
  if (s.kind === "join-table") return [{ table: s.table, owner: s.ownerColumns, taken: s.elementColumns }];
  return holdingTables(model, s.owning).map((table) => ({ table, owner: s.columns, taken: target.keyColumns }));
}

/** The hierarchy roots whose objects a deletion of objects of `roots` may reach, `roots` first. */
export function reachableRoots(model: Model, roots: readonly string[]): string[] {
  const out = [...new Set(roots)];
  for (let i = 0; i < out.length; i++) for (const e of edgesOf(model)) if (e.from === out[i] && !out.includes(e.to)) out.push(e.to);
  return out;
}

/** Whether deleting an object of `meta`'s hierarchy may delete others along a dependent relation. */
export const cascades = (model: Model, meta: ClassMeta): boolean => edgesOf(model).some((e) => e.from === meta.root);

/** `SELECT <root>, json_array(<key>)` for the objects of `meta` (subclasses included) whose keys `keys` selects, read from their rows. */
export function seedsOf(model: Model, meta: ClassMeta, keys: SQL): SQL {
  return onStoredTables(() =>
    join(
      groupsOf(model, meta).map((g) => {
        const filter = discriminatorFilter(g, subtree(model, meta.name));
        return sql`SELECT ${literal(meta.root)}, json_array(${join(keyRefs(g))}) FROM ${tableRef(g.primaryTable)} ${ident(alias(0))} WHERE ${tuple(keyRefs(g))} IN (${keys})${filter ? sql` AND ${filter}` : sql``}`;
      }),
      sql` UNION ALL `,
    ),
  );
}

/** `WITH RECURSIVE extent_d(root, key) AS (<seeds> UNION <edges>)`: the closure of the seeds along every dependent relation. */
export function closure(model: Model, seeds: readonly SQL[]): SQL {
  return onStoredTables(() => {
    const edges = edgesOf(model).map((e) => e.select());
    return sql`WITH RECURSIVE ${ident(CLOSURE)}(root, key) AS (${join([...seeds, ...edges], sql` UNION `)}) `;
  });
}

/** The statement filling `extent_doomed` with the closure of `seeds`. */
export const fillDoomed = (model: Model, seeds: readonly SQL[]): SQL =>
  sql`${closure(model, seeds)}INSERT INTO ${ident(DOOMED_TABLE)} (root, key) SELECT root, key FROM ${ident(CLOSURE)} WHERE true ON CONFLICT DO NOTHING`;

/** The batch's last statement: the doomed set is the batch's own. */
export const emptyDoomed = (): SQL => sql`DELETE FROM ${ident(DOOMED_TABLE)}`;

/** The doomed keys of hierarchy `root` (from `extent_doomed`, or from the closure CTE of a diagnosis). */
export function doomedKeys(model: Model, root: string, from: "table" | "closure" = "table"): SQL {
  const width = classOf(model, root).keyColumns.length;
  const source = from === "table" ? DOOMED_TABLE : CLOSURE;
  return sql`SELECT ${join(keyParts(width, source))} FROM ${ident(source)} WHERE root = ${literal(root)}`;
}

/** The objects whose deletion a plan covers: `scope`'s (subclasses included) among the keys `keys` selects. */
export interface Doomed {
  scope: ClassMeta;
  keys: SQL;
}

/** A required reference that objects not deleted hold to a deleted one: `rows` selects them. */
export interface RequiredCheck {
  holder: string;
  field: string;
  rows: SQL;
}

/**
 * What deleting the `doomed` objects does besides deleting their rows: the version steps of the
 * objects it changes (added to `steps`), the required references it would break (`required`),
 * and, in order, the links it removes and the references it clears (`changes`), then the rows
 * (`rows`, subclass tables before the primary tables an extent's key subquery reads).
 */
export function deletionParts<V>(
  model: Model,
  doomed: readonly Doomed[],
  steps: VersionSteps<V>,
  shape = "",
): { required: RequiredCheck[]; changes: SQL[]; rows: SQL[] } {
  // Each step condition's shape names it apart from the others (a write plan's statements are cached by shape).
  let conditions = 0;
  const named = () => (shape ? `${shape}|${conditions++}` : "");
  const required: RequiredCheck[] = [];
  const changes: SQL[] = [];
  const rows: SQL[] = [];
  const closed = (q: SQL) => () => q;
  const cols = (columns: readonly string[]) => join(columns.map((c) => ident(c)));
  const keyIn = (columns: readonly string[], keys: SQL) => sql`${tuple(columns.map((c) => ident(c)))} IN (${keys})`;
  /** The doomed keys of the objects of `c`'s hierarchy, when some are: to leave them out of a check. */
  const exempt = (c: ClassMeta) => doomed.find((d) => d.scope.root === c.root && isAncestor(model, d.scope.name, c.name))?.keys;
  const notDoomed = (c: ClassMeta, columns: readonly string[]) => {
    const keys = exempt(c);
    return keys ? sql` AND ${tuple(columns.map((k) => ident(k)))} NOT IN (${keys})` : sql``;
  };
  const done = new Set<string>();
  for (const { scope, keys } of doomed) {
    const inHierarchy = (target: string) => isAncestor(model, target, scope.name) || isAncestor(model, scope.name, target);
    for (const c of model.classes.values()) {
      for (const field of c.fields.values()) {
        // A deleted object's collections kept in tables of their own go with it.
        if (field.valueTable && field.declaringClass === c.name && (isAncestor(model, c.name, scope.name) || isAncestor(model, scope.name, c.name)))
          changes.push(deleteValueRows(field, keys));
        const rel = field.relation;
        if (!rel || field.declaringClass !== c.name) continue;
        const s = relationStorage(model, field);
        if (s.kind !== "join-table" || s.inverse) continue;
        // Join-table rows owned by a deleted object (its elements' mapped-by fields lose it), or
        // naming one as their element (their owners' collections lose it).
        if (isAncestor(model, c.name, scope.name) || isAncestor(model, scope.name, c.name)) {
          if (mirrored(model, field))
            steps.keysIn(
              classOf(model, rel.target),
              named(),
              [],
              closed(sql`SELECT ${cols(s.elementColumns)} FROM ${ident(s.table)} WHERE ${keyIn(s.ownerColumns, keys)}`),
            );
          changes.push(sql`DELETE FROM ${ident(s.table)} WHERE ${keyIn(s.ownerColumns, keys)}`);
        }
        if (inHierarchy(rel.target)) {
          // A required reference kept in a join table loses its one link.
          if (field.type.kind !== "collection" && !field.nullable)
            required.push({
              holder: c.name,
              field: field.name,
              rows: onStoredTables(() => sql`SELECT 1 FROM ${tableRef(s.table)} WHERE ${keyIn(s.elementColumns, keys)}${notDoomed(c, s.ownerColumns)}`),
            });
          steps.keysIn(c, named(), [], closed(sql`SELECT ${cols(s.ownerColumns)} FROM ${ident(s.table)} WHERE ${keyIn(s.elementColumns, keys)}`));
          changes.push(sql`DELETE FROM ${ident(s.table)} WHERE ${keyIn(s.elementColumns, keys)}`);
        }
      }
    }
    for (const c of model.classes.values()) {
      for (const [name, table] of c.fieldTables) {
        const field = c.fields.get(name)!;
        const s = field.relation && relationStorage(model, field);
        if (s?.kind !== "owner-fk") continue;
        const fk = s.columns;
        const id = `${scope.name}|${table}.${fk.join(",")}`;
        // References held by a deleted object: the objects they name lose it from their mapped-by field.
        if (subtree(model, scope.name).includes(c) && mirrored(model, field) && !done.has(`held ${id}`)) {
          done.add(`held ${id}`);
          steps.keysIn(
            classOf(model, field.relation!.target),
            named(),
            [],
            closed(sql`SELECT ${cols(fk)} FROM ${ident(table)} WHERE ${keyIn(scope.keyColumns, keys)}`),
          );
        }
        // References to a deleted object are cleared (the objects holding them change), unless they are required.
        if (!inHierarchy(field.relation!.target) || done.has(id)) continue;
        done.add(id);
        if (!field.nullable)
          required.push({
            holder: field.declaringClass,
            field: field.name,
            rows: onStoredTables(() => sql`SELECT 1 FROM ${tableRef(table)} WHERE ${keyIn(fk, keys)}${notDoomed(c, c.keyColumns)}`),
          });
        changes.push(clearReference(steps, table, fk, named(), [], closed(keyIn(fk, keys)))(noValues));
      }
    }
    const tables: string[] = [];
    const primaries: string[] = [];
    for (const c of subtree(model, scope.name)) {
      for (const t of c.tables) {
        if (t === c.primaryTable) primaries.includes(t) || primaries.push(t);
        else tables.includes(t) || tables.push(t);
      }
    }
    for (const t of tables.filter((t) => !primaries.includes(t))) rows.unshift(sql`DELETE FROM ${ident(t)} WHERE ${keyIn(scope.keyColumns, keys)}`);
    for (const t of primaries) rows.push(sql`DELETE FROM ${ident(t)} WHERE ${keyIn(scope.keyColumns, keys)}`);
  }
  return { required, changes, rows };
}

/** The guard refusing the batch when a check finds a required reference to a deleted object. */
export const guardRequired = (check: RequiredCheck): SQL => guardInsert("required", sql`EXISTS (${check.rows})`);

/** One row per check: its index and how many rows it finds (the diagnosis of a refused batch). */
export const countRequired = (checks: readonly RequiredCheck[]): SQL =>
  checks.length
    ? join(
        checks.map((c, i) => sql`SELECT ${sql.raw(String(i))}, (SELECT count(*) FROM (${c.rows}))`),
        sql` UNION ALL `,
      )
    : sql`SELECT -1, 0 WHERE 0`;

/**
 * Aborts the batch (guard `forbidden`) when a doomed object of hierarchy `root` whose row is in
 * `primaryTable` fails `test` (the access rules' delete test over the row aliased as given; `none`:
 * no such object may be deleted). Read from the stored rows.
 */
export function guardDoomed(model: Model, root: string, primaryTable: string, test: ((alias: string) => SQL) | "none"): SQL {
  const meta = classOf(model, root);
  return onStoredTables(() => {
    const row = tuple(meta.keyColumns.map((c) => qualified("_w", c)));
    const fails = test === "none" ? sql`` : sql` AND NOT (${test("_w")})`;
    return guardInsert("forbidden", sql`EXISTS (SELECT 1 FROM ${tableRef(primaryTable)} ${ident("_w")} WHERE ${row} IN (${doomedKeys(model, root)})${fails})`);
  });
}

/** The plans' statements are whole when compiled: their conditions take no values of their own. */
const noValues = () => {
  throw new Error("internal: a deletion's conditions have no values of their own");
};
