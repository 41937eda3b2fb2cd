/**
 * Bytes on the wire with and without gzip (issue 19; not a test: figures depend on the data): GET
 * of an extent of 100 objects and of 100,000 (streamed), with the default fetch plan and with
 * `fetchGroup=all`, each read whole over HTTP from the server as its own process
 * (test/bench/large-extent-server.ts, the handler's defaults: compression on), once with
 * `Accept-Encoding: identity` and once with `gzip`. Prints the bytes, their ratio and the time of
 * each read (compressing costs the server CPU; it saves the network far more on a real link).
 *
 *   node --import tsx test/bench/wire-bytes.ts [--persons 100000]
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createGunzip } from "node:zlib";
import { GRAPH_PKG } from "../support/graph-model.ts";
import { AUTO, database, start } from "./large-extent.ts";

const MiB = 1024 * 1024;

interface Read {
  /** Bytes of the body as sent. */
  wire: number;
  /** Bytes once decompressed. */
  json: number;
  ms: number;
  encoding: string | undefined;
}

/** Reads `url` whole over node:http (which leaves the body as sent), counting its bytes as sent and as JSON. */
function read(url: string, acceptEncoding: string): Promise<Read> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
      const encoding = res.headers["content-encoding"];
      let wire = 0;
      let json = 0;
      res.on("data", (chunk: Buffer) => (wire += chunk.length));
      const body = encoding === "gzip" ? res.pipe(createGunzip()) : res;
      body.on("data", (chunk: Buffer) => (json += chunk.length));
      body.on("end", () => resolve({ wire, json, ms: performance.now() - started, encoding }));
      body.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function measureWireBytes(persons = 100_000): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "extent-wire-"));
  try {
    const rows: string[][] = [];
    for (const count of [100, persons]) {
      const server = await start(await database(dir, count), AUTO);
      try {
        for (const plan of ["", "fetchGroup=all"]) {
          const url = `${server.url}/${GRAPH_PKG}.Person${plan ? `?${plan}` : ""}`;
          await read(url, "gzip"); // warm-up: plans compiled, pages cached by SQLite alike for both reads
          const plain = await read(url, "identity");
          const gzip = await read(url, "gzip");
          assert.equal(plain.encoding, undefined);
          assert.equal(gzip.encoding, "gzip");
          assert.equal(gzip.json, plain.json, "the gzip answer unpacks to as many bytes as the plain one");
          const size = (n: number) => (n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`);
          rows.push([
            String(count),
            plan || "default",
            size(plain.wire),
            size(gzip.wire),
            `${(plain.wire / gzip.wire).toFixed(1)}×`,
            plain.ms.toFixed(0),
            gzip.ms.toFixed(0),
          ]);
        }
      } finally {
        await server.stop();
      }
    }
    const head = ["objects", "fetch plan", "identity", "gzip", "ratio", "identity ms", "gzip ms"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
    console.log("\nGET /Person: bytes on the wire, plain and gzip (one server process, the handler's defaults; times on localhost)\n");
    console.log(line(head));
    for (const r of rows) console.log(line(r));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const i = args.indexOf("--persons");
  await measureWireBytes(i >= 0 ? Number(args[i + 1]) : undefined);
}
