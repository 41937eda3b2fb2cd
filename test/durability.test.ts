/**
 * Durability: the real server (`extent serve`, its own process) on an embedded file takes a write
 * load from several clients: graphs (an Author with 3 to 5 new works, Books and Magazines: rows in
 * AUTHOR, ITEM and BOOK; now and then 40 to 120 works), partial PUTs and DELETEs of the objects
 * each client created (in this cycle or an earlier one), every request recognisable by a unique
 * marker. After a random 300 to 800 ms (and at least 5 writes answered), the whole process group
 * gets SIGKILL. The server starts again on the same file, and then:
 *
 * - every write that answered 2xx is there (and every object a 2xx DELETE removed is gone);
 * - no graph is half written: for a request that was in flight at the kill, either its Author and
 *   all its works are there, linked, with their subclass rows, or nothing of it is; a refused
 *   request left nothing;
 * - the file needs no repair: PRAGMA integrity_check is ok, foreign_key_check is empty, the
 *   journal is WAL, references and discriminators are consistent;
 * - the restarted server answers reads (by key, a filter, JDOQL) and writes.
 *
 * Before all that, a first server is killed while it creates the schema: the next one starts.
 * What an in-flight request did is then taken as known, and the next cycle loads the same file.
 * `EXTENT_DURABILITY_CYCLES=N` (default 3) sets the number of kills, `EXTENT_DURABILITY_CLIENTS`
 * (default 6) the concurrent clients, `EXTENT_DURABILITY_SEED` seeds the choices and the kill times
 * (printed; the interleaving of the clients still varies).
 */
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { after, before, test } from "node:test";
import { checkSampleDatabase, openReadOnly, reportFailures } from "./support/consistency.ts";
import { type SampleConfig, type SampleServer, S, call, random, sampleConfig, spawnSample, startSample, stopAllSamples } from "./support/sample-server.ts";

