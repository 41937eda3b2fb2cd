/**
 * Compression of large answers (contract §7) with the web-standard CompressionStream: gzip and
 * deflate everywhere, br where the runtime's CompressionStream has a quick `brotli` (Deno; Node 20
 * has none, and Bun's compresses at the highest quality: 16 s for 10 MB of JSON, gzip 0.13 s).
 * gzip is preferred when a client takes several alike (browsers send `gzip, deflate, br, zstd`). Hono's `compress` middleware does not fit: it compresses answers of any size that carry no
 * Content-Length (ours carry none) and makes strong ETags weak, which would break `If-Match`.
 *
 * Which answers: a body of a compressible type (JSON, problem documents, text) whose first
 * `threshold` bytes are there; a smaller one is answered as it is. The body is read only that far
 * before deciding, so a streamed extent stays streamed, page by page, through the compressor.
 * Untouched: HEAD, 204, 206, 304, an answer already encoded or marked `Cache-Control: no-transform`.
 * `Vary: Accept-Encoding` on every answer large enough to be compressed; Content-Length dropped.
 *
 * The ETag stays as it is: it names the object's version, which a compressed answer states as
 * much as the plain one, and `If-Match` compares tags strongly, so a weakened tag sent back with a
 * PUT would fail. No byte ranges are served, and `Vary` keeps caches' copies apart.
 */
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";

/** The answers below this many bytes are sent as they are: compressing them saves little. */
export const DEFAULT_COMPRESS_THRESHOLD = 1024;

type Format = "brotli" | "gzip" | "deflate";

/** The encodings this runtime can write, in the order they are preferred when a client takes several equally. */
export const ENCODINGS: ReadonlyMap<string, Format> = new Map(
  (
    [
      ["gzip", "gzip"],
      ["deflate", "deflate"],
      ["br", "brotli"],
    ] as const
  ).filter(([, format]) => supported(format)),
);

