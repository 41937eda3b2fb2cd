/**
 * The SQL of a JSON select (src/read/json-select.ts): `Writer` writes one table group's root
 * rows, each an object's JSON text with its related objects nested by correlated subqueries, as
 * that file's header says. Each instance writes one read's statements and counts their
 * subqueries; a plan it cannot write throws NotInSql, and the read takes the object path.
 */
import { keyFieldColumns } from "../mapping/keys.ts";
import { type RelationStorage, ownerFkColumns, relationStorage } from "../mapping/relation-storage.ts";
import { valueArrayJson } from "../mapping/value-tables.ts";
import { type ClassMeta, type FieldMeta, type Model, classOf, subtree } from "../metadata/model.ts";
import { NotInSql, type Piece, concat, exactIntegerSql, integerJson, isWholeNumber, keyJson, pipes, storedFieldJson } from "../json/sql-values.ts";
import { type SQL, boundedText, ident, join, literal, oneOf, qualified, sql, tuple } from "../store/sql.ts";
import { type FetchPlan, hides, planFields } from "./fetch-plan.ts";
import { type GroupLayout, alias, discriminatorFilter, fromClause, groupsOf, keyRefs, primaryOf } from "./row-layout.ts";
import { type FieldSlot, fieldSlots } from "./field-slots.ts";

/** More correlated subqueries than this, and the read takes the object path (plans grow with branching^depth). */
const MAX_SUBQUERIES = 256;

/** Where an object is written: how deep, and below which objects (the rows written in full above it, and itself). */
interface Scope {
  level: number;
  path: readonly Row[];
}

/** A row of a table group under its table aliases (`t0`, `t1`... at the root, `j3_0`... below). */
interface Row {
  group: GroupLayout;
  prefix: string;
}

export class Writer {
  private subqueries = 0;
  /** Whether a statement reads rows by a foreign key or a link table (collections, mapped-by references, value tables): how many, the data decides. */
  readsByForeignKey = false;

  constructor(
    private readonly model: Model,
    private readonly fetch: FetchPlan,
    private readonly answerBytes: number,
  ) {}

  /** The statement of one root table group: every row of the selection, in its order (`j` NULL for an invisible one). */
  root(meta: ClassMeta, group: GroupLayout, selection: "extent" | "keys" | "ordered", keys: SQL): SQL {
    const row: Row = { group, prefix: "t" };
    const key = keyRefs(group);
    const json = this.visible(row, this.object(row, { level: 0, path: [row] }));
    const version = group.versionColumn ? sql`coalesce(${qualified(alias(0), group.versionColumn)}, 0)` : sql`NULL`;
    // The key is read into JavaScript (cursors, Location): longs and BigIntegers exactly.
    const read = key.map((k, i) => (group.wideKeys[i] ? exactIntegerSql(k) : k));
    const columns = [sql`${json} AS j`, sql`${version} AS v`, sql`${this.classColumn(row)} AS c`, ...read.map((k, i) => sql`${k} AS ${sql.raw(`k${i}`)}`)];
    if (selection === "ordered") {
      const on = key.map((k, i) => sql`${k} = ${sql.raw(`"q"._k${i}`)}`);
      return sql`SELECT ${join(columns)}, "q"._ord AS o FROM ${fromClause(group, true)} JOIN (${keys}) "q" ON ${join(on, sql` AND `)} ORDER BY "q"._ord`;
    }
    const where = selection === "extent" ? discriminatorFilter(group, subtree(this.model, meta.name)) : sql`${tuple(key)} IN (${keys})`;
    return sql`SELECT ${join(columns)} FROM ${fromClause(group, true)}${where ? sql` WHERE ${where}` : sql``} ORDER BY ${join(key)}`;
  }

  // ---- objects -------------------------------------------------------------------------------
  // Nested rows are selected visible only (their WHERE checks the class, or in a mapped-by list
  // their class name's CASE leaves them out), so an object's text needs no check of its own
  // (SQLite's parser allows little nesting: src/store/parser-nesting.ts).

  /**
   * The row's object in full: identity, version, then the fields of its class. Its text starts
   * with `head`: its class name, or nothing where the caller writes it.
   */
  private object(row: Row, scope: Scope, head: Piece[] = this.head(row)): SQL {
    return concat([...head, ...this.afterName(row, scope)]);
  }

  /** `{"class":<name>`: how an object's text starts. */
  private head(row: Row): Piece[] {
    return ['{"class":', this.className(row)];
  }

  /** The head as one text per class of the row's group, NULL for a row of any other class (its check). */
  private checkedHead(row: Row): SQL {
    return this.byClass(row, (c) => literal(`{"class":${JSON.stringify(c.name)}`));
  }

