/** Serving a handler over HTTP on Node, through @hono/node-server. */
import { serve } from "@hono/node-server";
import type { RestHandler } from "../handler.ts";

export function serveNode(handler: Pick<RestHandler, "fetch">, port: number, hostname: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: handler.fetch, port, hostname }, (info) => {
      const host = info.address.includes(":") ? `[${info.address}]` : info.address;
      resolve(`http://${host}:${info.port}`);
    });
    server.once("error", reject);
  });
}
