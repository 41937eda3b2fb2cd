/**
 * A handler over the sample model with access rules, and its principals' tokens (HS256), for the
 * access control tests: requests as a named principal, and the library's objects written as an
 * administrator that may do everything.
 */
import assert from "node:assert/strict";
import type { PersistenceContext } from "../../src/config/context.ts";
import { resolveContext } from "../../src/config/resolve-context.ts";
import { createRestHandler, type RestHandler } from "../../src/handler.ts";
import { loadConfigDir } from "../../src/runtime/load-config-dir.ts";
import type { Store } from "../../src/store/store.ts";
import { hs256 } from "./tokens.ts";

const SCHEMA = new URL("../../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
export const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
export const P = "org.extent.sample.";

export const grant = (role: string, where?: string) => (where ? { role, where } : { role });

/** The principals: an administrator (every grant the rules give `admin`), staff, two members, and members with missing or hostile claims. */
const CLAIMS: Record<string, Record<string, unknown>> = {
  admin: { sub: "root", roles: ["admin", "staff"] },
  staff: { sub: "sam", roles: "staff" },
  ann: { sub: "ann", roles: ["member"], email: "ann@x.org" },
  bob: { sub: "bob", roles: ["member"], email: "bob@x.org" },
  noEmail: { sub: "eve", roles: ["member"] },
  sneaky: { sub: "mal", roles: ["member"], email: "x' OR '1'='1" },
};

export interface AccessFixture {
  handler: RestHandler;
  call(method: string, path: string, who?: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The answer's JSON, asserting a 2xx. */
  json(method: string, path: string, who?: string, body?: unknown): Promise<any>;
  close(): void;
}

export async function accessFixture(
  rules: unknown,
  options: { serverTiming?: boolean; store?: Store; firstPageSize?: number; pageSize?: number } = {},
): Promise<AccessFixture> {
  const context: PersistenceContext = { ...sample, url: ":memory:", access: { jwt: { secret: SECRET }, anonymousRole: "guest", rules } };
  const handler = createRestHandler({ context, ...options });
  await handler.ready;
  const tokens = Object.fromEntries(await Promise.all(Object.entries(CLAIMS).map(async ([who, claims]) => [who, await hs256(claims, SECRET)])));
  const call = (method: string, path: string, who?: string, body?: unknown, extra: Record<string, string> = {}) => {
    const headers: Record<string, string> = { ...extra };
    if (who) headers.authorization = `Bearer ${tokens[who]}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    return handler.fetch(new Request(`http://x${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  };
  const json = async (method: string, path: string, who?: string, body?: unknown) => {
    const r = await call(method, path, who, body);
    const text = await r.text();
    assert.ok(r.status < 300, `${method} ${path} as ${who ?? "anonymous"}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { handler, call, json, close: () => handler.close() };
}

/**
 * The library: authors Ursula and "Hidden Author"; books Short (100 pages, 10), Long (900, 10),
 * Dear (200, 80), Secret (300, 20, by the hidden author); magazines Cheap (5) and "Dear mag" (90);
 * members Ann (borrowed Short, Long) and Bob (Dear); shelf s1 "front" (Short, Long, Dear).
 * Returns the books' ids by title.
 */
export async function seedLibrary(f: AccessFixture): Promise<Record<string, number>> {
  const author = await f.json("POST", `/${P}Author`, "admin", { name: "Ursula" });
  const hidden = await f.json("POST", `/${P}Author`, "admin", { name: "Hidden Author" });
  const book = (title: string, pages: number, price: number, by = author) => ({ class: `${P}Book`, title, pages, price, author: { _id: by._id } });
  for (const b of [book("Short", 100, 10), book("Long", 900, 10), book("Dear", 200, 80), book("Secret", 300, 20, hidden)])
    await f.json("POST", `/${P}Book`, "admin", b);
  await f.json("POST", `/${P}Magazine`, "admin", { title: "Cheap", issue: 1, price: 5 });
  await f.json("POST", `/${P}Magazine`, "admin", { title: "Dear mag", issue: 2, price: 90 });
  const books: { id: number; title: string }[] = await f.json("GET", `/${P}Book`, "admin");
  const id = Object.fromEntries(books.map((b) => [b.title, b.id]));
  await f.json("POST", `/${P}Member`, "admin", { email: "ann@x.org", name: "Ann", borrowed: [{ id: id.Short }, { id: id.Long }] });
  await f.json("POST", `/${P}Member`, "admin", { email: "bob@x.org", name: "Bob", borrowed: [{ id: id.Dear }] });
  await f.json("POST", `/${P}Shelf`, "admin", { code: "s1", label: "front", items: [{ id: id.Short }, { id: id.Long }, { id: id.Dear }] });
  return id;
}
