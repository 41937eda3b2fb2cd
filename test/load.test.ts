/**
 * Under load: many concurrent clients (32 by default) send a mix of reads and writes to the real
 * server (`extent serve`, its own process, on an embedded file) over loopback HTTP, bounded in
 * time and in count: graphs POSTed (an Author with new works, sometimes adopting an existing one),
 * Members borrowing Books, Shelves holding Items in order, partial PUTs of Items and Authors (the same objects from many clients),
 * DELETEs, GETs by key, extents, filters, JDOQL and JPQL. Then:
 *
 * - no answer was a 5xx (a 503 with Retry-After, which a busy database may answer, is retried and
 *   counted);
 * - no write was lost: every object a 201 created is there unless a 204 DELETE removed it, and
 *   nothing else is; each Item's version went up exactly once per 2xx write of it, and each of
 *   its fields holds what the write with the highest version set; an Author's fields hold a value
 *   some 2xx PUT wrote that no later 2xx PUT (in real time) replaced, and so do a Shelf's label
 *   and its list of Items (in order, less the Items deleted since); a Member's loans are those
 *   it was created with, less the Books deleted since (two POSTs of one email at once: one 201,
 *   one 409, and the Member and loans are the 201's);
 * - the database is consistent: references point at existing rows, an Author's `works` are
 *   exactly the Items naming it, discriminators match the tables (a Book has its BOOK row, a
 *   Magazine none), integrity_check is ok; and versions only grew: no answer showed an Item with
 *   a lower version than an answer that had ended before its request started.
 *
 * `EXTENT_LOAD_SECONDS` (default 4), `EXTENT_LOAD_CLIENTS` (default 32) and
 * `EXTENT_LOAD_REQUESTS` (default 1500 a second) set the long mode; `EXTENT_LOAD_SEED` seeds the
 * choices (the interleaving of the clients still varies from run to run).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkSampleDatabase, inverseProblems, reportFailures } from "./support/consistency.ts";
import { type Answer, type SampleConfig, type SampleServer, S, call, random, sampleConfig, startSample, stopAllSamples } from "./support/sample-server.ts";

const SECONDS = Number(process.env.EXTENT_LOAD_SECONDS ?? 4);
const CLIENTS = Number(process.env.EXTENT_LOAD_CLIENTS ?? 32);
const MAX_REQUESTS = Number(process.env.EXTENT_LOAD_REQUESTS ?? SECONDS * 1500);
const SEED = Number(process.env.EXTENT_LOAD_SEED ?? Math.floor(Math.random() * 2 ** 31));
const rng = random(SEED);
const q = encodeURIComponent;
const DAY = 86_400_000;

type Kind = "Book" | "Magazine";
/** A 2xx write of an object: when it ran, the version it answered, the fields it set. */
interface Write {
  start: number;
  end: number;
  version?: number;
  fields: Record<string, unknown>;
}
/** An answer that showed an Item's version. */
interface Seen {
  start: number;
  end: number;
  version: number;
  what: string;
}
interface Item {
  id: number;
  kind: Kind;
  title: string;
  created: Record<string, unknown>;
  writes: Write[];
  seen: Seen[];
  deleted: boolean;
  deleting: boolean;
  /** Requests in flight that name this Item as an existing object (a DELETE waits for none). */
  linking: number;
}
interface Author {
  id: number;
  name: string;
  writes: Write[];
  deleted: boolean;
  /** DELETEs of it in flight. */
  deleting: number;
}
interface Shelf {
  code: string;
  label: string;
  /** The POST (label and items) and every 2xx PUT. */
  writes: Write[];
  deleted: boolean;
  deleting: number;
}
interface Member {
  email: string;
  name: string;
  borrowed: number[];
  deleted: boolean;
  deleting: boolean;
}

const items = new Map<number, Item>();
const itemList: Item[] = [];
const authors = new Map<number, Author>();
const authorList: Author[] = [];
const shelves = new Map<string, Shelf>();
const shelfList: Shelf[] = [];
const members = new Map<string, Member>();
const memberList: Member[] = [];
/** Markers of POSTs that were refused: nothing of them may be stored. */
const refusedMarkers: string[] = [];

const stats = { requests: 0, status: new Map<number, number>(), retried503: 0, writes2xx: 0, byOp: new Map<string, { n: number; ms: number }>(), ms: 0 };
const problems = {
  serverErrors: [] as string[],
  answers: [] as string[],
  lost: [] as string[],
  versions: [] as string[],
  inverse: [] as string[],
  database: [] as string[],
};
let counter = 0;
const unique = () => ++counter;

