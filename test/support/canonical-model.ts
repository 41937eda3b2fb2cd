/**
 * A normalized model as plain, comparable data: sources removed (they name files and lines,
 * which differ between a decorated class and its XML twin, and between runtimes), Maps turned
 * into objects in their order, plain objects' keys sorted.
 */
export function canonical(value: unknown): unknown {
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k)] = canonical(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) if (k !== "source") out[k] = canonical((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}
