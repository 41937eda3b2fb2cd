/**
 * The embedded store's lanes (src/store/embedded-store.ts): a read that proves long (past
 * MAIN_LANE_MS, or CLIENT_LANE_MS for a query a client wrote) moves off the thread that answers
 * requests, and every statement stops at its deadline, a running one included, its batch rolled back.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLIENT_LANE_MS, EmbeddedStore, LONG_READ_RETRY_MS, MAIN_LANE_MS, OVERRUN_MS } from "../src/store/embedded-store.ts";
import { armedTimeout, timerGrid } from "../src/store/embedded-connection.ts";
import type { Statement } from "../src/store/store.ts";
import { StoreMemoryError, TimeLimitError } from "../src/errors/capacity-errors.ts";

/** Ten copies of a 16-row table joined: 2^40 rows to count, far more than any test waits for. */
const FOREVER: Statement = { sql: `SELECT count(*) FROM ${Array.from({ length: 10 }, (_, i) => `t t${i}`).join(", ")}`, params: [] };
const ONE: Statement = { sql: "SELECT v FROM t WHERE n = ?", params: [3], oneRow: true };

/** The longest the event loop stood still while `work` ran (timers every ms). */
async function stallDuring<T>(work: Promise<T>): Promise<{ result: PromiseSettledResult<T>; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  const [result] = await Promise.allSettled([work]);
  clearInterval(timer);
  return { result, stallMs: Math.max(stallMs, performance.now() - last) };
}