let config: SampleConfig | undefined;
let server: SampleServer | undefined;

async function request(method: string, path: string, body?: unknown): Promise<{ answer: Answer; start: number; end: number }> {
  const start = performance.now();
  for (let attempt = 0; ; attempt++) {
    stats.requests++;
    const answer = await call(server!.url, method, path, body);
    stats.status.set(answer.status, (stats.status.get(answer.status) ?? 0) + 1);
    if (answer.status === 503 && answer.headers.get("retry-after") && attempt < 50) {
      stats.retried503++;
      await new Promise((r) => setTimeout(r, 10 + 10 * attempt));
      continue;
    }
    if (answer.status >= 500)
      problems.serverErrors.push(
        `${method} ${path} ${body === undefined ? "" : JSON.stringify(body).slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 500)}`,
      );
    return { answer, start, end: performance.now() };
  }
}

const liveItem = (ok: (i: Item) => boolean = () => true): Item | undefined => {
  for (let t = 0; t < 8; t++) {
    const i = rng.pick(itemList);
    if (i && !i.deleted && ok(i)) return i;
  }
  return undefined;
};
const liveAuthor = (): Author | undefined => {
  for (let t = 0; t < 8; t++) {
    const a = rng.pick(authorList);
    if (a && !a.deleted) return a;
  }
  return undefined;
};
const seeItem = (json: any, start: number, end: number, what: string) => {
  const item = items.get(json?.id);
  if (item && typeof json._version === "number") item.seen.push({ start, end, version: json._version, what });
};
const itemClass = (json: any) => String(json.class).slice(S.length + 1) as Kind;

// ---- writes -------------------------------------------------------------------------------

