/**
 * The bench's servers, for bench.ts and server-ab.ts: the bench model, the statements Extent runs
 * for each operation (captured, for the floors), and Extent and the floor started as processes of
 * their own on a runtime.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRestHandler } from "../../src/handler.ts";
import { openLibsqlStore } from "../../src/store/libsql-store.ts";
import type { Statement, Store } from "../../src/store/store.ts";
import { BIN, ROOT, type Running, TSX_LOADER, freePort, startServer } from "../support/processes.ts";
import type { Captured } from "./floor-app.ts";
import { OPERATIONS } from "./operations.ts";

export type Runtime = "node" | "bun";

export const MODEL = readFileSync(`${ROOT}test/bench/model/package.jdo`, "utf8");
export const metadata = [{ source: "package.jdo", text: MODEL }];

/** Runs each operation once in this process, on a copy of the data, and records its batches. */
export async function capture(dbFile: string): Promise<Record<string, Captured>> {
  const copy = `${dbFile}.capture`;
  copyFileSync(dbFile, copy);
  const batches: Captured[] = [];
  const inner = openLibsqlStore(`file:${copy}`);
  const recording: Store = {
    batch: (statements: readonly Statement[], mode) => (
      batches.push({ mode, statements: statements.map((s) => ({ sql: s.sql, params: [...s.params], oneRow: s.oneRow })) }),
      inner.batch(statements, mode)
    ),
    migrate: (s) => inner.migrate(s),
    close: () => inner.close(),
  };
  const handler = createRestHandler({ context: { name: "bench", url: `file:${copy}`, metadata }, store: recording, prefix: "/api" });
  await handler.ready;
  const out: Record<string, Captured> = {};
  for (const op of OPERATIONS) {
    batches.length = 0;
    const response = await handler.fetch(benchRequest(`http://capture/api${op.path}`, op.method, op.body));
    assert.ok(response.ok, `${op.name}: ${response.status} ${await response.text()}`);
    assert.equal(batches.length, 1, `${op.name} runs ${batches.length} batches; the floor mirrors one`);
    out[op.name] = batches[0]!;
  }
  handler.close();
  return out;
}

export function benchRequest(url: string, method: string, body?: unknown): Request {
  return new Request(url, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { "content-type": "application/json" },
  });
}

export function runtimeCommand(runtime: Runtime, file: string, extra: string[]): [string, string[]] {
  return runtime === "bun" ? [BIN("bun"), [file, ...extra]] : [process.execPath, ["--import", TSX_LOADER, file, ...extra]];
}

/**
 * `extent serve` of the checkout at `root` (default: this one) on `dbFile`, its config written
 * under `dir`; `wrap` may change its arguments (a profiler's flags).
 */
export async function startExtent(
  runtime: Runtime,
  dir: string,
  dbFile: string,
  options: { root?: string; name?: string; wrap?: (argv: string[]) => string[] } = {},
): Promise<Running> {
  const config = join(dir, `config-${options.name ?? runtime}`);
  mkdirSync(config);
  writeFileSync(join(config, "package.jdo"), MODEL);
  writeFileSync(
    join(config, "persistence.xml"),
    `<persistence><persistence-unit name="bench"><mapping-file>package.jdo</mapping-file><properties><property name="jakarta.persistence.jdbc.url" value="file:${dbFile}"/></properties></persistence-unit></persistence>`,
  );
  const port = await freePort();
  const [cmd, argv] = runtimeCommand(runtime, join(options.root ?? ROOT, "src/local.ts"), [
    "serve",
    "--config",
    config,
    "--persistence-context",
    "bench",
    "--port",
    String(port),
    "--prefix",
    "/api",
  ]);
  return startServer(cmd, options.wrap ? options.wrap(argv) : argv, { probe: `http://127.0.0.1:${port}/api/`, cwd: dir });
}

/** The floor (test/bench/floor-server.ts) on `dbFile`, running the captured statements of `sqlFile`. */
export async function startFloor(
  runtime: Runtime,
  dbFile: string,
  sqlFile: string,
  driver: "client" | "native",
  wrap: (argv: string[]) => string[] = (argv) => argv,
): Promise<Running> {
  const port = await freePort();
  const [cmd, argv] = runtimeCommand(runtime, `${ROOT}test/bench/floor-server.ts`, []);
  const env = { EXTENT_BENCH_DB: `file:${dbFile}`, EXTENT_BENCH_SQL: sqlFile, EXTENT_FLOOR_DRIVER: driver, PORT: String(port) };
  return startServer(cmd, wrap(argv), { probe: `http://127.0.0.1:${port}/api/bench.Book/1?fetchGroup=all`, env });
}

/** The hand-written SQL (test/bench/hand-server.ts) on `dbFile`. */
export async function startHand(runtime: Runtime, dbFile: string): Promise<Running> {
  const port = await freePort();
  const [cmd, argv] = runtimeCommand(runtime, `${ROOT}test/bench/hand-server.ts`, []);
  return startServer(cmd, argv, { probe: `http://127.0.0.1:${port}/api/bench.Book/1`, env: { EXTENT_BENCH_DB: `file:${dbFile}`, PORT: String(port) } });
}
