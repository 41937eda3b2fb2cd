/**
 * Hostile load (issue 16): the real server (`extent serve`, its own process, on an embedded file)
 * while hostile clients send, in a loop, the requests that used to take it down or hold it up —
 * a cartesian JPQL projection of 8 variables (16.7 million rows; the process died at 4 GB), JDOQL
 * with 7 variables, a COUNT over 10 (36 s), fetch plans 9 deep over a dense graph, by key and as
 * an extent (exponential in the depth) — and other clients GET objects by key. Then:
 *
 * - the GETs by key were all answered, with a p99 under 50 ms;
 * - every hostile request answered 400 (answerBytes) or 503 (requestTimeMs), within the time limit
 *   and a small margin;
 * - the server's RSS stayed under 512 MiB, and the process is alive and answers.
 *
 * `EXTENT_HOSTILE_SECONDS` (default 5), `EXTENT_HOSTILE_CLIENTS` (hostile, default 4) and
 * `EXTENT_HOSTILE_READERS` (GETs by key, default 2) set the long mode. Measured figures are in the
 * README's Reliability section.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./support/processes.ts";
import { type SampleConfig, type SampleServer, call, startSample, stopAllSamples } from "./support/sample-server.ts";

const SECONDS = Number(process.env.EXTENT_HOSTILE_SECONDS ?? 5);
const HOSTILE = Number(process.env.EXTENT_HOSTILE_CLIENTS ?? 4);
const READERS = Number(process.env.EXTENT_HOSTILE_READERS ?? 2);
const TIME_MS = 1000;
/** What a hostile request may take beyond the time limit: parsing, answering, a busy machine. */
const MARGIN_MS = 500;
const P99_MS = 50;
const RSS_MIB = 512;

const PKG = "org.test.bounds";
const q = encodeURIComponent;
const vars = (n: number, cls: string) => Array.from({ length: n }, (_, i) => `${cls} v${i}`);

const HOSTILE_REQUESTS: string[] = [
  `/jpql?query=${q(`SELECT ${Array.from({ length: 8 }, (_, i) => `v${i}.id`).join(", ")} FROM ${vars(8, "Employee").join(", ")}`)}`,
  `/jpql?query=${q(`SELECT COUNT(v0) FROM ${vars(10, "Employee").join(", ")}`)}`,
  `/jdoql?query=${q(`SELECT this.id, ${Array.from({ length: 7 }, (_, i) => `v${i}.name`).join(", ")} FROM ${PKG}.Employee WHERE ${Array.from({ length: 7 }, (_, i) => `v${i}.id >= this.id`).join(" && ")} VARIABLES ${vars(7, `${PKG}.Employee`).join("; ")}`)}`,
  `/${PKG}.Project/100?fetchGroup=all&maxFetchDepth=9`,
  `/${PKG}.Project?fetchGroup=all&maxFetchDepth=9`,
  `/${PKG}.Employee/1?fetchGroup=all&maxFetchDepth=-1`,
];

function boundsConfig(): SampleConfig {
  const dir = mkdtempSync(join(tmpdir(), "extent-hostile-"));
  const file = join(dir, "data", "bounds.db");
  copyFileSync(join(ROOT, "test/models/bounds/package.jdo"), join(dir, "package.jdo"));
  writeFileSync(
    join(dir, "persistence.xml"),
    `<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
  <persistence-unit name="sample">
    <mapping-file>package.jdo</mapping-file>
    <properties>
      <property name="jakarta.persistence.jdbc.url" value="file:${file}"/>
      <property name="extent.limit.request-time-ms" value="${TIME_MS}"/>
    </properties>
  </persistence-unit>
</persistence>
`,
  );
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The process's resident memory in MiB (Linux), or undefined where /proc does not tell. */
function rssMiB(pid: number): number | undefined {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return undefined;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
  return m ? Number(m[1]) / 1024 : undefined;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

let config: SampleConfig;
let server: SampleServer;

before(async () => {
  config = boundsConfig();
  server = await startSample(config);
  const members = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name: `employee ${i + 1}` }));
  assert.equal((await call(server.url, "POST", `/${PKG}.Project`, { id: 100, name: "project 100", members })).status, 201);
  for (let p = 101; p < 105; p++) {
    const r = await call(server.url, "POST", `/${PKG}.Project`, { id: p, name: `project ${p}`, members: members.map((m) => ({ id: m.id })) });
    assert.equal(r.status, 201);
  }
});
after(async () => {
  await stopAllSamples();
  config?.remove();
});