  /** An object's text after its class name: key, version, fields, closing brace. */
  private afterName(row: Row, scope: Scope): Piece[] {
    const { group } = row;
    const first = group.classes[0]!;
    const pieces: Piece[] = this.keyPieces(first, keyRefs(group, row.prefix));
    const version = uniform(group.classes, (c) => (c.version ? `${c.version.column}|${c.version.fieldName ?? ""}` : ""), "classes versioned differently");
    if (version) {
      const value = integerJson(sql`coalesce(${qualified(alias(0, row.prefix), group.versionColumn!)}, 0)`);
      pieces.push(',"_version":', value);
      if (first.version!.fieldName) pieces.push(`,${JSON.stringify(first.version!.fieldName)}:`, value);
    }
    for (const slot of fieldSlots(group)) pieces.push(...this.slot(row, scope, slot));
    pieces.push("}");
    return pieces;
  }

  /**
   * The row's identity `{"class", key fields}`, from `head` (its class name, or nothing where the
   * caller writes it). Whole-number key parts are their columns, never NULL: joined by `||`, which
   * costs SQLite less per row than a concat() of a few short pieces (test/bench/README.md).
   */
  private identity(row: Row, head: Piece[] = this.head(row)): SQL {
    const first = row.group.classes[0]!;
    const pieces = [...head, ...this.keyPieces(first, keyRefs(row.group, row.prefix)), "}"];
    return keyFieldColumns(first).every((part) => isWholeNumber(part.type)) ? pipes(pieces) : concat(pieces);
  }

  /** An identity of the declared class, from a reference's key columns (the row is not read). */
  private declaredIdentity(meta: ClassMeta, key: SQL[]): SQL {
    return concat(['{"class":', JSON.stringify(meta.name), ...this.keyPieces(meta, key), "}"]);
  }

  private keyPieces(meta: ClassMeta, key: readonly SQL[]): Piece[] {
    return keyFieldColumns(meta).flatMap((part, i) => {
      if (part.type.kind === "key") throw new NotInSql("ancestor keys");
      return [`,${JSON.stringify(part.field)}:`, keyJson(key[i]!, part.type)];
    });
  }

  /** The class name of the row as JSON text (the row is visible). */
  private className(row: Row): Piece {
    const { group } = row;
    if (!group.discriminatorColumn && group.classes.length > 1) throw new NotInSql("several classes in one table without a discriminator");
    if (group.classes.length === 1) return JSON.stringify(group.classes[0]!.name);
    // A class-name discriminator is the name itself.
    if (group.classes.every((c) => c.discriminator!.values[c.name] === c.name)) return sql`json_quote(${this.discriminator(row)})`;
    return this.byClass(row, (c) => literal(JSON.stringify(c.name)));
  }

  /** The row's class name as plain text, NULL for a class outside the group (the root rows' `c`). */
  private classColumn(row: Row): SQL {
    return row.group.discriminatorColumn ? this.byClass(row, (c) => literal(c.name)) : literal(row.group.classes[0]!.name);
  }

  /** `CASE discriminator WHEN value THEN of(class) ... END`: NULL for a value outside the group. */
  private byClass(row: Row, of: (c: ClassMeta) => SQL): SQL {
    const arms = row.group.classes.map((c) => sql`WHEN ${discriminatorLiteral(c)} THEN ${of(c)}`);
    return sql`CASE ${this.discriminator(row)} ${join(arms, sql` `)} END`;
  }

  /** `json`, or NULL when the row's class is outside its group (a row of another class is invisible). */
  private visible(row: Row, json: SQL): SQL {
    const check = this.classCheck(row);
    return check ? sql`CASE WHEN ${check} THEN ${json} END` : json;
  }

  /** ` AND <the row's class is one of its group's>`, for the WHERE of a nested row. */
  private visibleOnly(row: Row): SQL {
    const check = this.classCheck(row);
    return check ? sql` AND ${check}` : sql``;
  }

  private classCheck(row: Row): SQL | undefined {
    const { group } = row;
    if (!group.discriminatorColumn) return undefined;
    return oneOf(this.discriminator(row), group.classes.map(discriminatorLiteral));
  }

  private discriminator(row: Row): SQL {
    return qualified(alias(0, row.prefix), row.group.discriminatorColumn!);
  }

  // ---- fields --------------------------------------------------------------------------------

