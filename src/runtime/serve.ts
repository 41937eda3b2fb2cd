/**
 * Serving a fetch handler over HTTP on whichever runtime runs us: `Bun.serve` on Bun,
 * `Deno.serve` on Deno, `@hono/node-server` on Node. The local entry and the CLI share it.
 *
 * The server must read a URL as long as the handler takes (`limits.urlBytes`), so that the
 * handler, not the server, answers a longer one (414, as a problem document). Node reads request
 * heads of `urlBytes` plus the 16 KiB it allows by default for the other header fields, and a
 * larger head is answered as a problem document too (node-client-errors.ts). Bun reads heads of
 * 16 KiB (`bun --max-http-header-size`), Deno of 64 KiB; neither takes a limit per server.
 */
import { DEFAULT_LIMITS } from "../config/limits.ts";
import { answerClientErrors } from "./node-client-errors.ts";

type Fetch = (request: Request) => Response | Promise<Response>;

/** What Node allows a request head beyond its URL: its default `maxHeaderSize`. */
const HEADER_FIELDS_BYTES = 16 * 1024;

export interface Served {
  /** `http://host:port` the server listens on. */
  url: string;
  /** Which runtime serves it, for the start-up line. */
  runtime: "bun" | "deno" | "node";
  close(): Promise<void>;
}

interface BunLike {
  serve(options: { fetch: Fetch; port: number; hostname: string }): { port: number; hostname: string; stop(): void };
}
interface DenoLike {
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { hostname: string; port: number }) => void },
    handler: Fetch,
  ): { finished: Promise<void>; shutdown(): Promise<void> };
}

const runtimeGlobals = globalThis as { Bun?: BunLike; Deno?: DenoLike };

/** `urlBytes`: the longest request target the handler takes (its `limits.urlBytes`). */
export async function serve(fetch: Fetch, port: number, hostname: string, urlBytes = DEFAULT_LIMITS.urlBytes): Promise<Served> {
  const { Bun, Deno } = runtimeGlobals;
  if (Bun) {
    const server = Bun.serve({ fetch, port, hostname });
    return { url: urlOf(server.hostname, server.port), runtime: "bun", close: async () => server.stop() };
  }
  if (Deno) {
    let listening!: (addr: { hostname: string; port: number }) => void;
    const addr = new Promise<{ hostname: string; port: number }>((resolve) => (listening = resolve));
    const server = Deno.serve({ port, hostname, onListen: (a) => listening(a) }, fetch);
    const { hostname: host, port: actual } = await addr;
    return { url: urlOf(host, actual), runtime: "deno", close: () => server.shutdown() };
  }
  const { serve: serveNode } = await import("@hono/node-server");
  const { Server } = await import("node:http");
  const maxHeaderSize = urlBytes + HEADER_FIELDS_BYTES;
  return new Promise((resolve, reject) => {
    const server = serveNode({ fetch, port, hostname, serverOptions: { maxHeaderSize } }, (info) => {
      resolve({ url: urlOf(info.address, info.port), runtime: "node", close: () => new Promise((done) => server.close(() => done())) });
    });
    if (server instanceof Server) answerClientErrors(server, urlBytes, maxHeaderSize);
    server.once("error", reject);
  });
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