const CYCLES = Number(process.env.EXTENT_DURABILITY_CYCLES ?? 3);
const CLIENTS = Number(process.env.EXTENT_DURABILITY_CLIENTS ?? 6);
const SEED = Number(process.env.EXTENT_DURABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const rng = random(SEED);
const q = encodeURIComponent;

/** What the answers told: yes, no, or unknown (the request was in flight at the kill). */
type Tri = "no" | "yes" | "maybe";

interface Work {
  title: string;
  kind: "Book" | "Magazine";
  /** Pages of a Book, issue of a Magazine. */
  n: number;
  id?: number;
  gone: Tri;
  price: number | null;
  /** A PUT of this price was in flight at the kill. */
  pendingPrice?: number;
  version: number;
}

interface Graph {
  marker: string;
  client: number;
  /** acked: 201; refused: another answer, or nothing of it survived; unknown: in flight at the kill. */
  fate: "acked" | "refused" | "unknown";
  id?: number;
  works: Work[];
  gone: Tri;
  address: string | null;
  pendingAddress?: string;
}

const graphs: Graph[] = [];
/** Every POST by its marker: a row whose marker is not here was written by no request. */
const byMarker = new Map<string, Graph>();

const stats = {
  acknowledged: 0,
  refused: 0,
  inFlight: 0,
  status: new Map<number, number>(),
  walAtKill: [] as number[],
  requests: 0,
  serverErrors: [] as string[],
  startUpKill: "",
  bigInFlight: 0,
  restartMs: [] as number[],
};
const found = { lost: [] as string[], half: [] as string[], other: [] as string[], database: [] as string[], reads: [] as string[] };

let config: SampleConfig | undefined;
let server: SampleServer | undefined;

const count = (status: number) => stats.status.set(status, (stats.status.get(status) ?? 0) + 1);

/** The graphs each client POSTed, over all cycles. */
const owned: Graph[][] = Array.from({ length: CLIENTS }, () => []);

/** One client's writes until `stopping()`; the first failed request (the kill) ends it. */
async function client(cycle: number, k: number, stopping: () => boolean): Promise<void> {
  let seq = 0;
  const base = server!.url;
  while (!stopping()) {
    const live = owned[k]!.filter((g) => g.fate === "acked" && g.gone === "no" && g.id !== undefined);
    const works = live.flatMap((g) => g.works.filter((w) => w.gone === "no"));
    const r = rng.next();
    const marker = `d${cycle}-${k}-${seq++}-${rng.int(0, 1e9)}`;
    stats.requests++;
    if (r < 0.45 || !live.length) {
      // Mostly 3 to 5 works; now and then a big graph (a longer transaction for the kill to land in).
      const n = rng.next() < 0.08 ? rng.int(40, 120) : rng.int(3, 5);
      const g: Graph = {
        marker,
        client: k,
        fate: "unknown",
        gone: "no",
        address: null,
        works: Array.from({ length: n }, (_, i): Work => {
          const kind = rng.next() < 0.6 ? "Book" : "Magazine";
          return { title: `${marker}#${i}`, kind, n: i + 1, gone: "no", price: null, version: 1 };
        }),
      };
      graphs.push(g);
      owned[k]!.push(g);
      byMarker.set(marker, g);
      const body = {
        name: marker,
        works: g.works.map((w) =>
          w.kind === "Book" ? { class: `${S}.Book`, title: w.title, pages: w.n, isbn: w.title } : { class: `${S}.Magazine`, title: w.title, issue: w.n },
        ),
      };
      let answer;
      try {
        answer = await call(base, "POST", `/${S}.Author`, body);
      } catch {
        stats.inFlight++;
        if (n > 5) stats.bigInFlight++;
        return;
      }
      count(answer.status);
      if (answer.status === 201) {
        g.fate = "acked";
        stats.acknowledged++;
        g.id = answer.body._id;
        for (const w of g.works) w.id = (answer.body.works as any[]).find((x) => x.title === w.title)?.id;
      } else {
        g.fate = "refused";
        stats.refused++;
        if (answer.status >= 500) stats.serverErrors.push(`POST ${marker}: ${answer.status} ${answer.text}`);
      }
    } else if (r < 0.7 && works.length) {
      const w = rng.pick(works)!;
      const price = cycle * 1e7 + k * 1e5 + seq + 0.5;
      let answer;
      try {
        answer = await call(base, "PUT", `/${S}.${rng.next() < 0.5 ? "Item" : w.kind}/${w.id}`, { price });
      } catch {
        stats.inFlight++;
        w.pendingPrice = price;
        return;
      }
      count(answer.status);
      if (answer.status === 200) {
        stats.acknowledged++;
        w.price = price;
        // Deleting the work's Author (another client) releases the work and takes a version step too.
        if (!(answer.body._version > w.version)) found.other.push(`PUT ${w.title} answered version ${answer.body._version}, not above ${w.version}`);
        w.version = answer.body._version;
      } else {
        stats.refused++;
        found.other.push(`PUT of live ${w.title} answered ${answer.status}: ${answer.text}`);
      }
    } else if (r < 0.8) {
      const g = rng.pick(live)!;
      const address = `${marker}@${g.marker}`;
      let answer;
      try {
        answer = await call(base, "PUT", `/${S}.Author/${g.id}`, { address: { street: address, city: address, country: address } });
      } catch {
        stats.inFlight++;
        g.pendingAddress = address;
        return;
      }
      count(answer.status);
      if (answer.status === 200) {
        stats.acknowledged++;
        g.address = address;
      } else {
        stats.refused++;
        found.other.push(`PUT of live Author ${g.marker} answered ${answer.status}: ${answer.text}`);
      }
    } else {
      // Delete a work (mostly) or a whole Author (its works stay, with no author).
      const target: Work | Graph = r < 0.93 && works.length ? rng.pick(works)! : rng.pick(live)!;
      const path = "title" in target ? `/${S}.Item/${target.id}` : `/${S}.Author/${target.id}`;
      let answer;
      try {
        answer = await call(base, "DELETE", path);
      } catch {
        stats.inFlight++;
        target.gone = "maybe";
        return;
      }
      count(answer.status);
      if (answer.status === 204) {
        stats.acknowledged++;
        target.gone = "yes";
      } else {
        stats.refused++;
        found.other.push(`DELETE ${path} answered ${answer.status}: ${answer.text}`);
      }
    }
  }
}

interface AuthorRow {
  id: number;
  name: string;
  street: string | null;
  city: string | null;
  country: string | null;
}
interface ItemRow {
  id: number;
  kind: string;
  version: number;
  title: string;
  price: number | null;
  author: number | null;
  issue: number | null;
  bookId: number | null;
  pages: number | null;
  isbn: string | null;
}

/**
 * Compares the file with what the answers said; what was unknown becomes known (as the file has
 * it). Problems go to `found`.
 */
async function reconcile(cycle: number): Promise<void> {
  const db = await openReadOnly(config!.file);
  let authors: AuthorRow[];
  let items: ItemRow[];
  try {
    authors = db
      .rows(`SELECT _id, name, address_street, address_city, address_country FROM AUTHOR`)
      .map(([id, name, street, city, country]) => ({ id, name, street, city, country }) as AuthorRow);
    items = db
      // A BigDecimal is stored as its sort key and its number (src/json/decimal.ts): the number.
      .rows(
        `SELECT i.id, i.KIND, i.VERSION, i.title, CAST(substr(i.price, instr(i.price, ' ') + 1) AS REAL), i.author, i.issue, b.id, b.pages, b.isbn FROM ITEM i LEFT JOIN BOOK b ON b.id = i.id`,
      )
      .map(
        ([id, kind, version, title, price, author, issue, bookId, pages, isbn]) =>
          ({ id, kind, version, title, price, author, issue, bookId, pages, isbn }) as ItemRow,
      );
  } finally {
    db.close();
  }
  const authorsByName = new Map<string, AuthorRow[]>();
  for (const a of authors) authorsByName.set(a.name, [...(authorsByName.get(a.name) ?? []), a]);
  const itemsByTitle = new Map<string, ItemRow[]>();
  for (const i of items) itemsByTitle.set(i.title, [...(itemsByTitle.get(i.title) ?? []), i]);
  const where = `after kill ${cycle + 1}`;

  // Rows no request wrote.
  for (const a of authors) if (!byMarker.has(a.name)) found.other.push(`${where}: Author row ${a.id} "${a.name}" written by no request`);
  for (const i of items) if (!byMarker.has(i.title.split("#")[0]!)) found.other.push(`${where}: Item row ${i.id} "${i.title}" written by no request`);

  /** The work's rows are what it was created as (kind, subclass row, its number). */
  const shapeProblem = (w: Work, row: ItemRow): string | undefined => {
    if (w.kind === "Book" && (row.kind !== "BOOK" || row.bookId !== row.id || row.pages !== w.n || row.isbn !== w.title || row.issue !== null))
      return `Book ${w.title} stored as ${JSON.stringify(row)}`;
    if (w.kind === "Magazine" && (row.kind !== "MAGAZINE" || row.bookId !== null || row.issue !== w.n))
      return `Magazine ${w.title} stored as ${JSON.stringify(row)}`;
    return undefined;
  };

  for (const g of graphs) {
    if (g.fate === "refused" && g.id === undefined && g.works.every((w) => w.id === undefined)) {
      const left = [...(authorsByName.get(g.marker) ?? []), ...g.works.flatMap((w) => itemsByTitle.get(w.title) ?? [])];
      if (left.length) found.half.push(`${where}: refused POST ${g.marker} left ${left.length} row(s)`);
      continue;
    }
    const aRows = authorsByName.get(g.marker) ?? [];
    const wRows = g.works.map((w) => itemsByTitle.get(w.title) ?? []);
    if (aRows.length > 1 || wRows.some((r) => r.length > 1)) found.other.push(`${where}: ${g.marker} stored more than once`);
    const aRow = aRows[0];

    if (g.fate === "unknown") {
      // In flight at the kill: all of it or nothing.
      const present = wRows.filter((r) => r.length).length + (aRow ? 1 : 0);
      if (present === 0) {
        g.fate = "refused";
        g.gone = "yes";
        for (const w of g.works) w.gone = "yes";
        continue;
      }
      const problems: string[] = [];
      if (!aRow) problems.push("no Author row");
      g.works.forEach((w, i) => {
        const row = wRows[i]![0];
        if (!row) return void problems.push(`no row for ${w.title}`);
        const shape = shapeProblem(w, row);
        if (shape) problems.push(shape);
        if (aRow && row.author !== aRow.id) problems.push(`${w.title} names author ${row.author}, not ${aRow.id}`);
        if (row.version !== 1 || row.price !== null) problems.push(`${w.title} is not as created: ${JSON.stringify(row)}`);
      });
      if (problems.length) {
        found.half.push(
          `${where}: POST ${g.marker} in flight at the kill is half written (${present} of ${g.works.length + 1} objects): ${problems.join("; ")}`,
        );
        // Take what is there as known, so later cycles check the rest.
        g.fate = "acked";
        g.id = aRow?.id;
        g.gone = aRow ? "no" : "yes";
        g.works.forEach((w, i) => {
          const row = wRows[i]![0];
          w.id = row?.id;
          w.gone = row ? "no" : "yes";
        });
        continue;
      }
      g.fate = "acked";
      g.id = aRow!.id;
      g.works.forEach((w, i) => (w.id = wRows[i]![0]!.id));
      continue;
    }

    // Acknowledged (or adopted after an earlier kill).
    if (g.gone === "no" && !aRow) found.lost.push(`${where}: Author ${g.marker} (_id ${g.id}), created with 201, is missing`);
    if (g.gone === "yes" && aRow) found.lost.push(`${where}: Author ${g.marker} (_id ${g.id}), deleted with 204, is back`);
    if (aRow && aRow.id !== g.id) found.lost.push(`${where}: Author ${g.marker} has _id ${aRow.id}, answered ${g.id}`);
    if (g.gone === "maybe") g.gone = aRow ? "no" : "yes";
    if (aRow) {
      if (aRow.street !== aRow.city || aRow.city !== aRow.country)
        found.half.push(`${where}: Author ${g.marker}'s address is half written: ${JSON.stringify(aRow)}`);
      const allowed = [g.address, ...(g.pendingAddress ? [g.pendingAddress] : [])];
      if (!allowed.includes(aRow.street)) found.lost.push(`${where}: Author ${g.marker}'s address is ${aRow.street}, the last 200 PUT set ${g.address}`);
      g.address = aRow.street;
    }
    g.pendingAddress = undefined;

    g.works.forEach((w, i) => {
      const row = wRows[i]![0];
      if (w.gone === "no" && !row) return void found.lost.push(`${where}: ${w.kind} ${w.title} (id ${w.id}), created with 201, is missing`);
      if (w.gone === "yes" && row) return void found.lost.push(`${where}: ${w.kind} ${w.title} (id ${w.id}), deleted with 204, is back`);
      if (w.gone === "maybe") w.gone = row ? "no" : "yes";
      if (!row) return;
      if (row.id !== w.id) found.lost.push(`${where}: ${w.title} has id ${row.id}, answered ${w.id}`);
      const shape = shapeProblem(w, row);
      if (shape) found.half.push(`${where}: ${shape}`);
      const author = aRow ? aRow.id : null;
      if (row.author !== author) found.other.push(`${where}: ${w.title} names author ${row.author}, expected ${author}`);
      if (w.pendingPrice === undefined) {
        if (row.price !== w.price) found.lost.push(`${where}: ${w.title}'s price is ${row.price}, the last 200 PUT set ${w.price}`);
        // Deleting the Author released the work: one more version step, once.
        const allowed = aRow ? [w.version] : [w.version, w.version + 1];
        if (!allowed.includes(row.version)) found.lost.push(`${where}: ${w.title}'s version is ${row.version}, expected ${allowed.join(" or ")}`);
        w.version = row.version;
      } else {
        const applied = row.price === w.pendingPrice;
        if (!applied && row.price !== w.price) found.lost.push(`${where}: ${w.title}'s price is ${row.price}, expected ${w.price} or ${w.pendingPrice}`);
        if (row.version < w.version + (applied ? 1 : 0))
          found.half.push(`${where}: ${w.title}'s version ${row.version} does not go with its price ${row.price}`);
        w.price = row.price;
        w.version = row.version;
        w.pendingPrice = undefined;
      }
    });
  }
}

/** The restarted server answers reads: the classes, objects by key, a filter, a JDOQL count. */
async function readsAnswer(cycle: number): Promise<void> {
  const base = server!.url;
  const where = `after kill ${cycle + 1}`;
  const expect = async (path: string, check: (body: any) => string | undefined) => {
    const r = await call(base, "GET", path);
    if (r.status !== 200) return void found.reads.push(`${where}: GET ${path} answered ${r.status}: ${r.text.slice(0, 300)}`);
    const problem = check(r.body);
    if (problem) found.reads.push(`${where}: GET ${path}: ${problem}`);
  };
  await expect("/", (b) => (Array.isArray(b) || typeof b === "object" ? undefined : `not a class list: ${JSON.stringify(b)}`));
  const live = graphs.filter((g) => g.fate === "acked" && g.gone === "no");
  for (let i = 0; i < 10 && live.length; i++) {
    const g = rng.pick(live)!;
    const works = g.works.filter((w) => w.gone === "no");
    await expect(`/${S}.Author/${g.id}?fetchGroup=all`, (b) => {
      const ids = ((b.works ?? []) as any[]).map((w) => w.id).sort();
      const want = works.map((w) => w.id).sort();
      return b.name !== g.marker || JSON.stringify(ids) !== JSON.stringify(want)
        ? `expected ${g.marker} with works ${want}, got ${JSON.stringify(b).slice(0, 300)}`
        : undefined;
    });
    await expect(`/${S}.Author?filter=${q(`name == '${g.marker}'`)}`, (b) =>
      b.length === 1 && b[0]._id === g.id ? undefined : `filter found ${JSON.stringify(b).slice(0, 200)}`,
    );
    const w = rng.pick(works);
    if (w)
      await expect(`/${S}.Item/${w.id}`, (b) =>
        b.title === w.title && b.class === `${S}.${w.kind}` && b._version === w.version
          ? undefined
          : `expected ${w.title} v${w.version}, got ${JSON.stringify(b).slice(0, 300)}`,
      );
  }
  const items = graphs.flatMap((g) => (g.fate === "acked" ? g.works.filter((w) => w.gone === "no") : [])).length;
  await expect(`/jdoql?query=${q(`SELECT count(this) FROM ${S}.Item`)}`, (b) => (Number(b) === items ? undefined : `counts ${b} Items, expected ${items}`));
}

/** A first server killed while it creates the schema (when the file appears, plus 0 to 40 ms). */
async function killDuringStartUp(): Promise<void> {
  const early = spawnSample(config!);
  const t0 = performance.now();
  let served = false;
  early.ready.then(
    () => (served = true),
    () => {},
  );
  while (!served && !existsSync(config!.file) && performance.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 2));
  await new Promise((r) => setTimeout(r, rng.int(0, 40)));
  stats.startUpKill = served ? "after it served" : `${Math.round(performance.now() - t0)} ms into start-up`;
  await early.server.kill();
}