  /** `,"name":value` for the classes of the group that write the field, each class as it writes it. */
  private slot(row: Row, scope: Scope, slot: FieldSlot): Piece[] {
    const variants = new Map<string, { field: FieldMeta; owner: ClassMeta; mode: "plan" | "identity"; classes: ClassMeta[] }>();
    for (const [owner, field] of slot.byClass) {
      const mode = planFields(owner, this.fetch).includes(field)
        ? "plan"
        : field.relation && !hides(this.fetch, owner, field) && relationStorage(this.model, field).kind === "owner-fk"
          ? "identity"
          : undefined;
      if (!mode) continue;
      const signature = `${mode}|${owner.fieldTables.get(field.name)}|${JSON.stringify([field.type, field.column, field.valueTable, field.fkColumns, field.embeddedColumns, field.relation, field.enumOrdinal])}`;
      const variant = variants.get(signature);
      if (variant) variant.classes.push(owner);
      else variants.set(signature, { field, owner, mode, classes: [owner] });
    }
    const written = (v: { field: FieldMeta; owner: ClassMeta; mode: "plan" | "identity" }): Piece[] => [
      `,${JSON.stringify(slot.name)}:`,
      ...(v.mode === "plan"
        ? this.field(row, scope, v.owner, v.field)
        : [this.reference(row, scope, v.owner, v.field, ownerFkColumns(this.model, v.field), false)]),
    ];
    const all = [...variants.values()];
    if (!all.length) return [];
    if (all.length === 1 && all[0]!.classes.length === row.group.classes.length) return written(all[0]!);
    // The classes of the row differ in how (or whether) they write the field.
    const arms = all.map((v) => sql`WHEN ${oneOf(this.discriminator(row), v.classes.map(discriminatorLiteral))} THEN ${concat(written(v))}`);
    return [sql`CASE ${join(arms, sql` `)} ELSE '' END`];
  }

  /** A field of the fetch plan, as pieces of its owner's text. */
  private field(row: Row, scope: Scope, owner: ClassMeta, field: FieldMeta): Piece[] {
    if (field.type.kind === "key") throw new NotInSql("ancestor keys");
    const rel = field.relation;
    if (!rel) {
      if (field.embeddedColumns) {
        const columns = new Map(Object.entries(field.embeddedColumns).map(([sub, col]) => [sub, this.column(row, owner, field, col)]));
        const embedded = field.type.kind === "embedded" ? classOf(this.model, field.type.class).fields.values() : [];
        return [storedFieldJson(field, undefined, { fields: embedded, columns })];
      }
      // A collection kept in its own table is the JSON array its column would hold, read by a subquery.
      if (field.valueTable) {
        this.readsByForeignKey = true;
        return [storedFieldJson(field, valueArrayJson(field, keyRefs(row.group, row.prefix)))];
      }
      return [storedFieldJson(field, field.column ? this.column(row, owner, field, field.column) : undefined)];
    }
    if (field.type.kind === "map") throw new NotInSql("a map of references");
    const toMany = field.type.kind === "collection";
    const s = relationStorage(this.model, field);
    switch (s.kind) {
      case "owner-fk":
        return [this.reference(row, scope, owner, field, s.columns, true)];
      case "target-fk":
        return this.mappedBy(row, scope, field, s, toMany);
      case "join-table": {
        const jt = this.prefix() + "l";
        const at = (columns: readonly string[]) => columns.map((c) => qualified(jt, c));
        const link = { table: s.table, alias: jt, owner: at(s.ownerColumns), element: at(s.elementColumns), order: at(s.order) };
        return this.linked(row, scope, classOf(this.model, rel.target), link, toMany);
      }
    }
  }

  /** A column of the row, under the alias of the table holding the field for `owner`. */
  private column(row: Row, owner: ClassMeta, field: FieldMeta, column: string): SQL {
    const table = owner.fieldTables.get(field.name);
    const i = table === undefined ? -1 : row.group.tables.indexOf(table);
    if (i < 0) throw new NotInSql(`a field outside its group's tables (${owner.name}.${field.name})`);
    return qualified(alias(i, row.prefix), column);
  }

