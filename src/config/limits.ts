/**
 * The limits a service needs before it faces the internet: each bounds what one request may ask
 * of the server, each has a safe default, and each can be set in the persistence context (code or
 * `extent.limit.*` properties in persistence.xml / jdoconfig.xml) and on the CLI (`--limit-*`).
 * A request beyond a limit gets a problem document naming the limit and its value.
 */
import * as v from "valibot";

export interface Limits {
  /** Largest request body in bytes: 413 beyond. */
  bodyBytes: number;
  /** Deepest nesting of arrays and objects in a JSON body: 413 beyond. */
  jsonDepth: number;
  /** Most JSON objects in one body (the objects of a graph, maps and embedded values among them): 413 beyond. */
  objectsPerRequest: number;
  /** Deepest `maxFetchDepth` a request may ask for: 400 beyond; `-1` (unlimited) reads to this depth. `-1` here: no cap. */
  maxFetchDepth: number;
  /** Longest query text (`filter`, JDOQL, JPQL) in characters: 400 beyond. */
  queryLength: number;
  /** Most parameter values in `params`: 400 beyond. */
  queryParameters: number;
  /**
   * Longest time a request may hold the server before its answer starts, in milliseconds: 503 with
   * `Retry-After` beyond. Kept at the store: embedded files interrupt a running statement and roll
   * its batch back; other stores give a read up and wait for a write once sent, so an answer never
   * hides a write that happened.
   */
  requestTimeMs: number;
  /**
   * Largest answer the server builds at once, in bytes of its JSON (a whole answer, or one page of a
   * streamed extent or query answer; a streamed query answer has at most as many objects as this
   * holds of its class's shortest ones): 400 beyond, naming the limit and how to ask for less. Enforced while the
   * answer is written, in SQL where SQL writes it, so nothing much larger is ever built. Rows a
   * query projects with objects in them count at least 64 + 16 per column bytes each: what the
   * server holds them in.
   */
  answerBytes: number;
  /**
   * Longest key, in UTF-8 bytes of its text as a path carries it (a string's characters, a
   * number's digits, an ancestor key's JSON), the parts of a composite key summed: 422 in a body
   * (with the path), 400 in a path or a parameter. Keeps every `Location` and path within what
   * clients and proxies carry.
   */
  keyBytes: number;
  /** Longest request target (path and query, percent-encoded as sent) in bytes: 414 beyond. */
  urlBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  bodyBytes: 1024 * 1024,
  jsonDepth: 64,
  objectsPerRequest: 10_000,
  maxFetchDepth: 10,
  queryLength: 10_000,
  queryParameters: 100,
  requestTimeMs: 10_000,
  answerBytes: 32 * 1024 * 1024,
  keyBytes: 1024,
  // A query of queryLength characters fits, percent-encoded, unless most of them need escaping.
  urlBytes: 32 * 1024,
});

/** Names of the limits as properties (`extent.limit.body-bytes`) and CLI flags (`--limit-body-bytes`). */
export const LIMIT_NAMES: Readonly<Record<keyof Limits, string>> = {
  bodyBytes: "body-bytes",
  jsonDepth: "json-depth",
  objectsPerRequest: "objects-per-request",
  maxFetchDepth: "max-fetch-depth",
  queryLength: "query-length",
  queryParameters: "query-parameters",
  requestTimeMs: "request-time-ms",
  answerBytes: "answer-bytes",
  keyBytes: "key-bytes",
  urlBytes: "url-bytes",
};

export const LIMIT_PROPERTY = (name: keyof Limits) => `extent.limit.${LIMIT_NAMES[name]}`;

const positive = v.pipe(v.number(), v.safeInteger("must be a whole number"), v.minValue(1, "must be at least 1"));
const LimitsSchema = v.strictObject({
  bodyBytes: v.optional(positive),
  jsonDepth: v.optional(positive),
  objectsPerRequest: v.optional(positive),
  maxFetchDepth: v.optional(v.union([v.literal(-1), positive], "must be a whole number of at least 1, or -1 for no cap")),
  queryLength: v.optional(positive),
  queryParameters: v.optional(positive),
  requestTimeMs: v.optional(positive),
  answerBytes: v.optional(positive),
  keyBytes: v.optional(positive),
  urlBytes: v.optional(positive),
});

/**
 * The limits in force: `given` over the defaults. Throws a RangeError naming the limit when a
 * value is not allowed (a context in code is checked as strictly as a file).
 */
export function resolveLimits(given: Partial<Limits> | undefined): Limits {
  const parsed = v.safeParse(LimitsSchema, given ?? {});
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.[0]?.key;
    throw new RangeError(
      `limits.${String(key ?? "?")}: ${issue.message}${key !== undefined ? `, got ${JSON.stringify((given as Record<string, unknown>)[String(key)])}` : ""}`,
    );
  }
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const [k, value] of Object.entries(parsed.output)) if (value !== undefined) out[k as keyof Limits] = value;
  return out;
}

/** Reads a limit's text (a property or a flag): a whole number, or `-1` for `maxFetchDepth`. */
export function parseLimit(name: keyof Limits, text: string): { ok: true; value: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  const value = /^-?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  const allowed = Number.isSafeInteger(value) && (value >= 1 || (value === -1 && name === "maxFetchDepth"));
  return allowed
    ? { ok: true, value }
    : { ok: false, message: `must be a whole number of at least 1${name === "maxFetchDepth" ? " or -1 (no cap)" : ""}, got ${JSON.stringify(text)}` };
}
