/**
 * What only a real server shows (issue 16, item 9): the sample model served by `extent serve` on
 * Node, spoken to over HTTP. A URL within `urlBytes` is read whatever Node's default head size; a
 * longer one is 414 as a problem document, from the handler or, past what the server reads at
 * all, from the server itself; header fields too large are 431 as a problem document; TRACE (which
 * no fetch Request can carry) is 405 with Allow. The limits come from the command line here.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { connect } from "node:net";
import { gzipSync } from "node:zlib";
import { type SampleConfig, type SampleServer, S, sampleConfig, startSample, stopAllSamples } from "./support/sample-server.ts";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request over node:http, which sends any method and any URL as given. */
function raw(server: SampleServer, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function assertProblem(r: Raw, status: number, detail: RegExp): void {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.match(String(r.headers["content-type"]), /^application\/problem\+json/);
  const body = JSON.parse(r.text);
  assert.equal(body.status, status);
  assert.match(body.detail, detail);
}

const BOOK = `/${S}.Book`;
/** A filter on titles, percent-encoded: each "é" is 6 bytes of URL for 1 character of query. */
const filterOf = (chars: number) => `${BOOK}?filter=${encodeURIComponent(`title == "${"é".repeat(chars)}"`)}`;

const configs: SampleConfig[] = [];
after(async () => {
  await stopAllSamples();
  for (const config of configs) config.remove();
});

describe("extent serve with the default limits", () => {
  let server: SampleServer;
  before(async () => {
    const config = sampleConfig("extent-http-");
    configs.push(config);
    server = await startSample(config);
  });

  test("a URL past Node's default 16 KiB head but within urlBytes (32 KiB) is served", async () => {
    const path = filterOf(3400);
    assert.ok(path.length > 20_000 && path.length < 32 * 1024, String(path.length));
    const r = await raw(server, "GET", path);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(r.text, "[]");
  });

  test("a URL past urlBytes is 414 as a problem document: from the handler, and from the server past what it reads", async () => {
    assertProblem(await raw(server, "GET", filterOf(6000)), 414, /request target is \d+ bytes long; the limit is 32768 \(limit urlBytes\)/);
    for (const length of [60_000, 1_000_000]) {
      const r = await raw(server, "GET", `${BOOK}?filter=${"x".repeat(length)}`);
      assertProblem(r, 414, /longer than the 32768 bytes this server takes \(limit urlBytes\)/);
    }
  });

  test("a URL past what the server reads, sent in several packets, is still 414 (not 431)", async () => {
    const url = new URL(server.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, async () => {
        // The request line in pieces, apart in time: the parser stops in a packet that does not start the request.
        socket.write(`GET ${BOOK}?filter=${"x".repeat(20_000)}`);
        for (let i = 0; i < 4; i++) {
          await new Promise((r) => setTimeout(r, 30));
          if (!socket.writable) break;
          socket.write("x".repeat(20_000));
        }
      });
      let got = "";
      socket.on("data", (d) => (got += d.toString("latin1")));
      socket.on("close", () => resolve(got));
      socket.on("error", (e) => (got ? resolve(got) : reject(e)));
    });
    assert.match(text, /^HTTP\/1\.1 414 /, text.slice(0, 200));
    assert.match(text, /longer than the 32768 bytes this server takes \(limit urlBytes\)/);
  });

  test("header fields too large are 431 as a problem document; 16 KiB of them beside the URL are read", async () => {
    assert.equal((await raw(server, "GET", "/", { cookie: "c".repeat(15_000) })).status, 200);
    assertProblem(await raw(server, "GET", "/", { cookie: "c".repeat(60_000) }), 431, /head .* is larger than the 49152 bytes this server reads/);
  });

  test("TRACE and other methods no route takes are 405 with Allow", async () => {
    for (const [path, allow] of [
      ["/", "GET, HEAD"],
      ["/jdoql", "GET, HEAD"],
      [BOOK, "GET, HEAD, POST, DELETE"],
      [`${BOOK}/1`, "GET, HEAD, PUT, DELETE"],
    ]) {
      for (const method of ["TRACE", "PROPFIND"]) {
        const r = await raw(server, method, path!);
        assertProblem(r, 405, /not allowed/);
        assert.equal(r.headers["allow"], allow, `${method} ${path}`);
      }
      const options = await raw(server, "OPTIONS", path!);
      assert.equal(options.status, 204);
      assert.equal(options.headers["allow"], allow);
    }
  });

  test("a body must say it is JSON: what a form posts, or a body with no type, is 415; a gzip body is read", async () => {
    const form = await raw(server, "POST", BOOK, { "content-type": "application/x-www-form-urlencoded" }, "title=x");
    assertProblem(form, 415, /must be JSON/);
    const bare = await raw(server, "POST", BOOK, {}, JSON.stringify({ title: "bare" }));
    assertProblem(bare, 415, /no Content-Type/);
    const url = new URL(BOOK, server.url);
    const packed = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: gzipSync(JSON.stringify({ title: "Packed" })),
    });
    assert.equal(packed.status, 201);
    assert.equal(((await packed.json()) as { title: string }).title, "Packed");
  });
});

