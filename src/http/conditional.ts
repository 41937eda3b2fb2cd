/**
 * Conditional requests on versioned classes (RFC 9110 §13): an object's entity tag is its
 * version, `"3"`. `If-Match` on PUT and DELETE makes the write wait for nothing and change
 * nothing unless the version is still the one the client read (412 otherwise: optimistic
 * concurrency); `If-None-Match` on GET answers 304 when the client's copy is current. The version
 * is compared inside the write batch (a guard), so no other writer can slip in between.
 */
import type { ClassMeta } from "../metadata/model.ts";
import type { VersionCondition } from "../plan/write-plan.ts";
import { HttpError } from "./problem.ts";

/** A version condition and the header it came from, for the 412's message. */
export interface Precondition extends VersionCondition {
  header: "If-Match" | "If-None-Match";
  value: string;
}

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
  return tags.map((t) => t.tag).filter((t) => /^\d{1,15}$/.test(t)).map(Number);
}

/**
 * The precondition of a PUT or DELETE on `meta`, if the request has one. `If-Match` compares
 * strongly (a weak tag never matches), `If-None-Match` weakly. A class without a version has no
 * entity tag: `If-Match` naming tags fails at once (412).
 */
export function writePrecondition(request: Request, meta: ClassMeta): Precondition | undefined {
  const ifMatch = request.headers.get("if-match");
  if (ifMatch !== null) {
    const tags = parseTags("If-Match", ifMatch);
    if (tags === "*") return undefined; // any current object: the batch's existence guard says so already (404)
    if (!meta.version) throw new HttpError(412, `If-Match cannot hold: ${meta.name} is not versioned, so its objects have no entity tag`);
    return { header: "If-Match", value: ifMatch, want: "match", versions: versions(tags.filter((t) => !t.weak)) };
  }
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    const tags = parseTags("If-None-Match", ifNoneMatch);
    if (tags !== "*" && !meta.version) return undefined;
    return { header: "If-None-Match", value: ifNoneMatch, want: "none", versions: tags === "*" ? "*" : versions(tags) };
  }
  return undefined;
}

/** GET: true when `If-None-Match` names the object's current tag (or `*`), so 304 is the answer. */
export function notModified(request: Request, etag: string | undefined): boolean {
  const header = request.headers.get("if-none-match");
  if (header === null || etag === undefined) return false;
  const tags = parseTags("If-None-Match", header);
  return tags === "*" || tags.some((t) => `"${t.tag}"` === etag);
}

export function preconditionFailed(condition: Precondition, what: string): HttpError {
  const expectation = condition.want === "match" ? `is not ${condition.value}` : `matches ${condition.value}`;
  return new HttpError(412, `${condition.header} failed: the version of ${what} ${expectation}; GET it for its current ETag and retry`);
}
