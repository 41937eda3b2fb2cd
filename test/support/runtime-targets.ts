/**
 * The sample model served the ways a user runs it, each as its own process: the local entry
 * (src/local.ts) on Node, Bun and Deno over an embedded libSQL file; the worker entry
 * (src/worker.ts) in workerd through `wrangler dev`, on its local D1 or on a libSQL server over
 * HTTP; and the local entry on Node over HTTP too. Every one serves under /api with
 * Server-Timing on, seeded with schema/sample-data.json.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, ROOT, type Running, TSX_LOADER, freePort, startServer } from "./processes.ts";
import { type Sqld, startSqld } from "./sqld.ts";

export type TargetName = "node" | "bun" | "deno" | "workerd-d1" | "workerd-libsql-http" | "node-libsql-http";

export interface Target extends Running {
  /** The libSQL server behind it, when there is one (its wire count of requests). */
  sqld?: Sqld;
}

const LOCAL = `${ROOT}src/local.ts`;

export async function startTarget(name: TargetName): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), `extent-${name}-`));
  const target = await startIn(dir, name).catch((error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return { ...target, stop: async () => (await target.stop(), rmSync(dir, { recursive: true, force: true })) };
}

async function startIn(dir: string, name: TargetName): Promise<Target> {
  const port = await freePort();
  const probe = `http://127.0.0.1:${port}/api/`;
  const flags = ["--port", String(port), "--host", "127.0.0.1", "--server-timing"];
  switch (name) {
    case "node":
      return startServer(process.execPath, ["--import", TSX_LOADER, LOCAL, ...flags], { cwd: dir, probe });
    case "bun":
      return startServer(BIN("bun"), [LOCAL, ...flags], { cwd: dir, probe });
    case "deno":
      return startServer(BIN("deno"), ["run", "-A", LOCAL, ...flags], { cwd: dir, probe });
    case "workerd-d1":
      return wrangler(dir, port, probe, []);
    case "workerd-libsql-http": {
      const sqld = await startSqld();
      return withSqld(sqld, () => wrangler(dir, port, probe, ["--var", `LIBSQL_URL:${sqld.url}`]));
    }
    case "node-libsql-http": {
      const sqld = await startSqld();
      const config = remoteConfig(dir, sqld.url);
      const args = ["serve", "--config", config, "--persistence-context", "sample", "--prefix", "/api", "--seed", `${ROOT}schema/sample-data.json`, ...flags];
      return withSqld(sqld, () => startServer(process.execPath, ["--import", TSX_LOADER, LOCAL, ...args], { cwd: dir, probe }));
    }
  }
}

async function wrangler(dir: string, port: number, probe: string, extra: string[]): Promise<Running> {
  const inspector = await freePort();
  const args = [
    "dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(inspector),
    "--persist-to",
    join(dir, "state"),
    "--show-interactive-dev-session=false",
    ...extra,
  ];
  return startServer(BIN("wrangler"), args, { cwd: ROOT, probe, timeoutMs: 90_000 });
}

async function withSqld(sqld: Sqld, start: () => Promise<Running>): Promise<Target> {
  try {
    const running = await start();
    return { ...running, sqld, stop: async () => (await running.stop(), await sqld.stop()) };
  } catch (error) {
    await sqld.stop();
    throw error;
  }
}

/** The sample's persistence unit, pointed at a libSQL server. */
function remoteConfig(dir: string, url: string): string {
  const config = join(dir, "config");
  mkdirSync(config);
  copyFileSync(`${ROOT}schema/jdo/package.jdo`, join(config, "package.jdo"));
  writeFileSync(
    join(config, "persistence.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>
<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
  <persistence-unit name="sample">
    <mapping-file>package.jdo</mapping-file>
    <properties><property name="jakarta.persistence.jdbc.url" value="${url}"/></properties>
  </persistence-unit>
</persistence>
`,
  );
  return config;
}
