/**
 * JDOQL and JPQL texts over the sample model, following grammar/jdoql.peggy and grammar/jpql.peggy
 * (SELECT / FROM / WHERE / GROUP BY / HAVING / ORDER BY / RANGE, navigation, methods, subqueries,
 * parameters, bulk statements), typed loosely so that most texts bind and run, then mutated
 * (tokens dropped, repeated, swapped, replaced, cased wrong; characters inserted; text cut).
 *
 * A text is a list of tokens (a `Frag`) so mutations work on meaningful units, with the
 * parameters it uses and their types, so that `params=` can be generated to fit (or not).
 */
import fc from "fast-check";
import { hostile, jsonText, sometimes } from "./json.ts";
import { CLASSES, EXISTING_KEYS, type FieldKind, GENRES, MISSING_KEYS, PKG, SIMPLE_NAMES, type Simple, keyObject } from "./model.ts";

export type ParamType = "num" | "str" | "date" | "enum" | "bool" | "strs" | "nums" | { entity: Simple };
export interface ParamUse {
  /** `:name` → "name"; `?1` → 1. */
  key: string | number;
  type: ParamType;
}
export interface Frag {
  tokens: string[];
  params: ParamUse[];
}

const frag = (...parts: (string | Frag)[]): Frag => ({
  tokens: parts.flatMap((p) => (typeof p === "string" ? [p] : p.tokens)),
  params: parts.flatMap((p) => (typeof p === "string" ? [] : p.params)),
});
const EMPTY: Frag = { tokens: [], params: [] };
const text = (f: Frag): string => f.tokens.join(" ");
/** `arb` with probability `p`, else nothing. */
const opt = (arb: fc.Arbitrary<Frag>, p: number): fc.Arbitrary<Frag> => sometimes(arb, p).map((f) => f ?? EMPTY);
const lit = (...words: string[]): fc.Arbitrary<Frag> => fc.constantFrom(...words).map((w) => frag(w));
/** A fixed text that names numeric parameters (`:min`, `?1`), so that `params=` can fit it. */
const withNums = (text: string): Frag => ({
  tokens: [text],
  params: [...text.matchAll(/[:?](\w+)/g)].map(([, k]) => ({ key: /^\d+$/.test(k!) ? Number(k) : k!, type: "num" as const })),
});
/** A comma-separated list of 1..max frags. */
const list = (arb: fc.Arbitrary<Frag>, max: number): fc.Arbitrary<Frag> =>
  fc.array(arb, { minLength: 1, maxLength: max }).map((items) => frag(...items.flatMap((f, i) => (i ? [",", f] : [f]))));

// --- What a query can name: paths of the sample classes, by type ---------------------------------

type Scalar = "num" | "str" | "date" | "enum";
interface Scope {
  id: string;
  scalars: Record<Scalar, string[]>;
  refs: { path: string; cls: Simple }[];
  /** Collections of related objects (contains / MEMBER OF / JOIN). */
  many: { path: string; cls: Simple }[];
  strings: string[];
  maps: string[];
}

function scalarOf(kind: FieldKind): Scalar | undefined {
  if (typeof kind !== "string") return undefined;
  if (kind === "string" || kind === "uuid") return "str";
  if (kind === "int" || kind === "long" || kind === "decimal") return "num";
  if (kind === "date" || kind === "localdate" || kind === "instant") return "date";
  return kind === "enum" ? "enum" : undefined;
}

/** The paths of class `c` under `prefix` ("this.", "", "e."), navigating one reference deep. */
function scopeOf(c: Simple, prefix: string, navigate = true): Scope {
  const scope: Scope = { id: `${c}:${prefix}`, scalars: { num: [], str: [], date: [], enum: [] }, refs: [], many: [], strings: [], maps: [] };
  const fields = { ...CLASSES[c].key, ...CLASSES[c].fields };
  delete (fields as Record<string, FieldKind>)._id; // datastore identity: no field
  for (const [name, kind] of Object.entries(fields)) {
    const path = prefix + name;
    const scalar = scalarOf(kind);
    if (scalar) scope.scalars[scalar].push(path);
    else if (kind === "strings") scope.strings.push(path);
    else if (kind === "map") scope.maps.push(path);
    else if (kind === "address") scope.scalars.str.push(`${path}.street`, `${path}.city`, `${path}.country`);
    else if (kind === "categoryKey")
      scope.refs.push({ path, cls: "Category" }); // the ancestor's key: compared like a reference
    else if (typeof kind === "object" && "many" in kind) scope.many.push({ path, cls: kind.many });
    else if (typeof kind === "object" && "ref" in kind) {
      scope.refs.push({ path, cls: kind.ref });
      if (navigate) {
        const inner = scopeOf(kind.ref, `${path}.`, false);
        for (const s of Object.keys(inner.scalars) as Scalar[]) scope.scalars[s].push(...inner.scalars[s]);
      }
    }
  }
  return scope;
}

/** The scope's paths of a scalar type, if it has any. */
const pathOf = (scope: Scope, type: Scalar): fc.Arbitrary<Frag> | undefined =>
  scope.scalars[type].length ? fc.constantFrom(...scope.scalars[type]).map((p) => frag(p)) : undefined;

// --- Parameters and literals ---------------------------------------------------------------------

