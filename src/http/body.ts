/**
 * Reading a JSON request body: one decision for every request that sends one. Its media type
 * must be JSON (415 otherwise, a missing one included: no HTML form or `sendBeacon` can send it
 * without a CORS preflight); its content coding `identity`, `gzip` or `deflate` (415 otherwise,
 * with `Accept-Encoding`); its size, after decoding, within the limit (413); its text UTF-8 (JSON
 * text is, RFC 8259 §8.1) and JSON (400).
 */
import { HttpError } from "./problem.ts";
import { findJsonSyntaxError } from "../json/json-syntax.ts";
import { parseJson } from "../json/exact.ts";
import type { Limits } from "../config/limits.ts";
import { checkBodyShape } from "./request-limits.ts";

/** `application/json` or `application/<x>+json`, parameters (charset) aside. */
const JSON_MEDIA = /^application\/([!#$%&'*.^_`|~0-9a-z-]+\+)?json$/;

function checkMediaType(request: Request): void {
  const contentType = request.headers.get("content-type");
  // Most clients send exactly this: no split, trim, lower case or expression.
  if (contentType === "application/json") return;
  if (contentType !== null && JSON_MEDIA.test(contentType.split(";")[0]!.trim().toLowerCase())) return;
  const given = contentType === null ? "no Content-Type" : `Content-Type ${contentType}`;
  throw new HttpError(415, `the body must be JSON, sent with Content-Type: application/json; this request has ${given}`, {
    headers: { "accept-post": "application/json" },
  });
}

/** The content codings a body may come in, as `DecompressionStream` formats (RFC 9110 §8.4.1). */
const CODINGS: Record<string, CompressionFormat | undefined> = { identity: undefined, gzip: "gzip", "x-gzip": "gzip", deflate: "deflate" };

/** The decoding a body needs (undefined: none); 415 with the codings taken for any other. */
function codingOf(request: Request): CompressionFormat | undefined {
  const header = request.headers.get("content-encoding");
  if (header === null || header.trim() === "") return undefined;
  const coding = header.trim().toLowerCase();
  if (Object.hasOwn(CODINGS, coding)) return CODINGS[coding];
  throw new HttpError(415, `the body's Content-Encoding ${JSON.stringify(header)} is not taken: send it as gzip, deflate or identity (one coding)`, {
    headers: { "accept-encoding": "gzip, deflate" },
  });
}

/**
 * A GET or HEAD has a body only when it says so (Content-Length above 0, or Transfer-Encoding).
 * Asking for `request.body` costs more than the read it serves on some servers (@hono/node-server
 * builds a whole Request for it), so a GET of an extent does not ask unless a key was sent.
 */
export function mayHaveBody(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return true;
  const length = request.headers.get("content-length");
  return (length !== null && length.trim() !== "0") || request.headers.get("transfer-encoding") !== null;
}

const tooLarge = (limit: number) => new HttpError(413, `the body is larger than the limit of ${limit} bytes`);

/**
 * The body's bytes, or `undefined` when there is none. A plain body whose length is declared (and
 * within the limit) is read at once, which servers do fastest (@hono/node-server takes the
 * socket's bytes without building a Request); any other is read chunk by chunk, decoded as it
 * comes, and given up as soon as the decoded bytes pass the limit: a small compressed body that
 * would decode to gigabytes costs no more than the limit. Not async itself: the caller awaits the
 * one promise (three async layers around the read cost a PUT about 3 % of its JavaScript on Bun).
 */
function bodyBytes(request: Request, limit: number): Promise<ArrayBuffer | Uint8Array> | undefined {
  const length = request.headers.get("content-length");
  const declared = length !== null && /^\s*\d+\s*$/.test(length) ? Number(length) : undefined;
  if (declared !== undefined && declared > limit) throw new HttpError(413, `the body is ${declared} bytes; the limit is ${limit} bytes`);
  if (!mayHaveBody(request) || declared === 0) return undefined;
  const coding = codingOf(request);
  if (declared !== undefined && !coding) return request.arrayBuffer();
  return request.body ? streamedBytes(request.body, coding, limit) : undefined;
}

/** A body read chunk by chunk (decoded as it comes when `coding` says so), refused once past `limit`. */
async function streamedBytes(body: NonNullable<Request["body"]>, coding: CompressionFormat | undefined, limit: number): Promise<Uint8Array> {
  const stream = coding ? body.pipeThrough(new DecompressionStream(coding)) : body;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      if (!coding) throw error;
      throw new HttpError(400, `the body is not valid ${coding}: it cannot be decoded`);
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body's text. Bytes that are not UTF-8 are refused rather than read as U+FFFD, which would
 * store a character the client never sent: the body is malformed, so 400, like malformed JSON.
 */
function utf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new HttpError(400, `the body is not valid UTF-8: byte ${offset} (from 0) does not begin a UTF-8 character`);
  }
}

/** The offset of the first byte that does not start (or continue) a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const [length, min, max] =
      b < 0x80
        ? [1, 0, 0]
        : b >= 0xc2 && b <= 0xdf
          ? [2, 0x80, 0xbf]
          : b === 0xe0
            ? [3, 0xa0, 0xbf]
            : b === 0xed
              ? [3, 0x80, 0x9f]
              : b >= 0xe1 && b <= 0xef
                ? [3, 0x80, 0xbf]
                : b === 0xf0
                  ? [4, 0x90, 0xbf]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : b === 0xf4
                      ? [4, 0x80, 0x8f]
                      : [0, 0, 0];
    if (length === 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? min : 0x80) || c > (k === 1 ? max : 0xbf)) return i;
    }
    i += length;
  }
  return bytes.length;
}

/**
 * The body as JSON: undefined when there is none (400 when it is `required`); within `shape`'s
 * depth and object count when given (src/http/request-limits.ts).
 */
export async function readJsonBody(
  request: Request,
  limit: number,
  required: boolean,
  shape?: Pick<Limits, "jsonDepth" | "objectsPerRequest">,
): Promise<unknown> {
  const reading = bodyBytes(request, limit);
  const bytes = reading && (await reading);
  if (bytes && bytes.byteLength > limit) throw tooLarge(limit);
  if (!bytes?.byteLength) {
    if (required) throw new HttpError(400, "the request needs a JSON body");
    return undefined;
  }
  const text = utf8(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  checkMediaType(request);
  let body: unknown;
  try {
    // Numbers a double cannot hold keep their digits (src/json/exact.ts).
    body = parseJson(text);
  } catch {
    const where = findJsonSyntaxError(text);
    throw new HttpError(
      400,
      `the body is not valid JSON: ${where?.message ?? "it cannot be parsed"}`,
      where && { position: { line: where.line, column: where.column, offset: where.offset } },
    );
  }
  if (shape) checkBodyShape(body, shape);
  return body;
}