describe("extent serve --limit-url-bytes 2000 --limit-key-bytes 16", () => {
  let server: SampleServer;
  before(async () => {
    const config = sampleConfig("extent-http-limits-");
    configs.push(config);
    server = await startSample(config, { args: ["--limit-url-bytes", "2000", "--limit-key-bytes", "16"] });
  });

  test("a URL of exactly urlBytes is served, one byte more is 414; the server reads heads of urlBytes + 16 KiB", async () => {
    const start = `${BOOK}?filter=${encodeURIComponent('title == "')}`;
    const target = (n: number) => `${start}${"z".repeat(n - start.length - 3)}%22`;
    assert.equal((await raw(server, "GET", target(2000))).status, 200);
    assertProblem(await raw(server, "GET", target(2001)), 414, /2001 bytes long; the limit is 2000 \(limit urlBytes\)/);
    assertProblem(await raw(server, "GET", `${BOOK}?filter=${"x".repeat(30_000)}`), 414, /longer than the 2000 bytes/);
  });

  test("a key of exactly keyBytes is stored and reached by its Location, one byte more is 422, in a path 400", async () => {
    const post = (email: string) => raw(server, "POST", `/${S}.Member`, { "content-type": "application/json" }, JSON.stringify({ email, name: "K" }));
    const created = await post("é".repeat(8));
    assert.equal(created.status, 201, created.text);
    assert.equal((await raw(server, "GET", String(created.headers["location"]))).status, 200);
    assertProblem(await post("é".repeat(8) + "x"), 422, /does not fit/);
    assertProblem(
      await raw(server, "GET", `/${S}.Member/${encodeURIComponent("é".repeat(8) + "x")}`),
      400,
      /17 bytes long \(UTF-8\); the limit is 16 \(limit keyBytes\)/,
    );
  });
});

describe("extent serve stops gracefully", () => {
  test("SIGTERM: the request under way is answered, the store closed, exit 0", async () => {
    const config = sampleConfig("extent-stop-");
    configs.push(config);
    const server = await startSample(config);
    const created = await raw(server, "POST", `/${S}.Author`, { "content-type": "application/json" }, JSON.stringify({ name: "Before the stop" }));
    assert.equal(created.status, 201, created.text);
    // A request sent, then the signal while it is under way: it is still answered.
    const underWay = raw(server, "GET", `/${S}.Author`);
    process.kill(server.pid, "SIGTERM");
    const answered = await underWay;
    assert.equal(answered.status, 200);
    assert.equal(await server.exited, 0, server.output());
    assert.match(server.output(), /Extent stops \(SIGTERM\)/);
  });
});
