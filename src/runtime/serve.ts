/**
 * Serving a fetch handler over HTTP on whichever runtime runs us: `Bun.serve` on Bun,
 * `Deno.serve` on Deno, `@hono/node-server` on Node. The local entry and the CLI share it.
 */
type Fetch = (request: Request) => Response | Promise<Response>;

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

export async function serve(fetch: Fetch, port: number, hostname: string): Promise<Served> {
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
  return new Promise((resolve, reject) => {
    const server = serveNode({ fetch, port, hostname }, (info) => {
      resolve({ url: urlOf(info.address, info.port), runtime: "node", close: () => new Promise((done) => server.close(() => done())) });
    });
    server.once("error", reject);
  });
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