describe("an embedded file", () => {
  let dir: string;
  let store: EmbeddedStore;
  const count = async () => (await store.batch([{ sql: "SELECT count(*) FROM w", params: [] }], "read"))[0]!.rows[0]![0];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "extent-lanes-"));
    store = await EmbeddedStore.open(join(dir, "t.db"));
    await store.batch(
      [
        { sql: "CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT)", params: [] },
        { sql: "CREATE TABLE w(n INTEGER PRIMARY KEY)", params: [] },
      ],
      "write",
    );
    await store.batch(
      Array.from({ length: 16 }, (_, n) => ({ sql: "INSERT INTO t VALUES (?, ?)", params: [n, `v${n}`] })),
      "write",
    );
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("stops an unbounded read at its deadline, while the thread that answers requests keeps answering", async () => {
    const started = Date.now();
    const long = store.batch([{ ...FOREVER, unbounded: true }], "read", started + 300);
    // Meanwhile, short reads are answered at once.
    const latencies: number[] = [];
    while (Date.now() - started < 250) {
      const t = performance.now();
      assert.deepEqual((await store.batch([ONE], "read", Date.now() + 1000))[0]!.rows, [["v3"]]);
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    await assert.rejects(long, TimeLimitError);
    const took = Date.now() - started;
    assert.ok(took >= 290 && took < 600, `stopped after ${took} ms (deadline 300 ms)`);
    assert.ok(Math.max(...latencies) < 50, `a short read waited ${Math.max(...latencies).toFixed(1)} ms`);
    assert.ok(latencies.length > 10);
  });

  test("moves a read that proves long off the thread that answers requests: the event loop stalls once, for MAIN_LANE_MS at most", async () => {
    const sql = { sql: `${FOREVER.sql} WHERE t0.n < ?`, params: [16] };
    const first = await stallDuring(store.batch([sql], "read", Date.now() + 1000));
    assert.equal(first.result.status, "rejected");
    assert.ok((first.result as PromiseRejectedResult).reason instanceof TimeLimitError);
    // MAIN_LANE_MS, with room for a busy machine: far below the deadline the read ran to.
    assert.ok(first.stallMs < MAIN_LANE_MS + 150, `the event loop stood still ${first.stallMs.toFixed(1)} ms`);
    // Known to be long now: it goes straight to the pool.
    const again = await stallDuring(store.batch([sql], "read", Date.now() + 1000));
    assert.equal(again.result.status, "rejected");
    assert.ok(again.stallMs < MAIN_LANE_MS + 150, `the event loop stood still ${again.stallMs.toFixed(1)} ms`);
    // The same read with small values still answers, in the pool.
    const small = { sql: sql.sql, params: [-1] };
    assert.deepEqual((await store.batch([small], "read", Date.now() + 1000))[0]!.rows, [[0]]);
  });

  test("stops a write at its deadline, a running statement included, and rolls its batch back", async () => {
    const before = await count();
    const started = Date.now();
    await assert.rejects(
      store.batch(
        [
          { sql: "INSERT INTO w VALUES (?)", params: [1_000_000] },
          { sql: `INSERT INTO w SELECT 2000000 + t0.n + 16 * t1.n FROM t t0, t t1 WHERE (${FOREVER.sql}) > 0`, params: [] },
        ],
        "write",
        started + 200,
      ),
      TimeLimitError,
    );
    assert.ok(Date.now() - started < 500);
    assert.equal(await count(), before);
    // The connection is usable at once.
    await store.batch([{ sql: "INSERT INTO w VALUES (?)", params: [7] }], "write", Date.now() + 1000);
    assert.equal(await count(), Number(before) + 1);
  });

  test("a read waiting for a reader past its deadline leaves without running", async () => {
    // A client's query known to be long (it ran past CLIENT_LANE_MS once) waits for a reader.
    const known = { sql: `${FOREVER.sql} WHERE t1.n < ?`, unbounded: true };
    await assert.rejects(store.batch([{ ...known, params: [16] }], "read", Date.now() + 50), TimeLimitError);
    const deadline = Date.now() + 250;
    const busy = [0, 1].map(() => store.batch([{ ...FOREVER, unbounded: true }], "read", deadline).catch((error: unknown) => error));
    const started = Date.now();
    await assert.rejects(store.batch([{ ...known, params: [-1] }], "read", started + 100), TimeLimitError);
    const took = Date.now() - started;
    assert.ok(took >= 95 && took < 200, `left the queue after ${took} ms`);
    for (const b of busy) assert.ok((await b) instanceof TimeLimitError);
    // The readers are free again.
    assert.deepEqual((await store.batch([{ ...known, params: [-1] }], "read", Date.now() + 1000))[0]!.rows, [[0]]);
  });

  test("a client's short query runs on the thread that answers requests, even with every reader busy; a long one holds it CLIENT_LANE_MS at most", async () => {
    // Both readers held by reads known to be long (which, unlike clients' queries, may take every reader).
    const hold = { sql: `${FOREVER.sql} WHERE t2.n < ?`, params: [16] };
    await assert.rejects(store.batch([hold], "read", Date.now() + 30), TimeLimitError);
    const deadline = Date.now() + 300;
    const busy = [0, 1].map(() => store.batch([hold], "read", deadline).catch((error: unknown) => error));
    const t = performance.now();
    assert.deepEqual((await store.batch([{ ...ONE, unbounded: true }], "read", Date.now() + 1000))[0]!.rows, [["v3"]]);
    assert.ok(performance.now() - t < 100, "answered without waiting for a reader");
    for (const b of busy) assert.ok((await b) instanceof TimeLimitError);
    // A new long query: the event loop stands still about CLIENT_LANE_MS, then the pool runs it to its deadline.
    const first = await stallDuring(store.batch([{ sql: `${FOREVER.sql} WHERE t3.n < ?`, params: [16], unbounded: true }], "read", Date.now() + 200));
    assert.ok((first.result as PromiseRejectedResult).reason instanceof TimeLimitError);
    assert.ok(first.stallMs < CLIENT_LANE_MS + 100, `the event loop stood still ${first.stallMs.toFixed(1)} ms`);
    // Every read above stopped in time: the main connection still takes reads.
    assert.ok(store.readsOnMainThread);
  });
});

