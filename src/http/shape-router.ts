/**
 * Routing once per path *shape*, not per request. A path's shape is its segments with every one
 * that no route names at that place (a class name, a key) replaced by a stand-in: `/api/Book/42`
 * and `/api/Author/7` are one shape, `/api/jdoql` another. Hono's trie router matches a shape once,
 * on a path of stand-ins; the handlers it finds, with the segment each parameter comes from, are
 * kept, and a request of that shape gets them with its own segments as the parameters' values
 * (Hono's `[handlers with parameter indexes, values]` result form). The trie still decides every
 * match, so routes keep Hono's order and precedence.
 *
 * Stand-ins can stand for real segments only where a route's parameter accepts any segment, so
 * the routes may hold plain parameters (`:name`), `*` and `:name{.+}` (which accepts any text but
 * line breaks), and nothing else (a route that does throws when added). A shape whose parameter
 * spans segments (`{.+}` over `a/b`), and a path with a line break where a stand-in would go, are
 * matched by the trie per request, as before.
 *
 * A match ends at the first handler that always answers (`answers`: the app's route handlers,
 * src/http/resource.ts): those after it would never run, and a request that matches one handler
 * alone is run by Hono without its middleware chain.
 */
import type { ParamIndexMap, Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

/** Shapes kept: a client chooses how many there are, so a full tree is dropped and grown again. */
const SHAPE_LIMIT = 512;
/** Paths of more segments than this (deeper than any route but a wildcard's) are matched by the trie, and never kept. */
const SHAPE_SEGMENTS = 16;

/** A segment of a route: static text, or a parameter that accepts any segment. */
const PLAIN = /^(?:[^:*{}]*|:[^:*{}/?]+|:[^:*{}/?]+\{\.\+\}|\*)$/;

const STAND_IN = "\u0000";
/** What `.` in a route's `{.+}` does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The shapes kept, as a tree of segments: a request walks it segment by segment (a Map lookup of
 * a segment kept as it is, else the stand-in's branch), so no shape text is built and hashed per
 * request. `found` is the match of the shape that ends at the node, once known.
 */
class ShapeNode<T> {
  readonly kept = new Map<string, ShapeNode<T>>();
  standIn: ShapeNode<T> | undefined;
  found: [T, ParamIndexMap][] | null | undefined;
}

export class ShapeRouter<T> implements Router<T> {
  readonly name = "ShapeRouter";
  readonly #trie = new TrieRouter<T>();
  /** The static segments routes name at each place (index as in `path.split("/")`). */
  readonly #statics: Set<string>[] = [];
  /** The tree of the shapes matched, one root per method; dropped whole when it holds SHAPE_LIMIT shapes. */
  #roots = new Map<string, ShapeNode<T>>();
  #shapes = 0;

  /**
   * `answers`: whether a handler always answers (never calls `next`): the handlers a shape
   * matches after the first such one never run, and are left out of its match.
   */
  constructor(private readonly answers: (handler: T) => boolean = () => false) {}

  add(method: string, path: string, handler: T): void {
    const segments = path.split("/");
    for (const [i, s] of segments.entries()) {
      if (!PLAIN.test(s)) throw new Error(`ShapeRouter: the route ${path} has a segment (${s}) that is not static text, :name, :name{.+} or *`);
      if (s.startsWith(":") || s === "*") continue;
      (this.#statics[i] ??= new Set()).add(s);
    }
    this.#trie.add(method, path, handler);
    this.#roots = new Map();
    this.#shapes = 0;
  }

  /** Whether segment `i` stays as it is in its shape: static text a route names there, or empty (which no parameter takes). */
  #kept(segment: string, i: number): boolean {
    return segment === "" || this.#statics[i]?.has(segment) === true;
  }

  match(method: string, path: string): Result<T> {
    const segments = path.split("/");
    if (segments.length > SHAPE_SEGMENTS) return this.#matchPath(method, path);
    // A line break is rare: one test of the path, not one per stand-in.
    const breaks = LINE_BREAK.test(path);
    let node = this.#roots.get(method);
    for (let i = 0; node && i < segments.length; i++) {
      const s = segments[i]!;
      // A segment found among the node's kept ones is kept; one that is not is a stand-in's, unless a route names it there.
      const next = node.kept.get(s);
      if (next) node = next;
      else if (this.#kept(s, i)) node = undefined;
      else if (breaks && LINE_BREAK.test(s)) return this.#matchPath(method, path);
      else node = node.standIn;
    }
    const found = node?.found !== undefined ? node.found : this.#learn(method, segments, breaks);
    if (!found) return this.#matchPath(method, path);
    return [found, segments];
  }

  /** The match of a shape not in the tree yet, added to it (the tree dropped first when full); null when no shape fits the path. */
  #learn(method: string, segments: readonly string[], breaks: boolean): [T, ParamIndexMap][] | null {
    if (breaks && segments.some((s, i) => !this.#kept(s, i) && LINE_BREAK.test(s))) return null;
    if (this.#shapes >= SHAPE_LIMIT) {
      this.#roots = new Map();
      this.#shapes = 0;
    }
    let node = this.#roots.get(method);
    if (!node) this.#roots.set(method, (node = new ShapeNode<T>()));
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!;
      if (this.#kept(s, i)) {
        let next: ShapeNode<T> | undefined = node.kept.get(s);
        if (!next) node.kept.set(s, (next = new ShapeNode<T>()));
        node = next;
      } else node = node.standIn ??= new ShapeNode<T>();
    }
    if (node.found === undefined) {
      node.found = this.#matchShape(method, segments);
      this.#shapes++;
    }
    return node.found;
  }

  /** The trie's match of the path itself (no shape fits it), up to the first handler that answers. */
  #matchPath(method: string, path: string): Result<T> {
    const [found] = this.#trie.match(method, path) as [[T, Record<string, string>][]];
    const end = found.findIndex(([handler]) => this.answers(handler));
    return [end < 0 ? found : found.slice(0, end + 1)];
  }

  /** The shape's handlers, each parameter given as the index of its segment; null when one spans segments. */
  #matchShape(method: string, segments: readonly string[]): [T, ParamIndexMap][] | null {
    const standIns = segments.map((s, i) => (this.#kept(s, i) ? s : `${STAND_IN}${i}`));
    const [found] = this.#trie.match(method, standIns.join("/")) as [[T, Record<string, string>][]];
    const out: [T, ParamIndexMap][] = [];
    for (const [handler, params] of found) {
      const indexes: ParamIndexMap = {};
      for (const name in params) {
        // A segment's stand-in, or its static text (a parameter may match a static segment: `/:class` matches `/jdoql`).
        const at = standIns.indexOf(params[name]!);
        if (at < 0) return null;
        indexes[name] = at;
      }
      out.push([handler, indexes]);
      if (this.answers(handler)) break;
    }
    return out;
  }
}
