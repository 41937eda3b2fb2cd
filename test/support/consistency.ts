/**
 * Consistency of a sample-model database file, read directly with the `libsql` binding (read
 * only, so it can look while a server has the file open): SQLite's own checks (integrity,
 * declared foreign keys, journal mode) and the model's, which the schema does not declare:
 * every reference points at an existing row, every Item row's discriminator matches the tables
 * it has rows in (a Book has its BOOK row, a Magazine none), versions are set, the guard table
 * is empty and the sequences are ahead of every key they handed out. Also the inverse relation
 * as the API shows it: an Author's `works` are exactly the Items whose `author` is that Author.
 */
import { S } from "./sample-server.ts";

interface NativeDatabase {
  prepare(sql: string): { raw(on?: boolean): { all(...params: unknown[]): unknown[][] } };
  close(): void;
}
type DatabaseClass = new (path: string, options?: { readonly?: boolean }) => NativeDatabase;

export async function openReadOnly(file: string): Promise<{ rows(sql: string, ...params: unknown[]): unknown[][]; close(): void }> {
  const { default: Database } = (await import("libsql")) as unknown as { default: DatabaseClass };
  const db = new Database(file, { readonly: true });
  return {
    rows: (sql, ...params) =>
      db
        .prepare(sql)
        .raw(true)
        .all(...params),
    close: () => db.close(),
  };
}

export interface DatabaseReport {
  /** PRAGMA integrity_check's rows (`["ok"]` when sound). */
  integrity: string[];
  /** PRAGMA foreign_key_check's rows (none when sound). */
  foreignKeyViolations: unknown[][];
  journalMode: string;
  /** The model's consistency problems, one line each (none when consistent). */
  problems: string[];
  counts: { authors: number; items: number; books: number; magazines: number; members: number; loans: number };
}

/** Runs every check on the sample database `file`. */
export async function checkSampleDatabase(file: string): Promise<DatabaseReport> {
  const db = await openReadOnly(file);
  try {
    const integrity = db.rows("PRAGMA integrity_check").map((r) => String(r[0]));
    const foreignKeyViolations = db.rows("PRAGMA foreign_key_check");
    const journalMode = String(db.rows("PRAGMA journal_mode")[0]?.[0]);
    const problems: string[] = [];
    const each = (what: string, sql: string) => {
      for (const row of db.rows(sql)) problems.push(`${what}: ${JSON.stringify(row)}`);
    };
    each(
      "Item.author names no Author (item id, author)",
      `SELECT i.id, i.author FROM ITEM i WHERE i.author IS NOT NULL AND NOT EXISTS (SELECT 1 FROM AUTHOR a WHERE a._id = i.author)`,
    );
    each("Item row with a discriminator of no concrete class (id, KIND)", `SELECT id, KIND FROM ITEM WHERE KIND IS NULL OR KIND NOT IN ('BOOK', 'MAGAZINE')`);
    each("Book without its BOOK row (id)", `SELECT id FROM ITEM WHERE KIND = 'BOOK' AND id NOT IN (SELECT id FROM BOOK)`);
    each(
      "BOOK row without a Book in ITEM (id, KIND)",
      `SELECT b.id, i.KIND FROM BOOK b LEFT JOIN ITEM i ON i.id = b.id WHERE i.id IS NULL OR i.KIND IS NOT 'BOOK'`,
    );
    each("Book with a Magazine's column set (id, issue)", `SELECT id, issue FROM ITEM WHERE KIND = 'BOOK' AND issue IS NOT NULL`);
    each("Item without a version (id, VERSION)", `SELECT id, VERSION FROM ITEM WHERE VERSION IS NULL OR VERSION < 1`);
    each("loan of no Member (email, book)", `SELECT MEMBER_EMAIL, BOOK_ID FROM LOANS WHERE MEMBER_EMAIL NOT IN (SELECT email FROM MEMBER)`);
    each("loan of no Book (email, book)", `SELECT MEMBER_EMAIL, BOOK_ID FROM LOANS WHERE BOOK_ID NOT IN (SELECT id FROM ITEM WHERE KIND = 'BOOK')`);
    each("loan listed twice (email, book, n)", `SELECT MEMBER_EMAIL, BOOK_ID, count(*) FROM LOANS GROUP BY MEMBER_EMAIL, BOOK_ID HAVING count(*) > 1`);
    each("shelf entry of no Shelf (code, item)", `SELECT SHELF_CODE, ITEM_ID FROM SHELF_ITEMS WHERE SHELF_CODE NOT IN (SELECT code FROM SHELF)`);
    each("shelf entry of no Item (code, item)", `SELECT SHELF_CODE, ITEM_ID FROM SHELF_ITEMS WHERE ITEM_ID NOT IN (SELECT id FROM ITEM)`);
    each("extent_guard holds a row", `SELECT * FROM extent_guard`);
    each(
      "Author sequence behind its keys (next, max)",
      `SELECT s.next_value, (SELECT max(_id) FROM AUTHOR) m FROM extent_sequence s WHERE s.name = '${S}.Author' AND s.next_value <= m`,
    );
    each(
      "Item sequence behind its keys (next, max)",
      `SELECT s.next_value, (SELECT max(id) FROM ITEM) m FROM extent_sequence s WHERE s.name = '${S}.Item' AND s.next_value <= m`,
    );
    const categories = db.rows("SELECT id, kind, parent FROM CATEGORY");
    const known = new Set(categories.map(([id, kind, parent]) => JSON.stringify([id, kind, parent ?? ""])));
    for (const [id, kind, parent] of categories) {
      if (!parent) continue;
      const p = JSON.parse(String(parent)) as { id: unknown; kind: unknown; parent: unknown };
      const key = JSON.stringify([p.id, p.kind, p.parent === null ? "" : JSON.stringify(p.parent)]);
      if (!known.has(key)) problems.push(`Category parent names no Category: ${JSON.stringify([id, kind, parent])}`);
    }
    const count = (sql: string) => Number(db.rows(sql)[0]![0]);
    const counts = {
      authors: count("SELECT count(*) FROM AUTHOR"),
      items: count("SELECT count(*) FROM ITEM"),
      books: count("SELECT count(*) FROM ITEM WHERE KIND = 'BOOK'"),
      magazines: count("SELECT count(*) FROM ITEM WHERE KIND = 'MAGAZINE'"),
      members: count("SELECT count(*) FROM MEMBER"),
      loans: count("SELECT count(*) FROM LOANS"),
    };
    return { integrity, foreignKeyViolations, journalMode, problems, counts };
  } finally {
    db.close();
  }
}