async function postAuthor(k: number): Promise<void> {
  const marker = `L${k}-${unique()}`;
  const n = rng.int(2, 4);
  const works: any[] = Array.from({ length: n }, (_, i) =>
    rng.next() < 0.6
      ? { class: `${S}.Book`, title: `${marker}#${i}`, pages: rng.int(1, 900), price: unique() + 0.25, tags: [`t${unique()}`] }
      : { class: `${S}.Magazine`, title: `${marker}#${i}`, issue: rng.int(1, 99) },
  );
  const adopt = rng.next() < 0.3 ? liveItem((i) => !i.deleting) : undefined;
  if (adopt) {
    adopt.linking++;
    works.push({ class: `${S}.${adopt.kind}`, id: adopt.id });
  }
  const { answer, start, end } = await request("POST", `/${S}.Author`, { name: marker, works }).finally(() => adopt && adopt.linking--);
  if (answer.status !== 201) {
    refusedMarkers.push(marker);
    if (answer.status < 500) problems.answers.push(`POST Author ${marker} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  stats.writes2xx++;
  const author: Author = { id: answer.body._id, name: marker, writes: [], deleted: false, deleting: 0 };
  authors.set(author.id, author);
  authorList.push(author);
  for (const w of answer.body.works as any[]) {
    if (w.author?._id !== author.id) problems.answers.push(`POST Author ${marker} answered work ${w.id} with author ${JSON.stringify(w.author)}`);
    if (adopt && w.id === adopt.id) {
      adopt.writes.push({ start, end, version: w._version, fields: { author: author.id } });
      seeItem(w, start, end, `POST Author ${marker} adopting it`);
      continue;
    }
    const sent = works.find((x) => x.title === w.title);
    if (!sent) {
      problems.answers.push(`POST Author ${marker} answered an unknown work ${JSON.stringify(w)}`);
      continue;
    }
    const kind = itemClass(w);
    const created: Record<string, unknown> = {
      price: sent.price ?? null,
      tags: sent.tags ?? null,
      author: author.id,
      ...(kind === "Book" ? { pages: sent.pages } : { issue: sent.issue }),
    };
    const item: Item = { id: w.id, kind, title: w.title, created, writes: [], seen: [], deleted: false, deleting: false, linking: 0 };
    item.seen.push({ start, end, version: w._version, what: `POST Author ${marker}` });
    items.set(item.id, item);
    itemList.push(item);
  }
}

async function postMember(k: number): Promise<void> {
  const books: Item[] = [];
  for (let t = 0; t < rng.int(1, 3); t++) {
    const b = liveItem((i) => i.kind === "Book" && !i.deleting && !books.includes(i));
    if (b) books.push(b);
  }
  const email = `m${k}-${unique()}@example.org`;
  for (const b of books) b.linking++;
  const { answer } = await request("POST", `/${S}.Member`, { email, name: email, borrowed: books.map((b) => ({ class: `${S}.Book`, id: b.id })) }).finally(
    () => {
      for (const b of books) b.linking--;
    },
  );
  if (answer.status !== 201) {
    refusedMarkers.push(email);
    if (answer.status < 500) problems.answers.push(`POST Member ${email} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  stats.writes2xx++;
  const m: Member = { email, name: email, borrowed: books.map((b) => b.id), deleted: false, deleting: false };
  members.set(email, m);
  memberList.push(m);
}

/** Two clients POST a Member with the same email at once: one 201, one 409, and only the first's loans. */
async function raceMember(k: number): Promise<void> {
  const email = `race${k}-${unique()}@example.org`;
  const books = [0, 1].map(() => {
    const b = rng.next() < 0.5 ? liveItem((i) => i.kind === "Book" && !i.deleting) : undefined;
    if (b) b.linking++;
    return b;
  });
  const bodies = books.map((b, i) => ({ email, name: `${email}/${i}`, borrowed: b ? [{ class: `${S}.Book`, id: b.id }] : [] }));
  const answers = await Promise.all(bodies.map((body) => request("POST", `/${S}.Member`, body))).finally(() => books.forEach((b) => b && b.linking--));
  const statuses = answers.map((a) => a.answer.status);
  const won = statuses.indexOf(201);
  if (won < 0 || statuses[1 - won] !== 409) {
    if (statuses.every((st) => st < 500)) problems.answers.push(`two POSTs of Member ${email} answered ${statuses.join(" and ")}, not 201 and 409`);
    if (won < 0) return;
  }
  stats.writes2xx++;
  const winner = books[won];
  const m: Member = { email, name: bodies[won]!.name, borrowed: winner ? [winner.id] : [], deleted: false, deleting: false };
  members.set(email, m);
  memberList.push(m);
}

/** 1 to 3 distinct live Items, held against DELETE until `release()`. */
function linkItems(min: number, max: number): { ids: { class: string; id: number }[]; items: Item[]; release(): void } {
  const chosen: Item[] = [];
  for (let t = rng.int(min, max); t > 0; t--) {
    const i = liveItem((x) => !x.deleting && !chosen.includes(x));
    if (i) chosen.push(i);
  }
  for (const i of chosen) i.linking++;
  return { ids: chosen.map((i) => ({ class: `${S}.${i.kind}`, id: i.id })), items: chosen, release: () => chosen.forEach((i) => i.linking--) };
}

async function postShelf(k: number): Promise<void> {
  const label = `shelf${k}-${unique()}`;
  const link = linkItems(1, 3);
  const { answer, start, end } = await request("POST", `/${S}.Shelf`, { label, items: link.ids }).finally(link.release);
  if (answer.status !== 201) {
    refusedMarkers.push(label);
    if (answer.status < 500) problems.answers.push(`POST Shelf ${label} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  stats.writes2xx++;
  const got = ((answer.body.items ?? []) as any[]).map((i) => i.id);
  const sent = link.items.map((i) => i.id);
  if (JSON.stringify(got) !== JSON.stringify(sent))
    problems.answers.push(`POST Shelf ${label} with items ${JSON.stringify(sent)} answered ${JSON.stringify(got)}`);
  const shelf: Shelf = { code: answer.body.code, label, writes: [{ start, end, fields: { label, items: sent } }], deleted: false, deleting: 0 };
  shelves.set(shelf.code, shelf);
  shelfList.push(shelf);
}

async function putShelf(): Promise<void> {
  const shelf = rng.pick(shelfList.filter((x) => !x.deleted));
  if (!shelf) return;
  const link = rng.next() < 0.8 ? linkItems(0, 3) : undefined;
  const fields: Record<string, unknown> = link ? { items: link.ids } : { label: `relabelled-${unique()}` };
  const { answer, start, end } = await request("PUT", `/${S}.Shelf/${shelf.code}`, fields).finally(() => link?.release());
  if (answer.status === 200) {
    stats.writes2xx++;
    shelf.writes.push({ start, end, fields: link ? { items: link.items.map((i) => i.id) } : fields });
  } else if (answer.status !== 404 || (!shelf.deleted && !shelf.deleting)) {
    if (answer.status < 500) problems.answers.push(`PUT Shelf ${shelf.code} ${JSON.stringify(fields)} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
}

async function putItem(): Promise<void> {
  const item = liveItem();
  if (!item) return;
  const fields: Record<string, unknown> = {};
  const choices = ["price", "tags", item.kind === "Book" ? "pages" : "issue", "author"];
  for (let t = rng.int(1, 2); t > 0; t--) {
    const f = rng.pick(choices)!;
    if (f === "price") fields.price = unique() + 0.5;
    else if (f === "tags") fields.tags = [`t${unique()}`, "load"];
    else if (f === "pages" || f === "issue") fields[f] = unique();
    else {
      const a = rng.next() < 0.2 ? undefined : liveAuthor();
      fields.author = a ? { _id: a.id } : null;
    }
  }
  const path = `/${S}.${rng.next() < 0.5 ? "Item" : item.kind}/${item.id}`;
  const { answer, start, end } = await request("PUT", path, fields);
  if (answer.status === 200) {
    stats.writes2xx++;
    const set = { ...fields, ...("author" in fields ? { author: (fields.author as { _id: number } | null)?._id ?? null } : {}) };
    item.writes.push({ start, end, version: answer.body._version, fields: set });
    seeItem(answer.body, start, end, `PUT ${JSON.stringify(fields)}`);
    for (const [f, v] of Object.entries(set)) {
      const got = f === "author" ? (answer.body.author?._id ?? null) : answer.body[f];
      if (JSON.stringify(got) !== JSON.stringify(v)) problems.answers.push(`PUT ${path} ${JSON.stringify(fields)} answered ${f} = ${JSON.stringify(got)}`);
    }
  } else if (answer.status === 404) {
    // Deleted meanwhile: fine if a DELETE of it ran.
    if (!item.deleted && !item.deleting) problems.answers.push(`PUT ${path} answered 404 for an Item no DELETE touched`);
  } else if (answer.status === 409 || answer.status === 422) {
    // The Author named was deleted meanwhile.
    const a = (fields.author as { _id: number } | undefined)?._id;
    const named = a === undefined ? undefined : authors.get(a);
    if (!named || (!named.deleted && !named.deleting))
      problems.answers.push(`PUT ${path} ${JSON.stringify(fields)} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  } else if (answer.status < 500) problems.answers.push(`PUT ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

async function putAuthor(): Promise<void> {
  const author = liveAuthor();
  if (!author) return;
  const v = unique();
  const fields = rng.next() < 0.5 ? { born: v * DAY } : { address: { street: `s${v}`, city: `c${v}`, country: `k${v}` } };
  const { answer, start, end } = await request("PUT", `/${S}.Author/${author.id}`, fields);
  if (answer.status === 200) {
    stats.writes2xx++;
    author.writes.push({ start, end, fields });
  } else if (answer.status !== 404 || (!author.deleted && !author.deleting)) {
    if (answer.status < 500) problems.answers.push(`PUT Author ${author.id} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
}

async function deleteSomething(): Promise<void> {
  const r = rng.next();
  if (r < 0.6) {
    const item = liveItem((i) => i.linking === 0 && !i.deleting);
    if (!item) return;
    item.deleting = true;
    const { answer } = await request("DELETE", `/${S}.Item/${item.id}`).finally(() => (item.deleting = false));
    if (answer.status === 204) {
      stats.writes2xx++;
      item.deleted = true;
    } else if (answer.status < 500) problems.answers.push(`DELETE Item ${item.id} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  } else if (r < 0.9) {
    const author = liveAuthor();
    if (!author) return;
    author.deleting++;
    const { answer } = await request("DELETE", `/${S}.Author/${author.id}`).finally(() => author.deleting--);
    if (answer.status === 204) {
      stats.writes2xx++;
      author.deleted = true;
    } else if (answer.status !== 404) problems.answers.push(`DELETE Author ${author.id} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  } else if (r < 0.95) {
    const shelf = rng.pick(shelfList.filter((x) => !x.deleted));
    if (!shelf) return;
    shelf.deleting++;
    const { answer } = await request("DELETE", `/${S}.Shelf/${shelf.code}`).finally(() => shelf.deleting--);
    if (answer.status === 204) {
      stats.writes2xx++;
      shelf.deleted = true;
    } else if (answer.status !== 404) problems.answers.push(`DELETE Shelf ${shelf.code} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  } else {
    const m = rng.pick(memberList.filter((x) => !x.deleted && !x.deleting));
    if (!m) return;
    m.deleting = true;
    const { answer } = await request("DELETE", `/${S}.Member/${q(m.email)}`).finally(() => (m.deleting = false));
    if (answer.status === 204) {
      stats.writes2xx++;
      m.deleted = true;
    } else if (answer.status < 500) problems.answers.push(`DELETE Member ${m.email} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
}

// ---- reads --------------------------------------------------------------------------------

async function getItem(): Promise<void> {
  const item = rng.pick(itemList);
  if (!item) return;
  const deletedBefore = item.deleted;
  const { answer, start, end } = await request("GET", `/${S}.Item/${item.id}`);
  if (answer.status === 200) {
    if (deletedBefore) problems.lost.push(`GET Item ${item.id} answered it after a 204 DELETE of it`);
    if (answer.body.title !== item.title || itemClass(answer.body) !== item.kind)
      problems.answers.push(`GET Item ${item.id} answered ${answer.text.slice(0, 300)}`);
    seeItem(answer.body, start, end, "GET by key");
  } else if (answer.status === 404) {
    if (!item.deleted && !item.deleting) problems.lost.push(`GET Item ${item.id} answered 404, but no DELETE touched it`);
  } else if (answer.status < 500) problems.answers.push(`GET Item ${item.id} answered ${answer.status}`);
}

async function headItem(): Promise<void> {
  const item = rng.pick(itemList);
  if (!item) return;
  const { answer } = await request("HEAD", `/${S}.${item.kind}/${item.id}`);
  if (answer.status === 404 && !item.deleted && !item.deleting) problems.lost.push(`HEAD ${item.kind} ${item.id} answered 404, but no DELETE touched it`);
  else if (answer.status !== 200 && answer.status !== 404 && answer.status < 500)
    problems.answers.push(`HEAD ${item.kind} ${item.id} answered ${answer.status}`);
}

async function getAuthor(): Promise<void> {
  const author = rng.pick(authorList);
  if (!author) return;
  const { answer, start, end } = await request("GET", `/${S}.Author/${author.id}?fetchGroup=all`);
  if (answer.status === 200) {
    if (answer.body.name !== author.name) problems.answers.push(`GET Author ${author.id} answered ${answer.text.slice(0, 300)}`);
    for (const w of answer.body.works ?? []) {
      // One answer is one snapshot: each of its works names this Author.
      if (w.author?._id !== author.id) problems.inverse.push(`GET Author ${author.id} lists work ${w.id} whose author is ${JSON.stringify(w.author)}`);
      seeItem(w, start, end, `GET Author ${author.id}`);
    }
  } else if (answer.status === 404) {
    if (!author.deleted && !author.deleting) problems.lost.push(`GET Author ${author.id} answered 404, but no DELETE touched it`);
  } else if (answer.status < 500) problems.answers.push(`GET Author ${author.id} answered ${answer.status}`);
}

async function getExtent(): Promise<void> {
  const path = rng.pick([`/${S}.Member?fetchGroup=all`, `/${S}.Author`, `/${S}.Magazine`])!;
  const { answer, start, end } = await request("GET", path);
  if (answer.status !== 200 || !Array.isArray(answer.body)) {
    if (answer.status < 500) problems.answers.push(`GET ${path} answered ${answer.status}`);
    return;
  }
  if (path.includes("Magazine")) for (const m of answer.body) seeItem(m, start, end, "GET Magazine extent");
}

async function filterQuery(): Promise<void> {
  const lo = rng.int(0, Math.max(1, counter));
  const hi = lo + 50;
  const path = `/${S}.Item?filter=${q(`price >= ${lo} && price < ${hi}`)}`;
  const { answer, start, end } = await request("GET", path);
  if (answer.status !== 200) {
    if (answer.status < 500) problems.answers.push(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  for (const x of answer.body) {
    if (!(x.price >= lo && x.price < hi)) problems.answers.push(`filter price in [${lo}, ${hi}) answered ${JSON.stringify(x).slice(0, 200)}`);
    seeItem(x, start, end, "filter");
  }
}

async function jdoql(): Promise<void> {
  const p = rng.int(1, 900);
  const path = `/jdoql?query=${q(`SELECT FROM ${S}.Book WHERE pages > :p && author != null ORDER BY pages RANGE 0, 10`)}&params=${q(JSON.stringify({ p }))}`;
  const { answer, start, end } = await request("GET", path);
  if (answer.status !== 200) {
    if (answer.status < 500) problems.answers.push(`JDOQL answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  for (const b of answer.body) {
    if (!(b.pages > p) || b.author === null || b.class !== `${S}.Book`)
      problems.answers.push(`JDOQL pages > ${p} && author != null answered ${JSON.stringify(b).slice(0, 200)}`);
    seeItem(b, start, end, "JDOQL");
  }
}

async function jpql(): Promise<void> {
  const p = rng.int(1, 900);
  const queries = [
    [`SELECT b.title, a.name FROM Book b JOIN b.author a WHERE b.pages BETWEEN ?1 AND ?2`, [p, p + 5]],
    [`SELECT COUNT(i) FROM Item i WHERE i.author IS NULL`, []],
    [`SELECT m.title, m.issue FROM Magazine m WHERE m.issue = ?1`, [p % 99]],
  ] as const;
  const [text, params] = rng.pick(queries)!;
  const path = `/jpql?query=${q(text)}&params=${q(JSON.stringify(params))}`;
  const { answer } = await request("GET", path);
  if (answer.status !== 200) {
    if (answer.status < 500) problems.answers.push(`JPQL ${text} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  const ok = typeof answer.body === "number" || (Array.isArray(answer.body) && answer.body.every((r: unknown) => Array.isArray(r) && r.length === 2));
  if (!ok) problems.answers.push(`JPQL ${text} answered ${answer.text.slice(0, 300)}`);
}

const OPS: [number, string, (k: number) => Promise<void>][] = [
  [12, "POST Author graph", postAuthor],
  [3, "POST Member", postMember],
  [1, "POST Member twice at once", raceMember],
  [24, "PUT Item", putItem],
  [7, "PUT Author", putAuthor],
  [2, "POST Shelf", postShelf],
  [3, "PUT Shelf", putShelf],
  [8, "DELETE", deleteSomething],
  [14, "GET Item", getItem],
  [3, "HEAD Item", headItem],
  [8, "GET Author", getAuthor],
  [2, "GET extent", getExtent],
  [7, "filter", filterQuery],
  [6, "JDOQL", jdoql],
  [6, "JPQL", jpql],
];
const TOTAL = OPS.reduce((s, [w]) => s + w, 0);

async function client(k: number, deadline: number): Promise<void> {
  while (performance.now() < deadline && stats.requests < MAX_REQUESTS) {
    let r = rng.next() * TOTAL;
    const op = itemList.length < 10 ? OPS[0]! : OPS.find(([w]) => (r -= w) < 0)!;
    const t = performance.now();
    await op[2](k);
    const o = stats.byOp.get(op[1]) ?? { n: 0, ms: 0 };
    stats.byOp.set(op[1], { n: o.n + 1, ms: o.ms + performance.now() - t });
  }
}

// ---- the final state ----------------------------------------------------------------------

/** The value a field must hold: that of the 2xx write with the highest version that set it. */
function expectedItemField(item: Item, field: string): unknown {
  let best: Write | undefined;
  for (const w of item.writes) if (field in w.fields && (!best || w.version! > best.version!)) best = w;
  const value = best ? best.fields[field] : item.created[field];
  if (field === "author" && value !== null && authors.get(value as number)?.deleted) return null;
  return value;
}

/**
 * The values a field of an unversioned object may hold: those of 2xx writes that no 2xx write
 * started after they had ended (in real time); `initial` when no write set it.
 */
function allowedValues(writes: readonly Write[], field: string, initial: unknown = null): unknown[] {
  const setting = writes.filter((w) => field in w.fields);
  if (!setting.length) return [initial];
  const lastStart = Math.max(...setting.map((w) => w.start));
  return setting.filter((w) => w.end >= lastStart).map((w) => w.fields[field]);
}

async function checkFinalState(): Promise<number> {
  let checked = 0;
  const get = async (path: string) => {
    const r = await call(server!.url, "GET", path);
    assert.equal(r.status, 200, `GET ${path}: ${r.text.slice(0, 300)}`);
    return r.body as any[];
  };
  const itemsNow = await get(`/${S}.Item`);
  const authorsNow = await get(`/${S}.Author?fetchGroup=all`);
  const membersNow = await get(`/${S}.Member?fetchGroup=all`);
  const end = performance.now();

  const itemById = new Map(itemsNow.map((i) => [i.id as number, i]));
  for (const i of itemsNow) if (!items.has(i.id)) problems.lost.push(`Item ${i.id} (${i.title}) is stored, but no 201 created it`);
  for (const item of items.values()) {
    const now = itemById.get(item.id);
    checked += 1 + item.writes.length;
    if (item.deleted) {
      if (now) problems.lost.push(`Item ${item.id} is back after a 204 DELETE`);
      continue;
    }
    if (!now) {
      problems.lost.push(`Item ${item.id} (${item.title}), created with 201, is missing`);
      continue;
    }
    if (now.title !== item.title || itemClass(now) !== item.kind)
      problems.lost.push(`Item ${item.id} is ${now.class} "${now.title}", created as ${item.kind} "${item.title}"`);
    item.seen.push({ start: end, end, version: now._version, what: "the final extent" });
    // One version step per 2xx write, each its own; releases (an Author's works replaced, an
    // Author deleted) change the Item without a write of its own and take steps too.
    const versions = item.writes.map((w) => w.version!).sort((a, b) => a - b);
    const distinct = new Set(versions).size === versions.length && versions.every((v) => v >= 2);
    if (!distinct || now._version < 1 + versions.length || now._version < Math.max(1, ...versions))
      problems.lost.push(`Item ${item.id}: version ${now._version} after ${versions.length} 2xx writes, which answered versions ${JSON.stringify(versions)}`);
    for (const field of ["price", "tags", "author", item.kind === "Book" ? "pages" : "issue"]) {
      const expected = expectedItemField(item, field);
      const actual = field === "author" ? (now.author?._id ?? null) : now[field];
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        problems.lost.push(`Item ${item.id}.${field} is ${JSON.stringify(actual)}, the last 2xx write set ${JSON.stringify(expected)}`);
    }
  }

  const authorById = new Map(authorsNow.map((a) => [a._id as number, a]));
  for (const a of authorsNow) if (!authors.has(a._id)) problems.lost.push(`Author ${a._id} (${a.name}) is stored, but no 201 created it`);
  for (const author of authors.values()) {
    const now = authorById.get(author.id);
    checked += 1 + author.writes.length;
    if (author.deleted) {
      if (now) problems.lost.push(`Author ${author.id} is back after a 204 DELETE`);
      continue;
    }
    if (!now) {
      problems.lost.push(`Author ${author.id} (${author.name}), created with 201, is missing`);
      continue;
    }
    if (now.name !== author.name) problems.lost.push(`Author ${author.id} is named ${now.name}, created as ${author.name}`);
    for (const field of ["born", "address"]) {
      const allowed = allowedValues(author.writes, field).map((v) => JSON.stringify(v));
      if (!allowed.includes(JSON.stringify(now[field])))
        problems.lost.push(`Author ${author.id}.${field} is ${JSON.stringify(now[field])}, not one of the last 2xx PUTs' ${allowed.join(", ")}`);
    }
  }

  const shelvesNow = await get(`/${S}.Shelf?fetchGroup=all`);
  const shelfByCode = new Map(shelvesNow.map((x) => [x.code as string, x]));
  for (const x of shelvesNow) if (!shelves.has(x.code)) problems.lost.push(`Shelf ${x.code} (${x.label}) is stored, but no 201 created it`);
  for (const shelf of shelves.values()) {
    const now = shelfByCode.get(shelf.code);
    checked += shelf.writes.length;
    if (shelf.deleted) {
      if (now) problems.lost.push(`Shelf ${shelf.code} is back after a 204 DELETE`);
      continue;
    }
    if (!now) {
      problems.lost.push(`Shelf ${shelf.code} (${shelf.label}), created with 201, is missing`);
      continue;
    }
    const labels = allowedValues(shelf.writes, "label");
    if (!labels.includes(now.label))
      problems.lost.push(`Shelf ${shelf.code} is labelled ${now.label}, not one of the last 2xx writes' ${JSON.stringify(labels)}`);
    // The items in the order written, less those deleted since.
    const lists = allowedValues(shelf.writes, "items").map((ids) => JSON.stringify((ids as number[]).filter((id) => !items.get(id)!.deleted)));
    const got = JSON.stringify(((now.items ?? []) as any[]).map((i) => i.id));
    if (!lists.includes(got)) problems.lost.push(`Shelf ${shelf.code} holds ${got}, not one of the last 2xx writes' ${lists.join(" or ")}`);
  }

  const memberByEmail = new Map(membersNow.map((m) => [m.email as string, m]));
  for (const m of membersNow) if (!members.has(m.email)) problems.lost.push(`Member ${m.email} is stored, but no 201 created it`);
  for (const m of members.values()) {
    const now = memberByEmail.get(m.email);
    checked++;
    if (m.deleted) {
      if (now) problems.lost.push(`Member ${m.email} is back after a 204 DELETE`);
      continue;
    }
    if (!now) {
      problems.lost.push(`Member ${m.email}, created with 201, is missing`);
      continue;
    }
    if (now.name !== m.name) problems.lost.push(`Member ${m.email} is named ${now.name}, the 201 POST named it ${m.name}`);
    const want = m.borrowed.filter((id) => !items.get(id)!.deleted).sort((a, b) => a - b);
    const got = ((now.borrowed ?? []) as any[]).map((b) => b.id).sort((a, b) => a - b);
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.lost.push(`Member ${m.email} borrows ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }

  for (const marker of refusedMarkers) {
    if (
      authorsNow.some((a) => a.name === marker) ||
      itemsNow.some((i) => String(i.title).startsWith(`${marker}#`)) ||
      memberByEmail.has(marker) ||
      shelvesNow.some((x) => x.label === marker)
    )
      problems.lost.push(`a refused POST (${marker}) left objects behind`);
  }

  problems.inverse.push(...inverseProblems(authorsNow, itemsNow));

  // Versions only grew: an answer never shows a lower version than one that ended before its request started.
  for (const item of items.values()) {
    const byEnd = [...item.seen].sort((a, b) => a.end - b.end);
    for (const b of item.seen) {
      let max: Seen | undefined;
      for (const a of byEnd) {
        if (a.end >= b.start) break;
        if (!max || a.version > max.version) max = a;
      }
      if (max && max.version > b.version) {
        problems.versions.push(`Item ${item.id}: ${b.what} answered version ${b.version} after ${max.what} had answered ${max.version}`);
        break;
      }
    }
  }
  return checked;
}

let writesChecked = 0;

before(async () => {
  config = sampleConfig("extent-load-");
  server = await startSample(config);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k, deadline)));
  stats.ms = performance.now() - started;
  writesChecked = await checkFinalState();
  problems.database.push(...reportFailures(await checkSampleDatabase(config.file)));
});

after(async () => {
  await stopAllSamples();
  config?.remove();
});

test("under load: no 5xx", (t) => {
  const statuses = [...stats.status]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  const fiveXX = [...stats.status].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0) - stats.retried503;
  const line =
    `load: ${stats.requests} requests in ${(stats.ms / 1000).toFixed(1)} s from ${CLIENTS} clients (${Math.round(stats.requests / (stats.ms / 1000))}/s); ` +
    `${statuses}; 503 retried ${stats.retried503}; 5xx ${fiveXX}; writes checked ${writesChecked} (${stats.writes2xx} 2xx writes), lost ${problems.lost.length} (seed ${SEED})`;
  t.diagnostic(line);
  t.diagnostic(`load mix (count, mean ms): ${[...stats.byOp].map(([op, { n, ms }]) => `${op} ${n} ${(ms / n).toFixed(1)}`).join(", ")}`);
  assert.ok(stats.writes2xx > 50, `too few writes: ${stats.writes2xx}`);
  assert.deepEqual(problems.serverErrors, []);
});

test("under load: every answer is the one the contract gives", () => {
  assert.deepEqual(problems.answers, []);
});

test("under load: no write is lost (final state = what the 2xx answers imply)", () => {
  assert.deepEqual(problems.lost, []);
});

test("under load: versions only grew", () => {
  assert.deepEqual(problems.versions, []);
});

test("under load: the database is consistent (references, inverse relations, discriminators, integrity)", () => {
  assert.deepEqual(problems.inverse, []);
  assert.deepEqual(problems.database, []);
});

test("versions: an Item whose author is released (PUT of the Author's works, DELETE of the Author) gets a new version", async () => {
  const post = async (body: unknown) => (await call(server!.url, "POST", `/${S}.Author`, body)).body;
  const item = async (id: number) => (await call(server!.url, "GET", `/${S}.Item/${id}`)).body;
  const a = await post({ name: "release-a", works: [{ class: `${S}.Book`, title: "release-1", pages: 1 }] });
  const b = await post({ name: "release-b", works: [{ class: `${S}.Magazine`, title: "release-2", issue: 1 }] });
  assert.equal((await call(server!.url, "PUT", `/${S}.Author/${a._id}`, { works: [] })).status, 200);
  assert.equal((await call(server!.url, "DELETE", `/${S}.Author/${b._id}`)).status, 204);
  const [one, two] = [await item(a.works[0].id), await item(b.works[0].id)];
  assert.deepEqual([one.author, two.author], [null, null]);
  assert.deepEqual([one._version, two._version], [2, 2], "the author changed, the version did not");
});
