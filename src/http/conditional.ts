/**
 * Conditional requests (RFC 9110 §13), decided here and nowhere else. An object of a versioned
 * class has an entity tag, its version (`"3"`); an object of an unversioned class, an extent, a
 * filter's or a query's answer has none. `If-Match` holds when it is `*` and the resource exists,
 * or when one of its strong tags is the current one; when it fails the answer is 412 whatever the
 * method, GET included, and nothing changes. `If-None-Match` then holds unless it is `*` or names
 * the current tag (weak comparison); when it fails GET and HEAD answer 304, other methods 412.
 * An absent object is 404 before any precondition (§13.2.1). On PUT and DELETE of an object the
 * version is compared inside the write batch (a guard), so no other writer can slip in between.
 */
import type { StatedCondition } from "../errors/request-errors.ts";
import type { ClassMeta } from "../metadata/model.ts";
import type { Precondition } from "../service/absent.ts";
import { HttpError } from "./problem.ts";

/** `ETag` of an object as answered: its `_version`, when its class is versioned. */
export function etagOf(version: number | null): string | undefined {
  return version === null ? undefined : `"${version}"`;
}

/** The entity tags of a header: `*`, or the list; weak tags marked. 400 when the header is malformed. */
function parseTags(header: string, value: string): "*" | { tag: string; weak: boolean }[] {
  if (value.trim() === "*") return "*";
  const tags: { tag: string; weak: boolean }[] = [];
  const pattern = /\s*(W\/)?"([^"]*)"\s*(,|$)/y;
  let at = 0;
  while (at < value.length) {
    pattern.lastIndex = at;
    const m = pattern.exec(value);
    if (!m) throw new HttpError(400, `${header} must be * or a list of quoted entity tags such as "3", got ${JSON.stringify(value)}`);
    tags.push({ tag: m[2]!, weak: m[1] !== undefined });
    at = pattern.lastIndex;
    if (m[3] === "") break;
  }
  return tags;
}

/** The numbers of the tags that can name a version (other tags can match no object). */
function versions(tags: { tag: string }[]): number[] {
  return tags
    .map((t) => t.tag)
    .filter((t) => /^\d{1,15}$/.test(t))
    .map(Number);
}

/**
 * The preconditions of a PUT or DELETE on an object of `meta`, each checked by a guard of the
 * write batch. `If-Match` compares strongly (a weak tag never matches), `If-None-Match` weakly;
 * `If-Match: *` adds nothing to the batch's existence guard (404). A class without a version has
 * no entity tag: `If-Match` naming tags fails at once (412), `If-None-Match` naming tags holds.
 */
export function writePreconditions(request: Request, meta: ClassMeta): Precondition[] {
  const out: Precondition[] = [];
  const ifMatch = request.headers.get("if-match");
  if (ifMatch !== null) {
    const tags = parseTags("If-Match", ifMatch);
    if (tags !== "*") {
      if (!meta.version) throw new HttpError(412, `If-Match cannot hold: ${meta.name} is not versioned, so its objects have no entity tag`);
      out.push({ header: "If-Match", value: ifMatch, want: "match", versions: versions(tags.filter((t) => !t.weak)) });
    }
  }
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    const tags = parseTags("If-None-Match", ifNoneMatch);
    if (tags === "*" || meta.version) out.push({ header: "If-None-Match", value: ifNoneMatch, want: "none", versions: tags === "*" ? "*" : versions(tags) });
  }
  return out;
}

/**
 * GET and HEAD of one existing object whose entity tag is `etag` (undefined when its class is
 * not versioned): throws 412 when `If-Match` fails; true when `If-None-Match` fails, so the
 * answer is 304. `what` names the object in a 412's detail (built only then).
 */
export function notModified(request: Request, etag: string | undefined, what: () => string): boolean {
  const ifMatch = request.headers.get("if-match");
  if (ifMatch !== null) {
    const tags = parseTags("If-Match", ifMatch);
    if (tags !== "*" && !tags.some((t) => !t.weak && `"${t.tag}"` === etag)) {
      throw new HttpError(
        412,
        etag === undefined
          ? `If-Match cannot hold: ${what()} is not versioned, so it has no entity tag`
          : `If-Match failed: the entity tag of ${what()} is ${etag}, not ${ifMatch}`,
      );
    }
  }
  const header = request.headers.get("if-none-match");
  if (header === null) return false;
  const tags = parseTags("If-None-Match", header);
  return tags === "*" || (etag !== undefined && tags.some((t) => `"${t.tag}"` === etag));
}

/**
 * A request on a collection (an extent, a filter's or a query's answer, `DELETE /{class}`): a
 * collection has no entity tag and always exists, so only `If-Match: *` holds (412 otherwise) and
 * `If-None-Match: *` fails (true for GET and HEAD, which answer 304; 412 for other methods).
 */
export function collectionNotModified(request: Request, what: string): boolean {
  const ifMatch = request.headers.get("if-match");
  if (ifMatch !== null && parseTags("If-Match", ifMatch) !== "*")
    throw new HttpError(412, `If-Match cannot hold: ${what} has no entity tag; only If-Match: * matches it`);
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch === null || parseTags("If-None-Match", ifNoneMatch) !== "*") return false;
  if (request.method === "GET" || request.method === "HEAD") return true;
  throw new HttpError(412, `If-None-Match failed: ${what} exists`);
}

/** The 412's detail when a write's guard found the version of `what` failing one of `conditions`. */
export function preconditionFailedDetail(conditions: readonly StatedCondition[], what: string): string {
  const failed = conditions.map((c) => `${c.header} ${c.value}`).join(" and ");
  const expectation = conditions.map((c) => (c.want === "match" ? `is not ${c.value}` : `matches ${c.value}`)).join(" or ");
  return `${conditions.length === 1 ? `${conditions[0]!.header} failed` : `${failed}: one failed`}: the version of ${what} ${expectation}; GET it for its current ETag and retry`;
}