test("a read that proved long is tried in its lane again after a while: back on the main connection when it ends in time, and twice as long in the pool each time it is stopped again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-lanes-"));
  const store = await EmbeddedStore.open(join(dir, "t.db"));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await store.batch([{ sql: "CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT)", params: [] }], "write");
    await store.batch(
      Array.from({ length: 16 }, (_, n) => ({ sql: "INSERT INTO t VALUES (?, ?)", params: [n, `v${n}`] })),
      "write",
    );
    // One SQL text, long or short by its parameter (as a client's query is by its values).
    const sql = `${FOREVER.sql} WHERE t0.n < ?`;
    const long: Statement = { sql, params: [16], unbounded: true };
    const short: Statement = { sql, params: [-1], unbounded: true };
    // batchNow answers what runs on the main connection, and undefined for what is left to the pool.
    const onMain = (s: Statement) => store.batchNow([s], "read", Date.now() + 60_000)?.[0]!.rows;
    assert.deepEqual(onMain(short), [[0]]);
    assert.equal(onMain(long), undefined, "stopped in its lane");
    assert.equal(onMain(short), undefined, "known as long: left to the pool");
    await sleep(LONG_READ_RETRY_MS + 50);
    assert.deepEqual(onMain(short), [[0]], "tried in its lane again, and ended in time");
    assert.deepEqual(onMain(short), [[0]], "on the main connection again");
    // Long again: a second stop after the wait doubles it.
    assert.equal(onMain(long), undefined, "stopped in its lane");
    await sleep(LONG_READ_RETRY_MS + 50);
    assert.equal(onMain(long), undefined, "tried in its lane again, and stopped again");
    assert.equal(onMain(short), undefined, "the stop starts a new wait");
    await sleep(LONG_READ_RETRY_MS + 50);
    assert.equal(onMain(short), undefined, "twice as long as the first");
    await sleep(LONG_READ_RETRY_MS);
    assert.deepEqual(onMain(short), [[0]]);
    assert.ok(store.readsOnMainThread);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("armed deadlines are rounded up to a grid: never early, late by less than half the time left and 16 ms, shared within a step", () => {
  for (let left = 1; left <= 20_000; left += left < 64 ? 1 : 97) {
    const grid = timerGrid(left);
    assert.ok(Number.isInteger(Math.log2(grid)) && grid <= 16 && (grid === 1 || grid <= left / 2), `left ${left}: grid ${grid}`);
    for (const now of [1_764_000_000_000, 1_764_000_000_003, 1_764_000_000_017]) {
      const timeout = armedTimeout(now + left, now);
      assert.ok(Number.isInteger(timeout) && timeout >= left && timeout < left + grid, `left ${left}, now ${now}: timeout ${timeout}`);
      assert.equal((now + timeout) % grid, 0, "the deadline is on the grid");
    }
  }
  // The lanes: the main lane's 10 ms stops by 13 ms at most; a client's 2 ms exactly.
  assert.equal(timerGrid(MAIN_LANE_MS), 4);
  assert.equal(timerGrid(CLIENT_LANE_MS), 1);
  // Calls whose deadlines fall in one step share the step's end, so they share the timer thread's
  // wake: the main lane's deadlines 9, 10, 11 and 12 ms past a multiple of 4 all end at 12.
  const base = 1_764_000_000_000;
  const ends = [-1, 0, 1, 2].map((d) => base + d + armedTimeout(base + d + MAIN_LANE_MS, base + d));
  assert.deepEqual(ends, [base + 12, base + 12, base + 12, base + 12]);
});

