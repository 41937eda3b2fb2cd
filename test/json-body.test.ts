/**
 * Malformed JSON bodies: a 400 problem document that says where the body goes wrong (line and
 * column, in the same words on every runtime), and nothing stored.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { firstInvalidUtf8, readJsonBody } from "../src/http/body.ts";
import { findJsonSyntaxError } from "../src/json/json-syntax.ts";
import { startHarness } from "./support/harness.ts";

const metadata = [{ source: "package.jdo", text: readFileSync(new URL("../schema/jdo/package.jdo", import.meta.url), "utf8") }];

const CASES: [body: string, line: number, column: number, expected: string][] = [
  ["{ not json", 1, 3, "a property name in double quotes"],
  ['{"title": "a",}', 1, 15, "a property name in double quotes"],
  ['{"title" "a"}', 1, 10, '":"'],
  ['{\n  "title": "a"\n  "pages": 3\n}', 3, 3, '"," or "}"'],
  ['{"title": tru}', 1, 14, '"true"'],
  ['{"title": "a\\x"}', 1, 14, "an escape"],
  ['{"pages": 01}', 1, 12, '"," or "}"'],
  ['{"tags": ["a" "b"]}', 1, 15, '"," or "]"'],
  ['{"title": "a"} x', 1, 16, "the end of the body"],
  ['{"title": "unterminated', 1, 24, 'a closing "'],
  ["[", 1, 2, "a value"],
];

test("a malformed body is a 400 that points at the first wrong character, and changes nothing", async () => {
  const h = await startHarness({ metadata });
  try {
    for (const [body, line, column, expected] of CASES) {
      const r = await h.call("POST", "/org.extent.sample.Book", body);
      assert.equal(r.status, 400, body);
      assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.deepEqual([r.body.position.line, r.body.position.column], [line, column], `${body}: ${r.body.detail}`);
      assert.ok(r.body.detail.includes(`expected ${expected}`), `${body}: ${r.body.detail}`);
    }
    assert.deepEqual(await h.sql("SELECT COUNT(*) FROM ITEM"), [[0]]);
  } finally {
    h.close();
  }
});

test("the scanner agrees with JSON.parse on what is valid", () => {
  const valid = ['{"a":[1,-2.5e3,true,false,null,"\\u00e9\\n"],"b":{}}', "[]", ' "x" ', "0", "-0.1E+2", '{"a":{"b":[[]]}}'];
  for (const text of valid) assert.equal(findJsonSyntaxError(text), undefined, text);
  const invalid = ["", "{", "[1,]", "{'a':1}", "01", "1.", ".5", "+1", "NaN", '"\t"', "[1 2]", '{"a":1,,"b":2}', "nul", "{}{}"];
  for (const text of invalid) {
    assert.throws(() => JSON.parse(text), text);
    assert.ok(findJsonSyntaxError(text), `the scanner misses the error in ${JSON.stringify(text)}`);
  }
});

test("a malformed body nested a hundred thousand levels deep is a 400, not a stack overflow (found by fuzzing)", async () => {
  const deep = "[".repeat(100_000);
  assert.equal(findJsonSyntaxError(deep)?.offset, deep.length);
  const unclosed = `{"a":${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`; // one "}" short
  assert.equal(findJsonSyntaxError(unclosed)?.message, `expected "," or "}" at line 1, column ${unclosed.length + 1}, found the end of the body`);
  const h = await startHarness({ metadata });
  try {
    const r = await h.call("POST", "/org.extent.sample.Book", `{"title":${deep}`);
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.detail, /expected a value at line 1, column 100010, found the end of the body/);
  } finally {
    h.close();
  }
});

test("a body that is not UTF-8 is a 400 naming the first bad byte, not text with U+FFFD stored", async () => {
  const bytes = (...parts: (string | number[])[]) => {
    const out: number[] = [];
    for (const p of parts) out.push(...(typeof p === "string" ? new TextEncoder().encode(p) : p));
    return new Uint8Array(out);
  };
  // A lone continuation byte, Latin-1 "é", an overlong "/", a UTF-8 surrogate, past U+10FFFF, a cut sequence.
  const bad: [Uint8Array, number][] = [
    [bytes('{"title":"a', [0x80], '"}'), 11],
    [bytes('{"title":"caf', [0xe9], '"}'), 13],
    [bytes('{"title":"', [0xc0, 0xaf], '"}'), 10],
    [bytes('{"title":"', [0xed, 0xa0, 0x80], '"}'), 10],
    [bytes('{"title":"', [0xf4, 0x90, 0x80, 0x80], '"}'), 10],
    [bytes('{"title":"ab', [0xe2, 0x82]), 12],
  ];
  for (const [body, offset] of bad) assert.equal(firstInvalidUtf8(body), offset);
  assert.equal(firstInvalidUtf8(bytes('{"title":"é€😀"}')), bytes('{"title":"é€😀"}').length);
  const h = await startHarness({ metadata });
  try {
    for (const [body, offset] of bad) {
      const r = await h.call("POST", "/org.extent.sample.Book", body);
      assert.equal(r.status, 400, r.text);
      assert.match(r.headers.get("content-type") ?? "", /^application\/problem\+json/);
      assert.equal(r.body.detail, `the body is not valid UTF-8: byte ${offset} (from 0) does not begin a UTF-8 character`);
    }
    // The requests above declare no length (read chunk by chunk); the same with a declared length.
    const body = bad[1]![0];
    const sized = {
      method: "POST",
      headers: new Headers({ "content-type": "application/json", "content-length": String(body.length) }),
      arrayBuffer: async () => body.buffer,
    } as unknown as Request;
    await assert.rejects(readJsonBody(sized, 1024, true), (e: { status?: number; detail?: string }) => e.status === 400 && /byte 13 /.test(e.detail ?? ""));
    assert.deepEqual(await h.sql("SELECT COUNT(*) FROM ITEM"), [[0]]);
    const ok = await h.call("POST", "/org.extent.sample.Book", bytes('{"title":"café 😀"}'));
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.title, "café 😀");
  } finally {
    h.close();
  }
});

test("a GET or HEAD body is read only when the request declares one (Content-Length or Transfer-Encoding), as HTTP/1.1 frames it", async () => {
  // A request whose body getter counts its calls: on @hono/node-server it builds a whole Request.
  const request = (method: string, headers: Record<string, string>, text?: string) => {
    let asked = 0;
    const req = {
      method,
      headers: new Headers(headers),
      get body() {
        asked++;
        return text === undefined ? null : new Response(text).body;
      },
      arrayBuffer() {
        asked++;
        return new Response(text ?? "").arrayBuffer();
      },
    } as unknown as Request;
    return { req, asked: () => asked };
  };
  const bare = request("GET", {});
  assert.equal(await readJsonBody(bare.req, 1024, false), undefined);
  assert.equal(bare.asked(), 0, "a GET that declares no body is not asked for one");
  const sized = request("GET", { "content-length": "16", "content-type": "application/json" }, '{"id":9,"k":"g"}');
  assert.deepEqual(await readJsonBody(sized.req, 1024, false), { id: 9, k: "g" });
  const chunked = request("HEAD", { "transfer-encoding": "chunked", "content-type": "application/json" }, '{"id":1}');
  assert.deepEqual(await readJsonBody(chunked.req, 1024, false), { id: 1 });
  // Other methods are read whatever their headers say (a Request made in code has no Content-Length).
  const post = request("POST", { "content-type": "application/json" }, '{"title":"x"}');
  assert.deepEqual(await readJsonBody(post.req, 1024, true), { title: "x" });
  // A declared length over the limit is refused before the body is touched.
  const large = request("POST", { "content-length": "2048" }, "x".repeat(2048));
  await assert.rejects(readJsonBody(large.req, 1024, true), (e: { status?: number }) => e.status === 413);
  assert.equal(large.asked(), 0);
});
