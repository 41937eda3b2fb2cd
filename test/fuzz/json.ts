/**
 * JSON values for generated bodies, including what `JSON.stringify` cannot write: `-0`, `1e999`,
 * 10 000 levels of nesting, malformed text. Such pieces are `Raw` text placed verbatim, and they
 * print as a short label in fast-check's counterexamples (a 20 000-character bracket run would
 * drown the report).
 */
import fc from "fast-check";

/** `arb`'s value with probability `p`, else undefined (fc.option's `freq` reads the other way round). */
export function sometimes<T>(arb: fc.Arbitrary<T>, p: number): fc.Arbitrary<T | undefined> {
  const weight = Math.round(p * 100);
  return fc.oneof({ weight, arbitrary: arb }, { weight: 100 - weight, arbitrary: fc.constant(undefined) });
}

export class Raw {
  constructor(
    readonly text: string,
    readonly label: string,
  ) {}
  [fc.toStringMethod](): string {
    return `Raw(${this.label})`;
  }
}

/** JSON text of a generated value; own keys such as `__proto__` are written like any other. */
export function jsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Long) return JSON.stringify(value.value);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Long text shown short: for long strings and keys in counterexamples. */
export class Long {
  constructor(readonly value: string) {}
  toJSON(): string {
    return this.value;
  }
  [fc.toStringMethod](): string {
    return `Long(${this.value.length} × ${JSON.stringify(this.value.slice(0, 8))})`;
  }
}

const rawNumbers = fc
  .constantFrom(
    "-0",
    "-0.0",
    "1e999",
    "-1e999",
    "1e-999",
    "123456789012345678901234567890",
    "0.1e1",
    "1E2",
    "9007199254740993",
    "-9007199254740993",
    "4.9e-324",
    "1.7976931348623157e308",
  )
  .map((t) => new Raw(t, t));

/** Nesting far deeper than any object graph: arrays or objects, well-formed or left open. */
export const deepNesting = fc
  .tuple(fc.integer({ min: 65, max: 20_000 }), fc.constantFrom("array", "object", "open-array", "open-object", "mixed"))
  .map(([n, shape]) => {
    const text =
      shape === "array"
        ? "[".repeat(n) + "]".repeat(n)
        : shape === "object"
          ? '{"a":'.repeat(n) + "1" + "}".repeat(n)
          : shape === "open-array"
            ? "[".repeat(n)
            : shape === "open-object"
              ? '{"a":'.repeat(n)
              : '[{"a":'.repeat(n) + "0" + "}]".repeat(n);
    return new Raw(text, `${shape} nested ${n} deep`);
  });

const nastyStrings = fc.constantFrom(
  "",
  " ",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e999",
  "null",
  "true",
  "0x10",
  "1_000",
  "٣",
  "１",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "2024-02-30",
  "2024-01-01T25:00:00Z",
  "+275760-09-13T00:00:00Z",
  "-271821-04-19T00:00:00Z",
  "99:99",
  "23:59:59.999999999",
  "1970-01-01",
  "FICTION",
  "fiction",
  "eHl6",
  "not base64!",
  "'; DROP TABLE ITEM; --",
  "\u202e",
  "𝕏",
  "\r\n",
  "\\",
  '"',
);

const longStrings = fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.constantFrom("x", "é", "𝕏", '"', "\\")).map(([n, ch]) => new Long(ch.repeat(n)));

const primitives = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);

/** A value of any type, mostly the wrong one wherever it lands. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: primitives },
  { weight: 2, arbitrary: rawNumbers },
  { weight: 2, arbitrary: nastyStrings },
  { weight: 1, arbitrary: longStrings },
  { weight: 1, arbitrary: deepNesting },
  { weight: 2, arbitrary: fc.array(primitives, { maxLength: 3 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), primitives, { maxKeys: 3 }) },
);

/** Field names no class has, and near misses of real ones. */
export const unknownName = fc.oneof(
  fc.constantFrom(
    "bogus",
    "__proto__",
    "constructor",
    "toString",
    "_id",
    "id",
    "class ",
    "Name",
    "TITLE",
    "",
    "title\u0000",
    "works.title",
    "/name",
    "0",
    "_version ",
    "$ref",
  ),
  fc.string({ maxLength: 8 }),
);