/** The report's failures, one line each (none when the database is sound and consistent). */
export function reportFailures(report: DatabaseReport): string[] {
  const out: string[] = [];
  if (report.integrity.length !== 1 || report.integrity[0] !== "ok") out.push(`integrity_check: ${report.integrity.join("; ")}`);
  for (const v of report.foreignKeyViolations) out.push(`foreign_key_check: ${JSON.stringify(v)}`);
  if (report.journalMode !== "wal") out.push(`journal_mode is ${report.journalMode}, not wal`);
  return [...out, ...report.problems];
}

type Json = Record<string, any>;

/**
 * The inverse relation through the API: `authors` as `GET /Author?fetchGroup=all` answers them
 * (with `works`), `items` as `GET /Item` does (with `author` as an identity or null). Each
 * Author's works must be exactly the Items naming it, and every Item's author must be served.
 */
export function inverseProblems(authors: readonly Json[], items: readonly Json[]): string[] {
  const problems: string[] = [];
  const byAuthor = new Map<number, Set<number>>();
  const authorIds = new Set(authors.map((a) => a._id as number));
  for (const item of items) {
    const a = item.author?._id as number | undefined;
    if (a === undefined) continue;
    if (!authorIds.has(a)) problems.push(`Item ${item.id} names Author ${a}, which the Author extent does not hold`);
    if (!byAuthor.has(a)) byAuthor.set(a, new Set());
    byAuthor.get(a)!.add(item.id);
  }
  for (const author of authors) {
    const listed = new Set<number>(((author.works ?? []) as Json[]).map((w) => w.id));
    const naming = byAuthor.get(author._id) ?? new Set<number>();
    const extra = [...listed].filter((id) => !naming.has(id));
    const missing = [...naming].filter((id) => !listed.has(id));
    if (extra.length || missing.length)
      problems.push(`Author ${author._id}: works lists ${JSON.stringify(extra)} whose author is not it, misses ${JSON.stringify(missing)} that name it`);
  }
  return problems;
}
