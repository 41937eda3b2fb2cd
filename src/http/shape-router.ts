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
import { BoundedCache } from "../cache/bounded-cache.ts";

/** Shapes kept: a path's shape is bounded by its segment count, which a client chooses. */
const SHAPE_LIMIT = 512;

/** A segment of a route: static text, or a parameter that accepts any segment. */
const PLAIN = /^(?:[^:*{}]*|:[^:*{}/?]+|:[^:*{}/?]+\{\.\+\}|\*)$/;

const STAND_IN = "\u0000";
/** What `.` in a route's `{.+}` does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

export class ShapeRouter<T> implements Router<T> {
  readonly name = "ShapeRouter";
  readonly #trie = new TrieRouter<T>();
  /** The static segments routes name at each place (index as in `path.split("/")`). */
  readonly #statics: Set<string>[] = [];
  readonly #shapes = new BoundedCache<[T, ParamIndexMap][] | null>(SHAPE_LIMIT);

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
  }

  /** Whether segment `i` stays as it is in its shape: static text a route names there, or empty (which no parameter takes). */
  #kept(segment: string, i: number): boolean {
    return segment === "" || this.#statics[i]?.has(segment) === true;
  }

  match(method: string, path: string): Result<T> {
    const segments = path.split("/");
    // A line break is rare: one test of the path, not one per stand-in.
    const breaks = LINE_BREAK.test(path);
    let shape = method;
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!;
      if (this.#kept(s, i)) shape += `/${s}`;
      else if (breaks && LINE_BREAK.test(s)) return this.#matchPath(method, path);
      else shape += `/${STAND_IN}${i}`;
    }
    // Found without a closure on the way of every request; made with one on a new shape.
    const handlers = this.#shapes.find(shape) ?? this.#shapes.get(shape, () => this.#matchShape(method, segments));
    if (!handlers) return this.#matchPath(method, path);
    return [handlers, segments];
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