  /**
   * An owned to-one reference: null; the related object in full (`inPlan`, above the depth, not on
   * the path); or its identity, of its runtime class (read when the class has subclasses), of the
   * declared class when its row is missing.
   */
  private reference(row: Row, scope: Scope, owner: ClassMeta, field: FieldMeta, columns: readonly string[], inPlan: boolean): SQL {
    const target = classOf(this.model, field.relation!.target);
    const fk = columns.map((c) => this.column(row, owner, field, c));
    const full = inPlan && scope.level < this.fetch.maxDepth;
    const read =
      full || subtree(this.model, target.name).length > 1
        ? groupsOf(this.model, target).map((group) => {
            const related: Row = { group, prefix: this.prefix() };
            const value = full ? this.object(related, this.below(scope, related)) : this.identity(related);
            const from = full ? fromClause(group, true, related.prefix) : primaryOf(group, related.prefix);
            return sql`(SELECT ${value} FROM ${from} WHERE ${tuple(keyRefs(group, related.prefix))} = ${tuple(fk)}${this.visibleOnly(related)})`;
          })
        : [];
    // An object already on the path is its identity (a cycle): the object written above.
    const cycles = full
      ? this.onPath(scope, target.root).map((p) => sql` WHEN ${tuple(fk)} = ${tuple(keyRefs(p.group, p.prefix))} THEN ${this.identity(p)}`)
      : [];
    // A whole-number foreign key of one column: its identity text is NULL when the key is (`||`
    // passes NULL on), so one coalesce writes it, or null (a CASE and concat() cost more per row).
    const key = keyFieldColumns(target);
    if (!cycles.length && key.length === 1 && isWholeNumber(key[0]!.type)) {
      return sql`coalesce(${join([...read, pipes(['{"class":', JSON.stringify(target.name), ...this.keyPieces(target, fk), "}"]), sql`'null'`])})`;
    }
    const declared = this.declaredIdentity(target, fk);
    const written = read.length ? sql`coalesce(${join([...read, declared])})` : declared;
    return sql`CASE WHEN ${join(
      fk.map((c) => sql`${c} IS NULL`),
      sql` AND `,
    )} THEN 'null'${sql.join(cycles)} ELSE ${written} END`;
  }

  /** The objects on the path whose hierarchy is `root` (one of them may be the related object). */
  private onPath(scope: Scope, root: string): Row[] {
    return scope.path.filter((p) => p.group.classes[0]!.root === root);
  }

  /** Where a related object of the scope's object is written in full. */
  private below(scope: Scope, related: Row): Scope {
    return { level: scope.level + 1, path: [...scope.path, related] };
  }

  /**
   * A related object of the owner: in full above the depth unless already on the path; else its
   * identity. Its text starts with `head`: its class name, or nothing where the caller writes it.
   */
  private element(related: Row, scope: Scope, head: Piece[] = this.head(related)): SQL {
    if (scope.level >= this.fetch.maxDepth) return this.identity(related, head);
    const full = this.object(related, this.below(scope, related), head);
    const key = tuple(keyRefs(related.group, related.prefix));
    const cycles = this.onPath(scope, related.group.classes[0]!.root).map((p) => sql`${key} = ${tuple(keyRefs(p.group, p.prefix))}`);
    return cycles.length ? sql`iif(${join(cycles, sql` OR `)}, ${this.identity(related, head)}, ${full})` : full;
  }

  /** 1-N or 1-1 mapped-by: the related objects whose foreign key names the owner, by key. */
  private mappedBy(row: Row, scope: Scope, field: FieldMeta, s: Extract<RelationStorage, { kind: "target-fk" }>, toMany: boolean): Piece[] {
    this.readsByForeignKey = true;
    const target = classOf(this.model, field.relation!.target);
    const backName = s.owning.name;
    const ownerKey = keyRefs(row.group, row.prefix);
    const parts: SQL[] = [];
    for (const group of groupsOf(this.model, target)) {
      const holders = group.classes.filter((c) => c.fields.get(backName)?.fkColumns);
      if (!holders.length) continue;
      const table = uniform(holders, (c) => c.fieldTables.get(backName)!, "a back reference in several tables");
      if (!group.tables.includes(table)) throw new NotInSql("a back reference outside its group's tables");
      const columns = uniform(holders, (c) => c.fields.get(backName)!.fkColumns!.join("\u0000"), "back references with different columns").split("\u0000");
      const related: Row = { group, prefix: this.prefix() };
      const at = alias(group.tables.indexOf(table), related.prefix);
      const full = scope.level < this.fetch.maxDepth;
      const from = full || table !== group.primaryTable ? fromClause(group, true, related.prefix) : primaryOf(group, related.prefix);
      const order = join(keyRefs(group, related.prefix));
      const owned = sql`${tuple(columns.map((c) => qualified(at, c)))} = ${tuple(ownerKey)}`;
      if (toMany && group.discriminatorColumn) {
        // The class check is the class name's CASE, NULL for a row outside the group, which the
        // list leaves out: the WHERE's check of each row cost as much again (test/bench/README.md).
        parts.push(this.inOrder(this.element(related, scope, []), sql`${from} WHERE ${owned}`, order, this.checkedHead(related)));
        continue;
      }
      const where = sql`${owned}${this.visibleOnly(related)}`;
      const value = this.element(related, scope);
      parts.push(
        toMany ? this.inOrder(value, sql`${from} WHERE ${where}`, order) : sql`(SELECT ${value} FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT 1)`,
      );
    }
    return toMany ? listOf(parts) : [firstOf(parts)];
  }

