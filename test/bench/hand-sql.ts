/**
 * The SQL a person who knows the benchmark's schema would write for each of its requests, with
 * the answer's JSON written by SQLite's JSON functions (json_object, json_group_array). The
 * hand-written server (hand-server.ts) runs it; sql-cost.ts times each read against the statement
 * Extent runs for the same request.
 */
const CLASS_OF_KIND = `CASE w.KIND WHEN 'BOOK' THEN 'bench.Book' WHEN 'MAGAZINE' THEN 'bench.Magazine' ELSE 'bench.Item' END`;
const identity = (cls: string, column: string) => `CASE WHEN ${column} IS NULL THEN NULL ELSE json_object('class', '${cls}', 'id', ${column}) END`;
/** An author in full, its works as identities in key order. */
const authorInFull = (key: string) =>
  `(SELECT json_object('class', 'bench.Author', 'id', a.id, 'name', a.name, 'born', a.born, 'works',
     (SELECT json_group_array(json_object('class', ${CLASS_OF_KIND}, 'id', w.id)) FROM (SELECT id, KIND FROM ITEM WHERE author = a.id ORDER BY id) w))
   FROM AUTHOR a WHERE a.id = ${key})`;
/** A book with the fetch plan `all` (its author in full), or the default (its author's identity). */
const book = (author: string) => `json_object('class', 'bench.Book', 'id', i.id, 'title', i.title, 'price', i.price, 'author', ${author}, 'pages', b.pages)`;
/** The rows' JSON texts as one array. */
const array = (select: string) => `SELECT '[' || coalesce(group_concat(j, ','), '') || ']' FROM (${select})`;
const publishers = (depth: 1 | 2) =>
  array(`SELECT json_object('class', 'bench.Publisher', 'id', p.id, 'name', p.name, 'city', p.city, 'editors',
      (SELECT json_group_array(json_object('class', 'bench.Editor', 'id', e.id, 'name', e.name, 'publisher', ${identity("bench.Publisher", "e.publisher")},
         'favourite', ${depth === 2 ? authorInFull("e.favourite") : identity("bench.Author", "e.favourite")}))
       FROM (SELECT * FROM EDITOR WHERE publisher = p.id ORDER BY id) e)) AS j
    FROM PUBLISHER p ORDER BY p.id`);

export const HAND_SQL = {
  /** (id): a Book with the fetch plan `all`. */
  book: `SELECT ${book(authorInFull("i.author"))} FROM ITEM i JOIN BOOK b ON b.id = i.id WHERE i.id = ? AND i.KIND = 'BOOK'`,
  /** (id): a Book with the default fetch plan (its author's identity). */
  bookDefault: `SELECT ${book(identity("bench.Author", "i.author"))} FROM ITEM i JOIN BOOK b ON b.id = i.id WHERE i.id = ? AND i.KIND = 'BOOK'`,
  publishersDepth1: publishers(1),
  publishersDepth2: publishers(2),
  /** (price, id) */
  updatePrice: `UPDATE ITEM SET price = ? WHERE id = ? AND KIND = 'BOOK'`,
  /** (name): `author.name == name`, a semi-join on the foreign key. */
  booksByAuthorName: array(`SELECT ${book(identity("bench.Author", "i.author"))} AS j FROM ITEM i JOIN BOOK b ON b.id = i.id
    WHERE i.KIND = 'BOOK' AND i.author IN (SELECT id FROM AUTHOR WHERE name = ?) ORDER BY i.id`),
  /**
   * (price, count): `price > :price ORDER BY title RANGE 0, :count`. The page's keys first, so that
   * only its objects are written (SQLite computes the selected columns of every row it sorts).
   * `LIMIT +?`: with a bare `?` SQLite prepares the statement again at every run (src/store/sql.ts).
   */
  booksByPrice: array(`SELECT ${book(identity("bench.Author", "i.author"))} AS j
    FROM (SELECT id FROM ITEM WHERE KIND = 'BOOK' AND price > ? ORDER BY title, id LIMIT +?) k
    JOIN ITEM i ON i.id = k.id JOIN BOOK b ON b.id = i.id ORDER BY i.title, i.id`),
  /** (born): rows [name, count, average price], read into JavaScript. */
  worksByAuthor: `SELECT a.name, COUNT(w.id), AVG(w.price) FROM AUTHOR a JOIN ITEM w ON w.author = a.id WHERE a.born < ? GROUP BY a.name ORDER BY a.name`,
  /** (count, sequence name) → the sequence's next value after reserving `count`. */
  reserve: `UPDATE extent_sequence SET next_value = next_value + ? WHERE name = ? RETURNING next_value`,
  insertAuthor: `INSERT INTO AUTHOR (id, name, born) VALUES (?, ?, ?)`,
  insertItem: `INSERT INTO ITEM (id, KIND, title, price, author) VALUES (?, 'BOOK', ?, ?, ?)`,
  insertBook: `INSERT INTO BOOK (id, pages) VALUES (?, ?)`,
};

/** The read operations' hand-written statements and parameters, by operation name (operations.ts). */
export const HAND_READS: Record<string, { sql: string; params: unknown[] }> = {
  "get by key (+to-one)": { sql: HAND_SQL.book, params: [42] },
  "get by key (default)": { sql: HAND_SQL.bookDefault, params: [42] },
  "extent of 100, depth 1": { sql: HAND_SQL.publishersDepth1, params: [] },
  "extent of 100, depth 2": { sql: HAND_SQL.publishersDepth2, params: [] },
  "filter with navigation": { sql: HAND_SQL.booksByAuthorName, params: ["Author 17"] },
  "JDOQL ORDER BY + RANGE": { sql: HAND_SQL.booksByPrice, params: [20, 20] },
  "JPQL join + aggregate": { sql: HAND_SQL.worksByAuthor, params: [1910] },
};
