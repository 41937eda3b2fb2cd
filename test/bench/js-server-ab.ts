/**
 * Extent's own JavaScript in a server, checkouts compared: each server answers a GET of the bench
 * over a store that replays its first answer (no SQLite at all), beside a bare Hono route answering
 * the same text (what the floors run around their statement). Each is its own process on the
 * runtime, loaded by autocannon in alternating rounds; prints each server's median and least CPU
 * µs per request (from /proc: user + system, all its threads). Where js-ab.ts times the same code
 * in-process, this counts it with the HTTP server around it, where the same JavaScript costs about
 * twice as much (test/bench/README.md, thirteenth part).
 *
 *   node --import tsx test/bench/js-server-ab.ts [--runtime bun|node] [--rounds 6] [--seconds 2] [--path /bench.Book/42] [--rate N] [--profile DIR] CHECKOUT... [hono] [hono-async] [hono-headers]
 *
 * A checkout is a folder with Extent's src/ (a git worktree with node_modules linked, as for server-ab.ts).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Hono } from "hono";
import { type Running, cpuMicros, freePort, startServer } from "../support/processes.ts";
import type { Store } from "../../src/store/store.ts";
import { generate } from "./data.ts";
import { type Runtime, metadata, runtimeCommand } from "./servers.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runtime: { type: "string", default: "bun" },
    rounds: { type: "string", default: "6" },
    seconds: { type: "string", default: "2" },
    path: { type: "string", default: "/bench.Book/42" },
    /** Requests per second for every server (autocannon's overallRate), below what each can answer: unset, as many as each answers. */
    rate: { type: "string" },
    /** Each server under the CPU profiler (`--cpu-prof`, Node and Bun), its profile written to DIR/<index>-<name> when it stops. */
    profile: { type: "string" },
    // A server of this process's own (the child's arguments).
    serve: { type: "string" },
    db: { type: "string" },
    port: { type: "string" },
  },
});

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

/**
 * The child: Extent of the checkout `values.serve` over a replaying store, or a bare route answering
 * Extent's text: `hono` at once, `hono-async` after awaiting (as the floors await their store),
 * `hono-headers` after awaiting and reading a request header (as Extent reads its conditions).
 */
async function serveOne(root: string): Promise<void> {
  const hono = root.startsWith("hono");
  const from = hono ? fileURLToPath(new URL("../../", import.meta.url)) : root;
  const { createRestHandler } = await import(join(from, "src/handler.ts"));
  const { openStore } = await import(join(from, "src/store/open-store.ts"));
  const { serve } = await import(join(from, "src/runtime/serve.ts"));
  const url = `file:${values.db}`;
  const real: Store = openStore({ name: "bench", url });
  let answered: Awaited<ReturnType<Store["batch"]>> | undefined;
  // Runs a read once and answers it again after; writes run as they are.
  const store: Store = {
    interrupts: real.interrupts,
    migrate: (s) => real.migrate(s),
    close: () => real.close(),
    async batch(statements, mode, deadline) {
      if (answered && mode === "read") return answered;
      const results = await real.batch(statements, mode, deadline);
      if (mode === "read") answered = results;
      return results;
    },
  };
  const handler = createRestHandler({ context: { name: "bench", url, metadata }, prefix: "/api", store });
  await handler.ready;
  const text = await (await handler.fetch(new Request(`http://bench/api${values.path}`))).text();
  const app = new Hono().basePath("/api");
  // As the floors read their requests: the path and a query parameter.
  const answer = (c: { req: { path: string; query(name: string): string | undefined } }) =>
    new Response(c.req.path && c.req.query("fetchGroup") !== "-" ? text : "", { headers: JSON_TYPE });
  // On @hono/node-server an answer given at once goes out by a shorter path than a promise's.
  const awaiting = async (c: Parameters<typeof answer>[0] & { req: { raw: Request } }) => {
    await null;
    if (root === "hono-headers") c.req.raw.headers.get("if-none-match");
    return answer(c);
  };
  app.get("/*", root === "hono" ? answer : awaiting);
  await serve(hono ? app.fetch : handler.fetch, Number(values.port), "127.0.0.1");
  console.log("listening");
  process.once("SIGTERM", () => process.exit(0));
}

if (values.serve) await serveOne(values.serve);
else {
  if (!positionals.length) throw new Error("usage: js-server-ab.ts [--runtime bun|node] [--path P] CHECKOUT... [hono] [hono-async] [hono-headers]");
  const runtime = values.runtime as Runtime;
  const dir = mkdtempSync(join(tmpdir(), "extent-js-server-ab-"));
  const data = join(dir, "bench.db");
  await generate(data, join(dir, "db.json"), metadata);
  const servers: { name: string; server: Running }[] = [];
  for (const [i, name] of positionals.entries()) {
    const db = join(dir, `${i}.db`);
    copyFileSync(data, db);
    const port = await freePort();
    const root = name.startsWith("hono") ? name : resolve(name);
    const [cmd, args] = runtimeCommand(runtime, fileURLToPath(import.meta.url), ["--serve", root, "--db", db, "--port", String(port), "--path", values.path!]);
    if (values.profile) args.unshift("--cpu-prof", `--cpu-prof-dir=${resolve(values.profile, `${i}-${name.replace(/\W+/g, "_")}`)}`);
    servers.push({ name, server: await startServer(cmd, args, { probe: `http://127.0.0.1:${port}/api${values.path}` }) });
  }
  const cpu = new Map<string, number[]>();
  const seconds = Number(values.seconds);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const { name, server } of round % 2 ? [...servers].reverse() : servers) {
      const url = `${server.url}/api${values.path}`;
      await autocannon({ url, connections: 10, duration: 1 });
      const before = cpuMicros(server.pid) ?? NaN;
      const run = await autocannon({ url, connections: 10, duration: seconds, ...(values.rate ? { overallRate: Number(values.rate) } : {}) });
      const after = cpuMicros(server.pid) ?? NaN;
      cpu.set(name, [...(cpu.get(name) ?? []), (after - before) / run.requests.total]);
    }
  }
  for (const [name, xs] of cpu) {
    xs.sort((a, b) => a - b);
    console.log(
      `${runtime} ${values.path}  ${name.padEnd(28)} median ${xs[Math.floor(xs.length / 2)]!.toFixed(1).padStart(6)} µs  least ${xs[0]!.toFixed(1).padStart(6)} µs CPU/req`,
    );
  }
  for (const { server } of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