test("a read that ends far past its time on the thread that answers requests sends every later read to the pool", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-lanes-"));
  const store = await EmbeddedStore.open(join(dir, "t.db"));
  try {
    await store.batch([{ sql: "CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT)", params: [] }], "write");
    await store.batch([{ sql: "INSERT INTO t VALUES (?, ?)", params: [3, "v3"] }], "write");
    assert.ok(store.readsOnMainThread);
    // One step of a statement is never interrupted: instr() of a needle of 30,000 characters in a
    // text of a million takes about 350 ms in one step, as a statement whose interrupt was lost
    // runs on to its end.
    const slow = { sql: "SELECT instr(printf('%.*c', ?, 'a'), printf('%.*c', ?, 'a') || 'b')", params: [1_000_000, 30_000], oneRow: true };
    const t = performance.now();
    const [result] = await store.batch([slow], "read", Date.now() + 5000);
    const took = performance.now() - t;
    assert.deepEqual(result!.rows, [[0]]);
    if (took < MAIN_LANE_MS + OVERRUN_MS + 20) return assert.ok(store.readsOnMainThread, `the step took only ${took.toFixed(0)} ms`);
    assert.equal(store.readsOnMainThread, false);
    // Reads still answer, in the pool: the event loop no longer stands still for them.
    assert.deepEqual((await store.batch([ONE], "read", Date.now() + 1000))[0]!.rows, [["v3"]]);
    const again = await stallDuring(store.batch([slow], "read", Date.now() + 5000));
    assert.equal(again.result.status, "fulfilled");
    assert.ok(again.stallMs < 100, `the event loop stood still ${again.stallMs.toFixed(1)} ms`);
    // A fixed-cost read is never interrupted, so what the overrun showed does not concern it: it stays on this thread.
    const started = performance.now();
    const held = store.batch([{ ...slow, fixedCost: true }], "read", Date.now() + 5000);
    const heldMs = performance.now() - started;
    assert.deepEqual((await held)[0]!.rows, [[0]]);
    assert.ok(heldMs > MAIN_LANE_MS, `the call held the thread ${heldMs.toFixed(0)} ms`);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a read no stored data can make long (fixedCost) is checked against its deadline as it starts, and not timed while it runs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-lanes-"));
  const store = await EmbeddedStore.open(join(dir, "t.db"));
  try {
    // Not a fixed-cost read in truth (a count to two million, about 300 ms): marked so, it shows
    // that the mark turns the time limit off, and only the mark.
    const counting = {
      sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) FROM c",
      params: [2_000_000],
      oneRow: true,
    };
    await assert.rejects(store.batch([counting], "read", Date.now() + 50), TimeLimitError);
    // It runs to its end past its deadline, on the thread that answers requests (within the call),
    // and running long there does not send later reads to the pool.
    const started = performance.now();
    const ran = store.batch([{ ...counting, fixedCost: true }], "read", Date.now() + 50);
    const heldMs = performance.now() - started;
    assert.deepEqual((await ran)[0]!.rows, [[2_000_000]]);
    assert.ok(heldMs > MAIN_LANE_MS + OVERRUN_MS, `the call held the thread ${heldMs.toFixed(0)} ms`);
    assert.ok(store.readsOnMainThread);
    // Past its deadline it does not start.
    const t = performance.now();
    await assert.rejects(store.batch([{ ...counting, fixedCost: true }], "read", Date.now() - 1), TimeLimitError);
    assert.ok(performance.now() - t < 50);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(":memory: has one connection: its reads run on the main thread and still stop at their deadline", async () => {
  const store = await EmbeddedStore.open(":memory:");
  try {
    await store.batch([{ sql: "CREATE TABLE t(n INTEGER PRIMARY KEY, v TEXT)", params: [] }], "write");
    await store.batch(
      Array.from({ length: 16 }, (_, n) => ({ sql: "INSERT INTO t VALUES (?, ?)", params: [n, `v${n}`] })),
      "write",
    );
    const started = Date.now();
    await assert.rejects(store.batch([{ ...FOREVER, unbounded: true }], "read", started + 150), TimeLimitError);
    assert.ok(Date.now() - started < 400);
    assert.deepEqual((await store.batch([ONE], "read"))[0]!.rows, [["v3"]]);
  } finally {
    store.close();
  }
});

test("a statement that needs more memory than SQLite may take fails with StoreMemoryError, and the store goes on", async () => {
  const dir = mkdtempSync(join(tmpdir(), "extent-lanes-"));
  const store = await EmbeddedStore.open(join(dir, "t.db"), { heapLimitBytes: 64 * 1024 * 1024 });
  try {
    const big = {
      sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 10000000) SELECT length(group_concat(printf('%020d', i))) FROM c",
      params: [],
    };
    await assert.rejects(store.batch([{ ...big, unbounded: true }], "read", Date.now() + 20_000), StoreMemoryError);
    await assert.rejects(store.batch([big], "read", Date.now() + 20_000), StoreMemoryError);
    assert.deepEqual((await store.batch([{ sql: "SELECT 1 + 1", params: [] }], "read"))[0]!.rows, [[2]]);
  } finally {
    store.close();
    // The limit is the process's: lift it for the tests that follow in this process.
    const lifted = await EmbeddedStore.open(":memory:", { heapLimitBytes: 0 });
    lifted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