// Names of Object.prototype's members too: a value must not be found there.
const NAMES = ["p", "q", "min", "name", "x1", "p", "q", "constructor", "toString", "__proto__"];
/** `:name` (named) or, rarely since a query cannot mix the two, `?1` (positional). */
const param = (type: ParamType): fc.Arbitrary<Frag> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...NAMES).map((n) => ({ tokens: [`:${n}`], params: [{ key: n, type }] })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }).map((i) => ({ tokens: [`?${i}`], params: [{ key: i, type }] })) },
  );
/** `f` with `suffix` written right after its last token (`:p` + `.contains(` → `:p.contains(`). */
const glue = (f: Frag, suffix: string): Frag => ({ tokens: [...f.tokens.slice(0, -1), f.tokens[f.tokens.length - 1] + suffix], params: f.params });

/** A JDOQL string literal in either quote, escaped as Java escapes. */
const stringLiteral = (quote: "'" | '"') =>
  fc
    .oneof(fc.constantFrom("Cosmos", "The", "Ada", "", "%", "_", "x'y", "genre", "FICTION"), fc.string({ maxLength: 6 }))
    .map((s) => frag(quote + s.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`) + quote));
/** A JPQL string literal: single quotes, a quote doubled. */
const jpqlString = fc
  .oneof(
    fc.constantFrom("Cosmos", "The%", "%a%", "", "x''y", "genre"),
    fc.string({ maxLength: 6 }).map((s) => s.replaceAll("'", "''")),
  )
  .map((s) => frag(`'${s}'`));
const numberLiteral = fc.oneof(
  fc.integer({ min: -5, max: 500 }).map(String),
  fc.constantFrom("0", "1.5", "2.5e2", "1e308", "9223372036854775807", "99999999999999999999", "0.0", "100L", "3f", ".5"),
);

// --- JDOQL ---------------------------------------------------------------------------------------

/** Arbitraries by scope, type and depth, built once: the grammar's recursion would rebuild them exponentially. */
const memos = new Map<string, fc.Arbitrary<Frag>>();
const memo = (key: string, build: () => fc.Arbitrary<Frag>): fc.Arbitrary<Frag> => {
  let arb = memos.get(key);
  if (!arb) memos.set(key, (arb = build()));
  return arb;
};

const JDOQL_CMP = ["==", "!=", "<", "<=", ">", ">="];

function jdoqlValue(scope: Scope, type: Scalar, depth: number): fc.Arbitrary<Frag> {
  return memo(`jdoql:${scope.id}:${type}:${depth}`, () => {
    const leaves: fc.Arbitrary<Frag>[] = [param(type)];
    const path = pathOf(scope, type);
    if (path) leaves.push(path, path);
    if (type === "num") leaves.push(numberLiteral.map((n) => frag(n)));
    if (type === "str") leaves.push(stringLiteral("'"), stringLiteral('"'));
    if (type === "date") leaves.push(fc.integer({ min: -1e12, max: 4e12 }).map((n) => frag(String(n))));
    if (type === "enum") leaves.push(fc.constantFrom(...GENRES).map((g) => frag(`'${g}'`)));
    if (depth >= 2) return fc.oneof(...leaves);
    const sub = (t: Scalar) => jdoqlValue(scope, t, depth + 1);
    const composite: fc.Arbitrary<Frag>[] = [];
    if (type === "num") {
      composite.push(
        fc.tuple(sub("num"), fc.constantFrom("+", "-", "*", "/", "%"), sub("num")).map(([a, op, b]) => frag("(", a, op, b, ")")),
        fc
          .tuple(
            fc.constantFrom("Math.abs(", "Math.sqrt(", "Math.floor(", "Math.ceil(", "Math.exp(", "Math.log(", "Math.asin(", "Math.acos(", "Math.sin("),
            sub("num"),
          )
          .map(([f, a]) => frag(f, a, ")")),
        sub("str").map((s) => frag("(", s, ").length()")),
        fc.tuple(sub("str"), stringLiteral("'")).map(([s, x]) => frag("(", s, ").indexOf(", x, ")")),
        sub("date").map((d) => frag("(", d, ").getYear()")),
        fc.constantFrom(...[...scope.strings, ...scope.maps, ...scope.many.map((m) => m.path)], "this.nope").map((p) => frag(`${p}.size()`)),
        fc.constantFrom(...scope.scalars.enum, "this.nope").map((p) => frag(`${p}.ordinal()`)),
        sub("num").map((a) => frag("(int)", a)),
        fc.tuple(jdoqlBool(scope, depth + 1), sub("num"), sub("num")).map(([c, a, b]) => frag("IF (", c, ")", a, "ELSE", b)),
      );
      const book = scopeOf("Book", "b.");
      composite.push(
        lit(
          "(SELECT avg(b.pages) FROM org.extent.sample.Book b)",
          "(SELECT count(b) FROM org.extent.sample.Book b WHERE b.author == this.author)",
          "(SELECT max(b.price) FROM org.extent.sample.Item b)",
        ),
      );
      if (depth === 0) composite.push(jdoqlBool(book, 1).map((w) => frag("(SELECT count(b) FROM org.extent.sample.Book b WHERE", w, ")")));
    }
    if (type === "str") {
      composite.push(
        fc
          .tuple(sub("str"), fc.constantFrom(".toUpperCase()", ".toLowerCase()", ".trim()", ".substring(1)", ".substring(0, 2)", ".charAt(0)"))
          .map(([s, m]) => frag("(", s, `)${m}`)),
        fc.tuple(sub("str"), sub("str")).map(([a, b]) => frag(a, "+", b)),
        fc.constantFrom(...scope.scalars.enum, "this.nope").map((p) => frag(`${p}.toString()`)),
        fc.tuple(fc.constantFrom(...scope.maps, "this.phones"), stringLiteral("'")).map(([m, k]) => frag(`${m}.get(`, k, ")")),
        fc.constantFrom(...scope.strings, "this.tags").map((p) => frag(`${p}.get(0)`)),
      );
    }
    if (!composite.length) return fc.oneof(...leaves);
    return fc.oneof({ weight: 3, arbitrary: fc.oneof(...leaves) }, { weight: 1, arbitrary: fc.oneof(...composite) });
  });
}

function jdoqlBool(scope: Scope, depth: number): fc.Arbitrary<Frag> {
  return memo(`jdoql:${scope.id}:bool:${depth}`, () => {
    const v = (t: Scalar) => jdoqlValue(scope, t, depth + 1);
    const compare = (t: Scalar) => fc.tuple(v(t), fc.constantFrom(...JDOQL_CMP), v(t)).map(([a, op, b]) => frag(a, op, b));
    const leaves: fc.Arbitrary<Frag>[] = [
      compare("num"),
      compare("num"),
      compare("str"),
      compare("date"),
      compare("enum"),
      fc
        .tuple(v("str"), fc.constantFrom("startsWith", "endsWith", "matches", "equals", "contains", "equalsIgnoreCase"), v("str"))
        .map(([s, m, a]) => frag("(", s, `).${m}(`, a, ")")),
      lit(
        "true",
        "false",
        "this instanceof org.extent.sample.Book",
        "this instanceof org.extent.sample.Author",
        "((org.extent.sample.Book) this).pages > 100",
        "JDOHelper.getObjectId(this) != null",
        "JDOHelper.getVersion(this) == 1",
      ),
      // Rarer forms: the candidate as a parameter, bit operators, casts, parameter keys and indexes.
      fc
        .constantFrom(
          "this == :p",
          ":p.contains(this)",
          "JDOHelper.getObjectId(this) == :p",
          "this.phones.get(:p) == 'x'",
          "this.tags.get(:p) != null",
          "(~ :p) == 1",
          "(:p & 1) == 1",
          "(String) :p == 'x'",
          "(long) :p > 1",
          ":p instanceof org.extent.sample.Book",
        )
        .map(withNums),
    ];
    if (scope.refs.length)
      leaves.push(fc.tuple(fc.constantFrom(...scope.refs.map((r) => r.path)), fc.constantFrom("==", "!=")).map(([p, op]) => frag(p, op, "null")));
    for (const r of scope.refs) leaves.push(param({ entity: r.cls }).map((p) => frag(r.path, "==", p)));
    if (scope.strings.length) {
      leaves.push(fc.tuple(fc.constantFrom(...scope.strings), v("str")).map(([c, s]) => frag(`${c}.contains(`, s, ")")));
      leaves.push(fc.constantFrom(...scope.strings).map((c) => frag(`${c}.isEmpty()`)));
      leaves.push(fc.tuple(param("strs"), v("str")).map(([p, s]) => frag(glue(p, ".contains("), s, ")")));
    }
    if (scope.maps.length)
      leaves.push(
        fc.tuple(fc.constantFrom(...scope.maps), fc.constantFrom("containsKey", "containsValue"), v("str")).map(([m, f, s]) => frag(`${m}.${f}(`, s, ")")),
      );
    leaves.push(fc.tuple(param("nums"), v("num")).map(([p, n]) => frag(glue(p, ".contains("), n, ")")));
    if (depth >= 2) return fc.oneof(...leaves);
    const sub = jdoqlBool(scope, depth + 1);
    const composite: fc.Arbitrary<Frag>[] = [
      fc.tuple(sub, fc.constantFrom("&&", "||", "&", "|"), sub).map(([a, op, b]) => frag(a, op, b)),
      sub.map((a) => frag("!(", a, ")")),
      sub.map((a) => frag("(", a, ")")),
    ];
    // `coll.contains(v) && <condition on v>`: an implicit variable over a collection of objects.
    for (const m of scope.many) {
      const name = `v${depth}`; // distinct from the variables of enclosing conditions
      composite.push(jdoqlBool(scopeOf(m.cls, `${name}.`, false), depth + 1).map((cond) => frag(`${m.path}.contains(${name})`, "&&", cond)));
      composite.push(lit(`${m.path}.isEmpty()`, `!${m.path}.isEmpty()`, `${m.path}.size() > 1`));
    }
    return fc.oneof({ weight: 3, arbitrary: fc.oneof(...leaves) }, { weight: 2, arbitrary: fc.oneof(...composite) });
  });
}

/** The `filter=` of `GET /{class}`: a JDOQL expression over the class's fields. */
export function jdoqlFilter(c: Simple): fc.Arbitrary<Frag> {
  return fc.constantFrom("this.", "").chain((prefix) => jdoqlBool(scopeOf(c, prefix), 0));
}

const kw = (word: string) => fc.constantFrom(word.toUpperCase(), word.toLowerCase()); // JDOQL: all upper or all lower
const kws = (...words: string[]) => fc.tuple(...words.map(kw)).map((w) => frag(...w));

/** A single-string JDOQL query, or a bulk statement that GET must refuse with 405. */
export const jdoqlQuery: fc.Arbitrary<Frag> = fc.constantFrom(...SIMPLE_NAMES).chain((c) => {
  const scope = scopeOf(c, "this.");
  const cls = `${PKG}.${c}`;
  const where = jdoqlBool(scope, 0);
  const sortable = [...scope.scalars.num, ...scope.scalars.str, ...scope.scalars.date];
  const orderItem = fc
    .tuple(fc.constantFrom(...sortable), fc.constantFrom("", "asc", "DESC", "ascending", "descending"), fc.constantFrom("", "", "NULLS FIRST", "nulls last"))
    .map(([p, d, n]) => frag(p, ...[d, n].filter(Boolean)));
  // Plain values and aggregates apart: without GROUP BY a result may not mix them.
  const plainItem = fc.oneof(
    lit("this", "JDOHelper.getObjectId(this)", "JDOHelper.getVersion(this)"),
    fc.constantFrom(...sortable).map((p) => frag(p)),
    fc.tuple(fc.constantFrom(...sortable), fc.constantFrom("a", "b", "total")).map(([p, a]) => frag(p, "AS", a)),
    ...(scope.refs.length ? [fc.constantFrom(...scope.refs.map((r) => r.path)).map((p) => frag(p))] : []),
  );
  const aggregate = fc.oneof(
    lit("count(this)"),
    fc.tuple(fc.constantFrom("min", "max", "count"), fc.constantFrom("", "distinct "), fc.constantFrom(...sortable)).map(([f, d, p]) => frag(`${f}(${d}${p})`)),
    ...(scope.scalars.num.length ? [fc.tuple(fc.constantFrom("sum", "avg"), fc.constantFrom(...scope.scalars.num)).map(([f, p]) => frag(`${f}(${p})`))] : []),
  );
  const resultItems = fc.oneof(
    { weight: 3, arbitrary: list(plainItem, 3) },
    { weight: 1, arbitrary: list(aggregate, 2) },
    { weight: 1, arbitrary: list(fc.oneof(plainItem, aggregate), 3) },
  );
  const grouped = fc.constantFrom(...sortable).chain((g) =>
    fc
      .tuple(
        opt(
          fc.tuple(kw("having"), fc.constantFrom("count(this) > 1", "count(this) >= :min", `max(${g}) != null`).map(withNums)).map(([h, x]) => frag(h, x)),
          0.5,
        ),
        fc.constantFrom("", "desc"),
      )
      .map(([having, d]) => ({
        result: frag(g, ",", "count(this)"),
        group: frag("GROUP", "BY", g, having),
        order: frag("ORDER", "BY", g, ...(d ? [d] : [])),
      })),
  );
  const select = fc.record({
    head: kws("select"),
    unique: opt(kws("unique"), 0.15),
    distinct: opt(kws("distinct"), 0.2),
    items: opt(resultItems, 0.6),
    into: opt(lit("INTO java.util.Map", "INTO org.extent.sample.Nope"), 0.05),
    from: kws("from"),
    exclude: opt(kws("exclude", "subclasses"), 0.1),
    where: opt(
      fc.tuple(kws("where"), where).map(([w, e]) => frag(w, e)),
      0.85,
    ),
    variables: opt(lit("VARIABLES org.extent.sample.Book v0", "VARIABLES org.extent.sample.Item v1; org.extent.sample.Book v2", "variables Nope v9"), 0.05),
    parameters: opt(lit("PARAMETERS int p", "PARAMETERS String p, long q", "parameters java.util.Collection p"), 0.05),
    imports: opt(lit("import org.extent.sample.*;", "import org.extent.sample.Book;", "IMPORT java.util.Date;"), 0.08),
    grouping: sometimes(grouped, 0.15),
    order: opt(
      fc.tuple(kws("order", "by"), list(orderItem, 2)).map(([o, l]) => frag(o, l)),
      0.4,
    ),
    range: opt(
      fc
        .tuple(
          kw("range"),
          fc
            .constantFrom("0, 2", "1, 1", "5, 1", "0, 99999999999999999999", "-1, 2", ":min, :p", "?1, ?2", "0, 9223372036854775807", "0.5, 1e300")
            .map(withNums),
        )
        .map(([r, x]) => frag(r, x)),
      0.25,
    ),
  });
  const query = select.map((s) =>
    frag(
      s.head,
      s.unique,
      s.grouping ? frag(s.distinct, s.grouping.result) : frag(s.distinct, s.items),
      s.into,
      s.from,
      cls,
      s.exclude,
      s.where,
      s.variables,
      s.parameters,
      s.imports,
      s.grouping ? s.grouping.group : EMPTY,
      s.grouping ? s.grouping.order : s.order,
      s.range,
    ),
  );
  const bulk = fc.oneof(
    fc
      .tuple(
        kws("delete", "from"),
        opt(
          fc.tuple(kws("where"), where).map(([w, e]) => frag(w, e)),
          0.7,
        ),
      )
      .map(([d, w]) => frag(d, cls, w)),
    fc
      .tuple(
        kws("update"),
        jdoqlValue(scope, "str", 1),
        opt(
          fc.tuple(kws("where"), where).map(([w, e]) => frag(w, e)),
          0.7,
        ),
      )
      .map(([u, v, w]) => frag(u, cls, "SET", `this.${Object.keys(CLASSES[c].fields)[0]}`, "=", v, w)),
  );
  return fc.oneof({ weight: 12, arbitrary: query }, { weight: 1, arbitrary: bulk });
});

// --- JPQL ----------------------------------------------------------------------------------------

const JPQL_CMP = ["=", "<>", "<", "<=", ">", ">="];

function jpqlValue(scope: Scope, type: Scalar, depth: number): fc.Arbitrary<Frag> {
  return memo(`jpql:${scope.id}:${type}:${depth}`, () => {
    const leaves: fc.Arbitrary<Frag>[] = [param(type)];
    const path = pathOf(scope, type);
    if (path) leaves.push(path, path);
    if (type === "num") leaves.push(numberLiteral.map((n) => frag(n)));
    if (type === "str") leaves.push(jpqlString);
    if (type === "date") leaves.push(lit("CURRENT_DATE", "CURRENT_TIMESTAMP", "{d '2024-01-01'}", "{ts '2024-01-01 10:00:00'}"));
    if (type === "enum") leaves.push(lit("'FICTION'", "org.extent.sample.Genre.FICTION"));
    if (depth >= 2) return fc.oneof(...leaves);
    const sub = (t: Scalar) => jpqlValue(scope, t, depth + 1);
    const composite: fc.Arbitrary<Frag>[] = [];
    if (type === "num") {
      composite.push(
        fc.tuple(sub("num"), fc.constantFrom("+", "-", "*", "/"), sub("num")).map(([a, op, b]) => frag("(", a, op, b, ")")),
        fc
          .tuple(fc.constantFrom("ABS(", "SQRT(", "FLOOR(", "CEILING(", "SIGN(", "EXP(", "LN(", "-"), sub("num"))
          .map(([f, a]) => (f === "-" ? frag("-", a) : frag(f, a, ")"))),
        fc.tuple(fc.constantFrom("MOD(", "POWER(", "ROUND("), sub("num"), sub("num")).map(([f, a, b]) => frag(f, a, ",", b, ")")),
        sub("str").map((s) => frag("LENGTH(", s, ")")),
        fc.tuple(jpqlString, sub("str")).map(([a, s]) => frag("LOCATE(", a, ",", s, ")")),
        fc.tuple(fc.constantFrom("YEAR", "MONTH", "DAY", "HOUR", "WEEK", "QUARTER"), sub("date")).map(([f, d]) => frag("EXTRACT(", f, "FROM", d, ")")),
        fc.constantFrom(...[...scope.strings, ...scope.maps, ...scope.many.map((m) => m.path)], "e.nope").map((p) => frag(`SIZE(${p})`)),
        fc.tuple(jpqlBool(scope, depth + 1), sub("num"), sub("num")).map(([c, a, b]) => frag("CASE WHEN", c, "THEN", a, "ELSE", b, "END")),
        fc.tuple(sub("num"), sub("num")).map(([a, b]) => frag("COALESCE(", a, ",", b, ")")),
        fc.tuple(sub("num"), sub("num")).map(([a, b]) => frag("NULLIF(", a, ",", b, ")")),
        sub("str").map((s) => frag("CAST(", s, "AS INTEGER )")),
        lit(
          "(SELECT AVG(b.pages) FROM Book b)",
          "(SELECT COUNT(b) FROM Book b WHERE b.author = e.author)",
          "(SELECT MAX(i.price) FROM Item i)",
          "ID(e)",
          "VERSION(e)",
        ),
      );
    }
    if (type === "str") {
      composite.push(
        fc.tuple(fc.constantFrom("UPPER(", "LOWER(", "TRIM(", "TRIM(LEADING 'x' FROM"), sub("str")).map(([f, s]) => frag(f, s, ")")),
        fc.tuple(sub("str"), sub("str")).map(([a, b]) => frag("CONCAT(", a, ",", b, ")")),
        fc.tuple(sub("str"), sub("str")).map(([a, b]) => frag(a, "||", b)),
        fc.tuple(sub("str"), sub("num")).map(([s, n]) => frag("SUBSTRING(", s, ",", n, ")")),
        fc.tuple(sub("str"), fc.constantFrom("1, 2", "0", "2, -1")).map(([s, n]) => frag("SUBSTRING(", s, ",", n, ")")),
        fc.tuple(fc.constantFrom("LEFT(", "RIGHT("), sub("str")).map(([f, s]) => frag(f, s, ", 2 )")),
        sub("str").map((s) => frag("REPLACE(", s, ", 'a', 'b' )")),
        lit("TYPE(e)", "CAST(e.id AS STRING)"),
      );
    }
    if (!composite.length) return fc.oneof(...leaves);
    return fc.oneof({ weight: 3, arbitrary: fc.oneof(...leaves) }, { weight: 1, arbitrary: fc.oneof(...composite) });
  });
}

function jpqlBool(scope: Scope, depth: number): fc.Arbitrary<Frag> {
  return memo(`jpql:${scope.id}:bool:${depth}`, () => {
    const v = (t: Scalar) => jpqlValue(scope, t, depth + 1);
    const compare = (t: Scalar) => fc.tuple(v(t), fc.constantFrom(...JPQL_CMP), v(t)).map(([a, op, b]) => frag(a, op, b));
    const leaves: fc.Arbitrary<Frag>[] = [
      compare("num"),
      compare("num"),
      compare("str"),
      compare("date"),
      compare("enum"),
      fc
        .tuple(v("str"), fc.constantFrom("LIKE", "NOT LIKE"), fc.oneof(jpqlString, param("str")), fc.constantFrom("", "", "ESCAPE '\\'", "ESCAPE 'xy'"))
        .map(([s, op, p, e]) => frag(s, op, p, ...(e ? [e] : []))),
      fc.tuple(v("num"), fc.constantFrom("BETWEEN", "NOT BETWEEN"), v("num"), v("num")).map(([a, op, b, c]) => frag(a, op, b, "AND", c)),
      fc
        .tuple(v("num"), fc.constantFrom("IN", "NOT IN"), fc.oneof(lit("(1, 2, 3)", "(0)", "(SELECT b.id FROM Book b)"), param("nums")))
        .map(([a, op, l]) => frag(a, op, l)),
      fc.tuple(v("str"), fc.constantFrom("IS NULL", "IS NOT NULL")).map(([s, x]) => frag(s, x)),
      lit(
        "TYPE(e) = Book",
        "TYPE(e) IN (Book, Magazine)",
        "TRUE",
        "FALSE",
        "e IS NOT NULL",
        "EXISTS (SELECT b FROM Book b WHERE b.author IS NOT NULL)",
        "e.id > ALL (SELECT b.id FROM Book b WHERE b.pages > 1000)",
      ),
      // Rarer forms: the candidate and its class as parameters, parameters inside subqueries and functions.
      fc
        .constantFrom(
          "e = :p",
          "e <> :p",
          ":p MEMBER OF e.works",
          "TYPE(e) = :p",
          "TYPE(e) IN :p",
          "e.id IN (SELECT b.id FROM Book b WHERE b.pages > :p)",
          "COALESCE(:p, :q) = 1",
          "CASE WHEN :p = 1 THEN TRUE ELSE FALSE END",
          "NULLIF(:p, :p) IS NULL",
          "ABS(:p) > 1",
          "KEY(:p) = 1",
        )
        .map(withNums),
    ];
    for (const r of scope.refs)
      leaves.push(
        fc
          .tuple(fc.constantFrom("IS NULL", "IS NOT NULL", "= :p"), fc.constant(r))
          .map(([x, ref]) => (x === "= :p" ? frag(ref.path, "=", { tokens: [":p"], params: [{ key: "p", type: { entity: ref.cls } }] }) : frag(ref.path, x))),
      );
    for (const m of [...scope.many.map((x) => x.path), ...scope.strings, ...scope.maps]) leaves.push(lit(`${m} IS EMPTY`, `${m} IS NOT EMPTY`));
    for (const s of scope.strings) leaves.push(fc.tuple(v("str"), fc.constantFrom("MEMBER OF", "NOT MEMBER OF")).map(([x, op]) => frag(x, op, s)));
    if (depth >= 2) return fc.oneof(...leaves);
    const sub = jpqlBool(scope, depth + 1);
    const composite = [
      fc.tuple(sub, fc.constantFrom("AND", "OR", "and", "Or"), sub).map(([a, op, b]) => frag(a, op, b)),
      sub.map((a) => frag("NOT (", a, ")")),
      sub.map((a) => frag("(", a, ")")),
    ];
    return fc.oneof({ weight: 3, arbitrary: fc.oneof(...leaves) }, { weight: 2, arbitrary: fc.oneof(...composite) });
  });
}

/** A JPQL statement: mostly SELECT, with joins, grouping, ordering, set operations; UPDATE/DELETE now and then (405). */
export const jpqlQuery: fc.Arbitrary<Frag> = fc.constantFrom(...SIMPLE_NAMES).chain((c) => {
  const e = scopeOf(c, "e.");
  const sortable = [...e.scalars.num, ...e.scalars.str, ...e.scalars.date];
  const joins = [
    ...e.many.map((m) => ({ text: `JOIN ${m.path} x`, cls: m.cls })),
    ...e.many.map((m) => ({ text: `LEFT JOIN ${m.path} x`, cls: m.cls })),
    ...e.refs.map((r) => ({ text: `JOIN ${r.path} x`, cls: r.cls })),
    ...e.refs.map((r) => ({ text: `JOIN FETCH ${r.path}`, cls: undefined })),
    ...e.maps.map((m) => ({ text: `JOIN ${m} x`, cls: undefined })),
    { text: ", Book x", cls: "Book" as Simple },
    { text: "JOIN Author x ON x.name = 'Ada'", cls: "Author" as Simple },
  ];
  const join = sometimes(fc.constantFrom(...joins), 0.5);
  return join.chain((j) => {
    // With a join variable, conditions and items may also name x's paths.
    const scope = j?.cls ? mergeScopes(e, scopeOf(j.cls, "x.", false)) : e;
    const where = jpqlBool(scope, 0);
    const plainItem = fc.oneof(
      lit(
        "e",
        "OBJECT(e)",
        "NEW org.extent.Dto(e.id)",
        ...(c === "Item" ? ["TREAT(e AS Book).pages"] : []),
        ...(j?.cls ? ["x"] : []),
        ...(j && !j.cls && j.text.includes(" x") ? ["KEY(x)", "VALUE(x)", "ENTRY(x)"] : []),
      ),
      fc.constantFrom(...sortable).map((p) => frag(p)),
      fc.tuple(jpqlValue(scope, "num", 1), fc.constantFrom("", "AS n", "total")).map(([x, a]) => frag(x, ...(a ? [a] : []))),
    );
    const nums = scope.scalars.num.length ? scope.scalars.num : sortable;
    const aggregate = fc.oneof(
      lit("COUNT(e)", "COUNT(DISTINCT e)"),
      fc
        .tuple(fc.constantFrom("MIN", "MAX", "COUNT"), fc.constantFrom("", "DISTINCT "), fc.constantFrom(...sortable))
        .map(([f, d, p]) => frag(`${f}(${d}${p})`)),
      fc.tuple(fc.constantFrom("SUM", "AVG"), fc.constantFrom(...nums)).map(([f, p]) => frag(`${f}(${p})`)),
    );
    // Plain values and aggregates apart: without GROUP BY a result may not mix them.
    const items = fc.oneof(
      { weight: 3, arbitrary: list(plainItem, 3) },
      { weight: 1, arbitrary: list(aggregate, 2) },
      { weight: 1, arbitrary: list(fc.oneof(plainItem, aggregate), 3) },
    );
    const orderItem = fc
      .tuple(fc.constantFrom(...sortable), fc.constantFrom("", "ASC", "DESC"), fc.constantFrom("", "", "NULLS FIRST", "NULLS LAST"))
      .map(([p, d, n]) => frag(p, ...[d, n].filter(Boolean)));
    const select = fc
      .record({
        distinct: opt(lit("DISTINCT"), 0.2),
        items,
        entity: fc.constantFrom(c, `${PKG}.${c}`),
        where: opt(
          where.map((w) => frag("WHERE", w)),
          0.8,
        ),
        group: sometimes(fc.constantFrom(...sortable), 0.15),
        having: opt(fc.constantFrom("HAVING COUNT(e) > 1", "HAVING COUNT(e) >= :min").map(withNums), 0.5),
        order: opt(
          list(orderItem, 2).map((l) => frag("ORDER BY", l)),
          0.4,
        ),
      })
      .map((s) =>
        s.group
          ? frag(
              "SELECT",
              s.distinct,
              `${s.group} , COUNT(e)`,
              "FROM",
              s.entity,
              "e",
              j?.text ?? "",
              s.where,
              "GROUP BY",
              s.group,
              s.having,
              "ORDER BY",
              s.group,
            )
          : frag("SELECT", s.distinct, s.items, "FROM", s.entity, "e", j?.text ?? "", s.where, s.order),
      )
      .map((f) => ({ ...f, tokens: f.tokens.filter((t) => t !== "") }));
    const statement = fc.oneof(
      { weight: 10, arbitrary: select },
      {
        weight: 1,
        arbitrary: fc.tuple(select, fc.constantFrom("UNION", "UNION ALL", "INTERSECT", "EXCEPT", "INTERSECT ALL"), select).map(([a, op, b]) => frag(a, op, b)),
      },
      {
        weight: 1,
        arbitrary: opt(
          where.map((w) => frag("WHERE", w)),
          0.7,
        ).map((w) => frag("DELETE FROM", c, "e", w)),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            jpqlValue(e, "str", 1),
            opt(
              where.map((w) => frag("WHERE", w)),
              0.7,
            ),
          )
          .map(([v, w]) => frag("UPDATE", c, "e SET", `e.${Object.keys(CLASSES[c].fields)[0]}`, "=", v, w)),
      },
    );
    return statement;
  });
});

function mergeScopes(a: Scope, b: Scope): Scope {
  const scalars = Object.fromEntries((Object.keys(a.scalars) as Scalar[]).map((k) => [k, [...a.scalars[k], ...b.scalars[k]]])) as Record<Scalar, string[]>;
  return {
    id: `${a.id}+${b.id}`,
    scalars,
    refs: [...a.refs, ...b.refs],
    many: [...a.many, ...b.many],
    strings: [...a.strings, ...b.strings],
    maps: [...a.maps, ...b.maps],
  };
}

// --- Mutations -----------------------------------------------------------------------------------

const NOISE = [
  "SELECT",
  "FROM",
  "WHERE",
  "ORDER",
  "BY",
  "GROUP",
  "HAVING",
  "RANGE",
  "UNIQUE",
  "DISTINCT",
  "AND",
  "OR",
  "NOT",
  "JOIN",
  "FETCH",
  "IN",
  "IS",
  "NULL",
  "LIKE",
  "(",
  ")",
  ",",
  ".",
  ";",
  "'",
  '"',
  "==",
  "=",
  "!",
  "&&",
  "||",
  "+",
  "-",
  "*",
  "/",
  "%",
  "?",
  ":",
  "?1",
  ":p",
  "{",
  "}",
  "[",
  "]",
  "\\",
  "`",
  "\u0000",
  "\n",
  "this",
  "e",
  "null",
  "1e999",
  "-",
  "--",
  "/*",
  "*/",
  "'; DROP TABLE ITEM; --",
  "UNION SELECT",
  "\u00e9",
  "𝕏",
  "\ud800",
];

type Mutation = { op: "drop" | "dup" | "swap" | "insert" | "replace" | "case" | "cut" | "char"; at: number; at2: number; noise: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom("drop", "dup", "swap", "insert", "replace", "case", "cut", "char"),
  at: fc.nat(),
  at2: fc.nat(),
  noise: fc.oneof(fc.constantFrom(...NOISE), fc.string({ unit: "binary", minLength: 1, maxLength: 3 })),
});

function mutate(tokens: string[], m: Mutation): string[] {
  const t = [...tokens];
  if (!t.length) return [m.noise];
  const i = m.at % t.length;
  const j = m.at2 % t.length;
  switch (m.op) {
    case "drop":
      t.splice(i, 1);
      break;
    case "dup":
      t.splice(i, 0, t[i]!);
      break;
    case "swap":
      [t[i], t[j]] = [t[j]!, t[i]!];
      break;
    case "insert":
      t.splice(i, 0, m.noise);
      break;
    case "replace":
      t[i] = m.noise;
      break;
    case "case":
      t[i] = m.at2 % 2 ? t[i]!.toLowerCase() : (t[i]![0] ?? "").toUpperCase() + t[i]!.slice(1).toLowerCase();
      break;
    case "cut":
      return text({ tokens: t, params: [] })
        .slice(0, m.at2 % (text({ tokens: t, params: [] }).length + 1))
        .split(" ");
    case "char":
      t[i] = t[i]!.slice(0, m.at2 % (t[i]!.length + 1)) + m.noise + t[i]!.slice(m.at2 % (t[i]!.length + 1));
      break;
  }
  return t;
}

/** A generated text, mutated in about a third of the cases (one to three mutations). */
export function mutated(arb: fc.Arbitrary<Frag>): fc.Arbitrary<{ text: string; params: ParamUse[]; mutations: number }> {
  return fc.tuple(arb, sometimes(fc.array(mutation, { minLength: 1, maxLength: 3 }), 0.35)).map(([f, ms]) => ({
    text: text({ tokens: (ms ?? []).reduce(mutate, f.tokens), params: [] }),
    params: f.params,
    mutations: ms?.length ?? 0,
  }));
}

/** Texts no grammar expects: deep nesting, long runs, garbage. */
export const hostileQueryText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 100, max: 5000 }).map((n) => "(".repeat(n) + "true" + ")".repeat(n)),
  fc.integer({ min: 100, max: 2000 }).map((n) => "!".repeat(n) + "true"),
  fc.integer({ min: 100, max: 2000 }).map((n) => Array.from({ length: n }, () => "this.title == 'x'").join(" || ")),
  fc.integer({ min: 1000, max: 50_000 }).map((n) => `this.title == '${"x".repeat(n)}'`),
  fc.string({ unit: "binary", maxLength: 40 }),
);