test("hostile queries and fetch plans neither take the server down nor hold up its other clients", { timeout: (SECONDS + 60) * 1000 }, async () => {
  const until = Date.now() + SECONDS * 1000;
  const latencies: number[] = [];
  const hostile: { path: string; status: number; ms: number }[] = [];
  let rssMax = rssMiB(server.pid) ?? 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMiB(server.pid) ?? 0)), 50);

  const reader = async (n: number) => {
    for (let i = n; Date.now() < until; i++) {
      const started = performance.now();
      const r = await call(server.url, "GET", `/${PKG}.Employee/${(i % 8) + 1}`);
      latencies.push(performance.now() - started);
      assert.equal(r.status, 200, r.text);
    }
  };
  const attacker = async (n: number) => {
    for (let i = n; Date.now() < until; i++) {
      const path = HOSTILE_REQUESTS[i % HOSTILE_REQUESTS.length]!;
      const started = performance.now();
      const r = await call(server.url, "GET", path);
      hostile.push({ path, status: r.status, ms: performance.now() - started });
    }
  };
  await Promise.all([...Array.from({ length: READERS }, (_, n) => reader(n)), ...Array.from({ length: HOSTILE }, (_, n) => attacker(n))]);
  clearInterval(sampler);

  latencies.sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const h of hostile) statuses[h.status] = (statuses[h.status] ?? 0) + 1;
  const slowest = Math.max(...hostile.map((h) => h.ms));
  console.log(
    `hostile load: ${SECONDS} s, ${latencies.length} GETs by key (p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms), ` +
      `${hostile.length} hostile requests from ${HOSTILE} clients (${Object.entries(statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ")}; slowest ${slowest.toFixed(0)} ms), server RSS max ${rssMax.toFixed(0)} MiB`,
  );

  for (const path of HOSTILE_REQUESTS) {
    const mine = hostile.filter((h) => h.path === path);
    const counts = [...new Set(mine.map((h) => h.status))].map((st) => `${st}×${mine.filter((h) => h.status === st).length}`).join(" ");
    console.log(
      `  ${counts.padEnd(14)} max ${Math.max(...mine.map((h) => h.ms))
        .toFixed(0)
        .padStart(5)} ms  ${decodeURIComponent(path).slice(0, 110)}`,
    );
  }
  for (const h of hostile) {
    assert.ok(h.status === 400 || h.status === 503, `${decodeURIComponent(h.path)}: ${h.status}`);
    assert.ok(h.ms < TIME_MS + MARGIN_MS, `${decodeURIComponent(h.path)}: answered after ${h.ms.toFixed(0)} ms`);
  }
  for (const path of HOSTILE_REQUESTS)
    assert.ok(
      hostile.some((h) => h.path === path),
      `never sent: ${path}`,
    );
  assert.ok(latencies.length > 50, `only ${latencies.length} GETs by key were answered`);
  assert.ok(percentile(latencies, 99) < P99_MS, `GETs by key: p99 ${percentile(latencies, 99).toFixed(1)} ms`);
  if (rssMax > 0) assert.ok(rssMax < RSS_MIB, `the server's RSS reached ${rssMax.toFixed(0)} MiB`);
  // Alive, and answering.
  assert.equal((await call(server.url, "GET", `/${PKG}.Project/101`)).status, 200);
});
