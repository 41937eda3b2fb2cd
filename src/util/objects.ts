/**
 * Objects made from others on the request path. On Node 20 (V8 11.3), an object literal that
 * spreads an object and adds a property it does not have (`{ ...statement, oneRow: true }`,
 * `{ ...values, ...more }`) takes V8's slow path: about 1 µs each, 2 µs with two such properties,
 * against 0.15 for `Object.assign` onto a new object and 0.01 for a literal; Bun pays 0.03–0.2 for
 * any of them (test/bench/README.md, sixteenth part). So the request path writes
 * `withFields(base, extra)`, or sets the property on an object it has just made.
 */

/**
 * A new object with `base`'s own fields, then `extra`'s and `more`'s (the later win):
 * `{ ...base, ...extra, ...more }` for the code's own field names. (`Object.assign` sets where a
 * spread defines: a `__proto__` field would set the prototype. Query parameters are named
 * `p.<name>` in what reaches here.)
 */
export function withFields<A extends object, B extends object, C extends object = object>(base: A, extra: B, more?: C): A & B & C {
  return Object.assign({}, base, extra, more);
}
