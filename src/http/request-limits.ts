/**
 * The request limits that the HTTP layer checks before any work starts (see src/config/limits.ts):
 * the length of the URL, the shape of a JSON body, the length of a query text and the number of
 * its parameter values.
 * Body size is checked while the body is read (body.ts), time by the store (deadline-store.ts).
 */
import type { Limits } from "../config/limits.ts";
import { JsonNumber } from "../json/exact.ts";
import { pointer } from "../json/values.ts";
import { HttpError } from "./problem.ts";

/**
 * The request target (path and query, percent-encoded as sent) no longer than the limit: 414
 * beyond, first of all. `url` is a Request's absolute URL, ASCII once parsed, so its length is
 * its size in bytes.
 */
export function checkUrlLength(url: string, limits: Pick<Limits, "urlBytes">): void {
  const path = url.indexOf("/", url.indexOf("//") + 2);
  const length = path < 0 ? 1 : url.length - path;
  if (length > limits.urlBytes) {
    throw new HttpError(
      414,
      `the request target is ${length} bytes long; the limit is ${limits.urlBytes} (limit urlBytes): send less in the query, or a shorter key`,
    );
  }
}

/**
 * How deeply a parsed body nests and how many objects it holds, walked with an explicit stack, so
 * a body nested ten thousand levels deep is refused (413) instead of overflowing the recursion
 * that maps it.
 */
export function checkBodyShape(body: unknown, limits: Pick<Limits, "jsonDepth" | "objectsPerRequest">): void {
  if (typeof body === "string") return checkString(body, "");
  if (body === null || typeof body !== "object" || body instanceof JsonNumber) return;
  let objects = 0;
  const stack: [unknown, number, string][] = [[body, 1, ""]];
  while (stack.length) {
    const [value, depth, path] = stack.pop()!;
    if (depth > limits.jsonDepth) {
      throw new HttpError(413, `the body nests deeper than ${limits.jsonDepth} levels of arrays and objects (limit jsonDepth)`);
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], i, depth, path, stack);
      continue;
    }
    if (++objects > limits.objectsPerRequest) {
      throw new HttpError(413, `the body holds more than ${limits.objectsPerRequest} objects (limit objectsPerRequest)`);
    }
    for (const key of Object.keys(value as object)) {
      checkString(key, path);
      visit((value as Record<string, unknown>)[key], key, depth, path, stack);
    }
  }
}

/** One member of an array or object: a string checked, an array or object put on the stack. */
function visit(child: unknown, key: string | number, depth: number, path: string, stack: [unknown, number, string][]): void {
  // The pointer is made only for the error: most members are short strings.
  if (typeof child === "string") {
    if (LONE_SURROGATE.test(child)) checkString(child, pointer(path, key));
  } else if (child !== null && typeof child === "object" && !(child instanceof JsonNumber)) stack.push([child, depth + 1, pointer(path, key)]);
}

/** Half of a UTF-16 surrogate pair on its own: no database stores it (SQLite would keep U+FFFD instead). */
const LONE_SURROGATE = /\p{Cs}/u;

function checkString(text: string, path: string): void {
  if (LONE_SURROGATE.test(text)) {
    const message = "a string holds half of a UTF-16 surrogate pair, which cannot be stored as text";
    throw new HttpError(422, `the body is not well-formed Unicode: ${message}`, { errors: [{ path, message }] });
  }
}

/** A query text (filter, JDOQL, JPQL) no longer than the limit: 400 beyond, before it is parsed. */
export function checkQueryLength(text: string, limits: Pick<Limits, "queryLength">, what: string): void {
  if (text.length > limits.queryLength) {
    throw new HttpError(400, `the ${what} is ${text.length} characters long; the limit is ${limits.queryLength} (limit queryLength)`);
  }
}

/** No more parameter values than the limit: 400 beyond. */
export function checkParameterCount(given: Record<string, unknown> | unknown[] | undefined, limits: Pick<Limits, "queryParameters">): void {
  const count = given === undefined ? 0 : Array.isArray(given) ? given.length : Object.keys(given).length;
  if (count > limits.queryParameters) {
    throw new HttpError(400, `params has ${count} values; the limit is ${limits.queryParameters} (limit queryParameters)`, {
      errors: [{ path: "params", message: `at most ${limits.queryParameters} values` }],
    });
  }
  for (const [name, value] of given ? Object.entries(given) : []) {
    if (typeof value === "string" && LONE_SURROGATE.test(value))
      throw new HttpError(400, `parameter ${name} holds half of a UTF-16 surrogate pair, which no stored text can equal`);
    if (typeof value === "string" && value.includes("\u0000"))
      throw new HttpError(400, `parameter ${name} holds the character U+0000, which no stored text can hold`);
  }
}