  /** Objects through the link rows of a join table that name the owner, in link order; links to missing rows left out. */
  private linked(
    row: Row,
    scope: Scope,
    target: ClassMeta,
    link: { table: string; alias: string; owner: SQL[]; element: SQL[]; order: SQL[] },
    toMany: boolean,
  ): Piece[] {
    this.readsByForeignKey = true;
    const found = groupsOf(this.model, target).map((group) => {
      const related: Row = { group, prefix: this.prefix() };
      const from = scope.level < this.fetch.maxDepth ? fromClause(group, true, related.prefix) : primaryOf(group, related.prefix);
      return sql`(SELECT ${this.element(related, scope)} FROM ${from} WHERE ${tuple(keyRefs(group, related.prefix))} = ${tuple(link.element)}${this.visibleOnly(related)})`;
    });
    const value = found.length === 1 ? found[0]! : sql`coalesce(${join([...found, sql`NULL`])})`;
    const from = sql`${ident(link.table)} ${ident(link.alias)} WHERE ${tuple(link.owner)} = ${tuple(keyRefs(row.group, row.prefix))}`;
    if (toMany) return ["[", this.inOrder(value, from, join(link.order)), "]"];
    const names = link.order.map((_, i) => sql.raw(`o${i}`));
    const ordered = join(link.order.map((o, i) => sql`${o} AS ${names[i]!}`));
    return [sql`coalesce((SELECT x FROM (SELECT ${value} AS x, ${ordered} FROM ${from}) WHERE x IS NOT NULL ORDER BY ${join(names)} LIMIT 1), 'null')`];
  }

  /**
   * The texts `value` of the rows of `from` (a FROM and WHERE) joined by commas in `order`, each
   * after its `head` when there is one (a row whose head is NULL is left out); NULL for no rows.
   * The rows come from an ordered subquery, which SQLite runs as a coroutine feeding the aggregate
   * in order, rather than group_concat's own ORDER BY (SQLite 3.44), which sqld's statement parser
   * refuses. A collection is where a fetch plan multiplies what it writes (an
   * object is written once per path reaching it), so each is bounded by `answerBytes`.
   */
  private inOrder(value: SQL, from: SQL, order: SQL, head?: SQL): SQL {
    // A head (a text NULL for a row to leave out) is its own column: inside the value's expression
    // it would nest the value a level deeper for SQLite's parser.
    if (!head) return sql`(SELECT ${bounded(sql`group_concat(x, ',')`, this.answerBytes)} FROM (SELECT ${value} AS x FROM ${from} ORDER BY ${order}))`;
    return sql`(SELECT ${bounded(sql`group_concat(h || x, ',')`, this.answerBytes)} FROM (SELECT ${head} AS h, ${value} AS x FROM ${from} ORDER BY ${order}))`;
  }

  /** A fresh alias prefix for a nested row; counts the plan's subqueries against MAX_SUBQUERIES. */
  private prefix(): string {
    if (++this.subqueries > MAX_SUBQUERIES) throw new NotInSql("a plan over the subquery limit", true);
    return `j${this.subqueries}_`;
  }
}

/** A JSON array of the groups' elements, group after group (each part NULL when it has none, which concat() takes as ''). */
function listOf(parts: SQL[]): Piece[] {
  if (!parts.length) return ["[]"];
  return ["[", parts.length === 1 ? parts[0]! : sql`concat_ws(',', ${join(parts)})`, "]"];
}

/** An aggregate's text within `limit` bytes (boundedText); no limit: the text as it is. */
export function bounded(aggregate: SQL, limit: number): SQL {
  return limit === Infinity ? aggregate : boundedText(aggregate, sql.raw(String(limit)));
}

/** The first group's object, or null. */
function firstOf(parts: SQL[]): SQL {
  return parts.length ? sql`coalesce(${join([...parts, sql`'null'`])})` : sql`'null'`;
}

/** The one value `of` gives every item, or NotInSql (`what` says what differed). */
function uniform<T>(items: readonly T[], of: (item: T) => string, what: string): string {
  const values = new Set(items.map(of));
  if (values.size > 1) throw new NotInSql(what);
  return [...values][0] ?? "";
}

/** The value of its table's discriminator that marks a row of `c`, as an SQL literal. */
const discriminatorLiteral = (c: ClassMeta): SQL => literal(c.discriminator!.values[c.name]!);