before(async () => {
  config = sampleConfig("extent-durability-");
  await killDuringStartUp();
  server = await startSample(config);
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    let stop = false;
    const clients = Array.from({ length: CLIENTS }, (_, k) => client(cycle, k, () => stop));
    // 300 to 800 ms of load, and at least a few writes answered in this cycle (on a slow machine).
    const acknowledged = stats.acknowledged;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, rng.int(300, 800)));
    while (stats.acknowledged - acknowledged < 5 && performance.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    const wal = `${config.file}-wal`;
    stats.walAtKill.push(existsSync(wal) ? statSync(wal).size : 0);
    await server.kill();
    await Promise.all(clients);
    const t1 = performance.now();
    server = await startSample(config);
    stats.restartMs.push(performance.now() - t1);
    await reconcile(cycle);
    found.database.push(...reportFailures(await checkSampleDatabase(config.file)).map((p) => `after kill ${cycle + 1}: ${p}`));
    await readsAnswer(cycle);
  }
  // The last restarted server takes a write and reads it back.
  const created = await call(server.url, "POST", `/${S}.Author`, { name: "after the kills", works: [{ class: `${S}.Book`, title: "last", pages: 1 }] });
  if (created.status !== 201) found.reads.push(`POST after the last restart answered ${created.status}: ${created.text}`);
  else {
    const read = await call(server.url, "GET", `/${S}.Author/${created.body._id}?fetchGroup=all`);
    if (read.status !== 200 || read.body.works?.[0]?.title !== "last")
      found.reads.push(`GET of the Author posted after the last restart: ${read.status} ${read.text}`);
  }
});

