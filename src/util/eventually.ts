/**
 * A value now, or a promise of it: what the read and write paths answer when the store may run a
 * batch on the calling thread (`Store.batchNow`), so that no layer awaits what has already come.
 */
export type Eventually<T> = T | Promise<T>;

/** `f` of the value: at once when it is here, after it when it is a promise. */
export function thenNow<T, U>(value: Eventually<T>, f: (value: T) => Eventually<U>): Eventually<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