// --- Parameter values ----------------------------------------------------------------------------

function paramValue(type: ParamType): fc.Arbitrary<unknown> {
  const good: fc.Arbitrary<unknown> =
    type === "num"
      ? fc.oneof(fc.integer({ min: -5, max: 500 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant("x"))
      : type === "str"
        ? fc.oneof(fc.constantFrom("Cosmos", "The%", "A", "(?i)the.*", ".*", "[", "\\"), fc.string({ maxLength: 6 }))
        : type === "date"
          ? fc.oneof(fc.integer({ min: -1e12, max: 4e12 }), fc.constantFrom("2024-01-01", "1970-01-01T00:00:00Z", "yesterday"))
          : type === "enum"
            ? fc.constantFrom(...GENRES, "NOPE", 0, 7)
            : type === "bool"
              ? fc.boolean()
              : type === "strs"
                ? fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 })
                : type === "nums"
                  ? fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 4 })
                  : fc.constantFrom(...EXISTING_KEYS[type.entity], ...MISSING_KEYS[type.entity]).chain((k) => fc.constantFrom(k, keyObject(type.entity, k)));
  // null on its own too: every parameter may be null, and its derived placeholders must follow.
  return fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: hostile });
}

/**
 * `params=` for a text's parameters: fitting values as an object (named) or array (positional),
 * or the wrong shape, a missing or extra parameter, or text that is not JSON. Undefined: no params.
 */
export function paramsFor(uses: ParamUse[]): fc.Arbitrary<string | undefined> {
  const keys = [...new Map(uses.map((u) => [String(u.key), u])).values()];
  const values = fc.tuple(...keys.map((u) => paramValue(u.type)));
  const fitting = values.map((vs) => {
    const named = keys.some((k) => typeof k.key === "string");
    return named ? jsonText(Object.fromEntries(keys.map((k, i) => [String(k.key), vs[i]]))) : jsonText(vs);
  });
  return fc.oneof(
    { weight: keys.length ? 8 : 1, arbitrary: fitting },
    { weight: keys.length ? 1 : 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: values.map((vs) => jsonText([...vs, 1])) },
    { weight: 1, arbitrary: fc.tuple(fitting, fc.constantFrom("extra", "p", "1")).map(([t, k]) => t.replace(/^\{/, `{"${k}":1${t === "{}" ? "" : ","}`)) },
    { weight: 1, arbitrary: fc.constantFrom("", "{", "null", "1", '"x"', "[]", "{}", "[[[[", "%ZZ", '{"__proto__":{"p":1}}') },
    { weight: 1, arbitrary: hostile.map(jsonText) },
  );
}