after(async () => {
  await stopAllSamples();
  config?.remove();
});

test("every write that answered 2xx survives SIGKILL, and every 2xx DELETE stays done", (t) => {
  const statuses = [...stats.status]
    .sort(([a], [b]) => a - b)
    .map(([st, n]) => `${st}: ${n}`)
    .join(", ");
  const restart = Math.round(stats.restartMs.reduce((a, b) => a + b, 0) / stats.restartMs.length);
  t.diagnostic(`durability: ${CYCLES} cycles, ${stats.acknowledged} writes acknowledged, ${found.lost.length} lost, ${found.half.length} half-written`);
  t.diagnostic(
    `durability details: ${CLIENTS} clients, ${stats.requests} requests (${statuses}), ${graphs.length} graphs posted, ` +
      `${stats.inFlight} requests in flight at the kills (${stats.bigInFlight} of them graphs of 40+ works), WAL at the kills ${Math.min(...stats.walAtKill)}–${Math.max(...stats.walAtKill)} bytes, ` +
      `first kill ${stats.startUpKill}, restart to serving ${restart} ms on average, seed ${SEED}`,
  );
  assert.ok(stats.acknowledged >= CYCLES * 5, `too few writes acknowledged: ${stats.acknowledged}`);
  assert.deepEqual(found.lost, []);
  assert.deepEqual(found.other, []);
  assert.deepEqual(stats.serverErrors, []);
});

test("no request's graph is half written: an Author and all its works, or nothing", () => {
  assert.deepEqual(found.half, []);
});

test("the file opens without repair: integrity_check ok, foreign_key_check empty, WAL, references and discriminators consistent", async () => {
  assert.ok(
    stats.walAtKill.some((size) => size > 0),
    "no kill found the WAL holding frames",
  );
  assert.deepEqual(found.database, []);
  // Once more with the server stopped, on the file alone.
  await server!.stop();
  const report = await checkSampleDatabase(config!.file);
  assert.deepEqual(reportFailures(report), []);
  assert.equal(report.journalMode, "wal");
});

test("the restarted server answers reads (by key, filter, JDOQL) and writes normally", () => {
  assert.deepEqual(found.reads, []);
});