function supported(format: Format): boolean {
  if (format === "brotli" && "Bun" in globalThis) return false;
  try {
    new CompressionStream(format as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}

/**
 * The encoding to answer in from `Accept-Encoding` (RFC 9110 §12.5.3): the highest `q` among the
 * encodings written here (`*` standing for those not named), ties going to the order above; none
 * when nothing acceptable is (then the answer is `identity`, always acceptable in practice).
 */
export function chooseEncoding(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const weight = params.find((p) => p.startsWith("q="));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  let best: { encoding: string; q: number } | undefined;
  for (const encoding of ENCODINGS.keys()) {
    const weight = q.get(encoding) ?? q.get("*") ?? 0;
    if (weight > 0 && (!best || weight > best.q)) best = { encoding, q: weight };
  }
  return best?.encoding;
}

/**
 * The text an answer was made from (the JSON answers of src/http/answers.ts), so most answers are
 * judged without reading their body: UTF-8 takes 1 to 3 bytes per UTF-16 unit, so a text of
 * `threshold` units or more is large enough, and one under a third of it is too small; between
 * the two, a text short enough to check and all ASCII has as many bytes as units. An answer Hono
 * has wrapped again (when middleware set headers before it) does not carry it and is judged by
 * reading it.
 *
 * Kept on the answer under this module's own symbol rather than in a WeakMap: an entry per answer
 * cost V8 0.5–0.8 µs (the key's identity hash, the table the collector must sweep), a property
 * nothing (test/bench/README.md, fifteenth part).
 */
const TEXT = Symbol("extent.answerText");
type TextAnswer = Response & { [TEXT]?: string };

/** Texts up to this many units are checked for non-ASCII characters (a regular expression over at most 8 KiB). */
const EXACT_UNITS = 4096;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * `response`, noted as made from `text`: one of Extent's JSON answers (src/http/answers.ts,
 * src/http/listing.ts), whose headers its maker wrote, none of them a content coding, a
 * Cache-Control or a Vary, so that compression need not read them back (each a lookup in the
 * answer's Headers, made for it on some runtimes).
 */
export function fromText(response: Response, text: string): Response {
  (response as TextAnswer)[TEXT] = text;
  return response;
}

/**
 * Whether `res` goes out as it is, known without reading it: most answers (a small text), so the
 * answer is decided without a promise. A text surely under the threshold goes out as it is,
 * whatever the client takes: no header read (on @hono/node-server the first makes a Headers of the
 * answer's), no Vary, and no `res.body` either: asking for it turns the server's light answer of a
 * text into a web stream, which then goes out through a stream reader (Node: a GET by key 25 % slower).
 */
function plainly(request: Request, res: Response, threshold: number): boolean {
  const { status } = res;
  if (request.method === "HEAD" || status === 204 || status === 206 || status === 304) return true;
  const bytes = textBytes(res, threshold);
  return bytes === null ? !res.body : bytes !== undefined && bytes < threshold;
}

/**
 * What the answer's text tells of its size in bytes: 0 when surely under the threshold, its length
 * when surely over it, exact between the two for an ASCII text, else undefined (it cannot tell);
 * null for an answer not made from a text. Most answers are decided by their length alone.
 */
function textBytes(res: Response, threshold: number): number | undefined | null {
  const text = (res as TextAnswer)[TEXT];
  if (text === undefined) return null;
  const units = text.length;
  if (units * 3 < threshold) return 0;
  if (units >= threshold) return units;
  return units <= EXACT_UNITS && !NON_ASCII.test(text) ? units : undefined;
}

/** The answer to `request` as it goes out: `response` compressed when it should be (see above), else itself. */
export async function compressAnswer(request: Request, res: Response, threshold = DEFAULT_COMPRESS_THRESHOLD): Promise<Response> {
  if (plainly(request, res, threshold)) return res;
  const bytes = textBytes(res, threshold);
  // An answer made from a text is JSON with none of these headers (fromText); any other is read.
  if (bytes === null) {
    if (res.headers.has("content-encoding") || /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get("cache-control") ?? "")) return res;
    if (!COMPRESSIBLE_CONTENT_TYPE_REGEX.test(res.headers.get("content-type") ?? "")) return res;
  }
  const encoding = chooseEncoding(request.headers.get("accept-encoding") ?? undefined);
  if (encoding === undefined) {
    if (bytes === null) return withVary(res);
    // Appended, not set: a maker's own Vary (none today) would be kept beside it.
    res.headers.append("vary", "Accept-Encoding");
    return res;
  }
  // Else read the body as far as the threshold: a small answer ends before it and goes out as it is.
  const reader = res.body!.getReader();
  const head: Uint8Array<ArrayBuffer>[] = [];
  let size = bytes != null && bytes >= threshold ? threshold : 0;
  while (size < threshold) {
    const chunk = await reader.read();
    if (chunk.done) return new Response(concat(head, size), res);
    head.push(chunk.value);
    size += chunk.value.byteLength;
  }
  const body = new ReadableStream<BufferSource>({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
      head.length = 0;
    },
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const headers = withVary(res).headers;
  headers.delete("content-length");
  headers.set("content-encoding", encoding);
  return new Response(body.pipeThrough(new CompressionStream(ENCODINGS.get(encoding)! as CompressionFormat)), {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

/**
 * `Vary: Accept-Encoding` on an answer whose encoding depends on the request's: one large enough
 * to be compressed. A smaller one is the same for every client, and says nothing.
 */
function withVary(res: Response): Response {
  const vary = res.headers.get("vary");
  if (vary !== "*" && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? "")) res.headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  return res;
}

/** `compressAnswer`, decided without a promise for the answers that go out as they are (most: a small text). */
export function compressed(request: Request, res: Response, threshold: number): Response | Promise<Response> {
  return plainly(request, res, threshold) ? res : compressAnswer(request, res, threshold);
}

function concat(chunks: Uint8Array<ArrayBuffer>[], size: number): Uint8Array<ArrayBuffer> {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
