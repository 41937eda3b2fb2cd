/**
 * Authentication (issue 18, item 1; contract §8): Bearer JWTs signed here with WebCrypto (HS*, RS256,
 * ES256, EdDSA), checked by the real handler on real Requests; a JWKS served by a local server
 * (fetched once, refreshed on an unknown kid no more often than its bound, a hanging server costing
 * only its time limit); the verified-token cache; properties, CLI flags, and the app's own
 * `authenticate`. Without `access`, nothing changes (the rest of the suite).
 */
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseServeArgs } from "../src/cli/args.ts";
import { applyAuthFlags } from "../src/cli/secret-source.ts";
import { type AccessOptions, resolveAccess } from "../src/config/access.ts";
import type { PersistenceContext } from "../src/config/context.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { InvalidTokenError } from "../src/errors/auth-errors.ts";
import { createRestHandler, type RestHandler } from "../src/handler.ts";
import { Authenticator } from "../src/http/auth/authenticate.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
const BOOK = "/org.extent.sample.Book";
const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
const now = () => Math.floor(Date.now() / 1000);

// ---------------------------------------------------------------------------------------------
// Tokens, signed with WebCrypto alone (not with the library under test)
// ---------------------------------------------------------------------------------------------

const b64u = (bytes: ArrayBuffer | Uint8Array | string) => Buffer.from(typeof bytes === "string" ? bytes : new Uint8Array(bytes)).toString("base64url");
const SIGN: Record<string, AlgorithmIdentifier | EcdsaParams> = {
  HS256: "HMAC",
  HS384: "HMAC",
  HS512: "HMAC",
  RS256: "RSASSA-PKCS1-v1_5",
  ES256: { name: "ECDSA", hash: "SHA-256" } as EcdsaParams,
  EdDSA: "Ed25519",
};

async function jwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: CryptoKey): Promise<string> {
  const input = `${b64u(JSON.stringify({ typ: "JWT", ...header }))}.${b64u(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign(SIGN[header.alg as string]!, key, new TextEncoder().encode(input));
  return `${input}.${b64u(signature)}`;
}

const hmacKey = (secret: string, hash = "SHA-256") => crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash }, false, ["sign"]);
const hs = async (payload: Record<string, unknown>, secret = SECRET, alg = "HS256") => jwt({ alg }, payload, await hmacKey(secret, `SHA-${alg.slice(2)}`));

interface KeyPair {
  alg: string;
  kid: string;
  privateKey: CryptoKey;
  jwk: JsonWebKey & { kid: string };
}
async function keyPair(alg: "RS256" | "ES256" | "EdDSA", kid: string): Promise<KeyPair> {
  const params =
    alg === "RS256"
      ? { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }
      : alg === "ES256"
        ? { name: "ECDSA", namedCurve: "P-256" }
        : { name: "Ed25519" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid, alg, use: "sig" };
  return { alg, kid, privateKey: pair.privateKey, jwk };
}
const signed = (k: KeyPair, payload: Record<string, unknown>, kid = k.kid) => jwt({ alg: k.alg, kid }, payload, k.privateKey);

// ---------------------------------------------------------------------------------------------
// The handler
// ---------------------------------------------------------------------------------------------

const handlers: RestHandler[] = [];
after(() => handlers.forEach((h) => h.close()));

async function handlerWith(access: AccessOptions | undefined): Promise<RestHandler> {
  const context: PersistenceContext = { ...sample, url: ":memory:", ...(access ? { access } : {}) };
  const handler = createRestHandler({ context });
  handlers.push(handler);
  await handler.ready;
  return handler;
}

function get(h: RestHandler, token?: string, path = BOOK, headers: Record<string, string> = {}): Promise<Response> {
  return h.fetch(new Request(`http://x${path}`, { headers: token === undefined ? headers : { ...headers, authorization: `Bearer ${token}` } }));
}

async function assertRefused(response: Response, detail?: RegExp): Promise<void> {
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
  assert.match(response.headers.get("content-type") ?? "", /application\/problem\+json/);
  const body = (await response.json()) as { status: number; detail: string };
  assert.equal(body.status, 401);
  if (detail) assert.match(body.detail, detail);
}

describe("without access configured", () => {
  test("every request is served as before, whatever its Authorization header", async () => {
    const h = await handlerWith(undefined);
    assert.equal((await get(h)).status, 200);
    assert.equal((await get(h, "not-a-jwt")).status, 200);
    assert.equal((await get(h, undefined, BOOK, { authorization: "Basic eDp5" })).status, 200);
  });
});

describe("HS256/384/512 with a secret", () => {
  let h: RestHandler;
  before(async () => (h = await handlerWith({ jwt: { secret: SECRET } })));

  test("a valid token, and a request without credentials (the anonymous principal), are served", async () => {
    assert.equal((await get(h, await hs({ sub: "alice", exp: now() + 600 }))).status, 200);
    assert.equal((await get(h, await hs({ sub: "alice" }, SECRET, "HS384"))).status, 200);
    assert.equal((await get(h, await hs({ sub: "alice" }, SECRET, "HS512"))).status, 200);
    assert.equal((await get(h)).status, 200);
  });

  test("exp and nbf hold with 60 s of leeway", async () => {
    assert.equal((await get(h, await hs({ exp: now() - 30 }))).status, 200);
    await assertRefused(await get(h, await hs({ exp: now() - 120 })), /expired/);
    assert.equal((await get(h, await hs({ nbf: now() + 30 }))).status, 200);
    await assertRefused(await get(h, await hs({ nbf: now() + 120 })), /not valid yet/);
    await assertRefused(await get(h, await hs({ exp: "tomorrow" })), /exp/);
  });

  test("a wrong signature, a malformed token, alg none and other schemes: 401 whatever the path", async () => {
    await assertRefused(await get(h, await hs({ sub: "alice" }, "another-secret-of-thirty-two-bytes-or-so")), /signature/);
    await assertRefused(await get(h, "abc.def"));
    await assertRefused(await get(h, "%%%.%%%.%%%"));
    const none = `${b64u(JSON.stringify({ alg: "none", typ: "JWT" }))}.${b64u(JSON.stringify({ sub: "root" }))}.`;
    await assertRefused(await get(h, none));
    await assertRefused(await get(h, undefined, BOOK, { authorization: "Basic eDp5" }), /Bearer/);
    // A path that does not exist, and the root: credentials are judged first.
    await assertRefused(await get(h, "abc", "/no.such.Class/1"));
    await assertRefused(await get(h, "abc", "/"));
    // An asymmetric token where only a secret is configured.
    const rs = await keyPair("RS256", "k1");
    await assertRefused(await get(h, await signed(rs, { sub: "alice" })), /RS256/);
  });

  test("iss and aud when configured", async () => {
    const strict = await handlerWith({ jwt: { secret: SECRET, issuer: "https://issuer.example", audience: "extent" } });
    assert.equal((await get(strict, await hs({ iss: "https://issuer.example", aud: "extent" }))).status, 200);
    assert.equal((await get(strict, await hs({ iss: "https://issuer.example", aud: ["other", "extent"] }))).status, 200);
    await assertRefused(await get(strict, await hs({ iss: "https://evil.example", aud: "extent" })), /issuer/);
    await assertRefused(await get(strict, await hs({ aud: "extent" })), /issuer/);
    await assertRefused(await get(strict, await hs({ iss: "https://issuer.example", aud: "other" })), /audience/);
    await assertRefused(await get(strict, await hs({ iss: "https://issuer.example" })), /audience/);
  });
});

describe("the principal", () => {
  const principal = async (access: AccessOptions, payload?: Record<string, unknown>) =>
    new Authenticator(resolveAccess(access)!).principal(new Request("http://x/", payload ? { headers: { authorization: `Bearer ${await hs(payload)}` } } : {}));

  test("roles from `roles`, then `role`, a string or an array; or the configured claim", async () => {
    assert.deepEqual((await principal({ jwt: { secret: SECRET } }, { roles: ["a", "b"], role: "c" })).roles, ["a", "b"]);
    assert.deepEqual((await principal({ jwt: { secret: SECRET } }, { role: "c" })).roles, ["c"]);
    assert.deepEqual((await principal({ jwt: { secret: SECRET } }, { sub: "x" })).roles, []);
    assert.deepEqual((await principal({ jwt: { secret: SECRET }, rolesClaim: "groups" }, { groups: "g", roles: ["a"] })).roles, ["g"]);
    await assert.rejects(principal({ jwt: { secret: SECRET } }, { roles: [1] }), InvalidTokenError);
    const p = await principal({ jwt: { secret: SECRET } }, { sub: "alice", email: "a@example.org" });
    assert.equal(p.claims.sub, "alice");
    assert.equal(p.claims.email, "a@example.org");
  });

  test("without credentials: the anonymous role, or no role", async () => {
    assert.deepEqual(await principal({ jwt: { secret: SECRET }, anonymousRole: "guest" }), { roles: ["guest"], claims: {}, anonymous: true });
    assert.deepEqual(await principal({ jwt: { secret: SECRET } }), { roles: [], claims: {}, anonymous: true });
  });

  test("the app's own authenticate(request) hands over the principal", async () => {
    const seen: string[] = [];
    const h = await handlerWith({
      authenticate: (request) => {
        const user = request.headers.get("x-user");
        if (user === "mallory") throw new InvalidTokenError("mallory is not welcome");
        if (user) seen.push(user);
        return user ? { roles: ["member"], claims: { sub: user } } : undefined;
      },
    });
    assert.equal((await get(h, undefined, BOOK, { "x-user": "alice" })).status, 200);
    assert.deepEqual(seen, ["alice"]);
    assert.equal((await get(h)).status, 200, "no credentials: anonymous");
    await assertRefused(await get(h, undefined, BOOK, { "x-user": "mallory" }), /mallory/);
    await assertRefused(await get(h, await hs({ sub: "x" })), /verifies no tokens/);
  });
});

describe("the verified-token cache", () => {
  test("a token is verified once, then served from the cache until its exp", async () => {
    const auth = new Authenticator(resolveAccess({ jwt: { secret: SECRET } })!);
    const request = (token: string) => new Request("http://x/", { headers: { authorization: `Bearer ${token}` } });
    const token = await hs({ sub: "alice", exp: now() + 600 });
    await auth.principal(request(token));
    await auth.principal(request(token));
    await Promise.all([1, 2, 3].map(() => auth.principal(request(token))));
    assert.equal(auth.verifier!.verifications, 1);
    // Expiring within the second (its leeway nearly spent): served once, refused once it passes, unverified.
    // Minted just after a second begins, so that second's end cannot come between minting and the first use.
    await new Promise((r) => setTimeout(r, 1020 - (Date.now() % 1000)));
    const expiring = await hs({ sub: "bob", exp: now() - 59 });
    await auth.principal(request(expiring));
    assert.equal(auth.verifier!.verifications, 2);
    await new Promise((r) => setTimeout(r, 1100));
    await assert.rejects(auth.principal(request(expiring)), /expired/);
    assert.equal(auth.verifier!.verifications, 2);
    // A refused token is not kept: each attempt is checked (and refused) again.
    const wrong = await hs({ sub: "eve" }, "a-wrong-secret-of-thirty-two-bytes-or-more");
    await assert.rejects(auth.principal(request(wrong)), InvalidTokenError);
    await assert.rejects(auth.principal(request(wrong)), InvalidTokenError);
    assert.equal(auth.verifier!.verifications, 4);
  });
});

describe("a JWKS served by a local server", () => {
  let server: Server;
  let url: string;
  let keys: JsonWebKey[] = [];
  let fetches = 0;
  let hang = false;
  const hanging = new Set<import("node:http").ServerResponse>();
  let rs: KeyPair, es: KeyPair, ed: KeyPair, rotated: KeyPair;

  before(async () => {
    [rs, es, ed, rotated] = await Promise.all([keyPair("RS256", "rs"), keyPair("ES256", "es"), keyPair("EdDSA", "ed"), keyPair("ES256", "rotated")]);
    keys = [rs.jwk, es.jwk, ed.jwk];
    server = createServer((_req, res) => {
      fetches++;
      if (hang) return void hanging.add(res);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  after(() => {
    for (const res of hanging) res.destroy();
    server.close();
  });

  test("RS256, ES256 and EdDSA tokens are verified against it, fetched once", async () => {
    fetches = 0;
    const h = await handlerWith({ jwt: { jwks: url } });
    assert.equal(fetches, 0, "fetched when a token needs it, not before");
    for (const k of [rs, es, ed]) assert.equal((await get(h, await signed(k, { sub: k.kid, exp: now() + 600 }))).status, 200, k.alg);
    for (const k of [rs, es, ed]) assert.equal((await get(h, await signed(k, { sub: `${k.kid}-2` }))).status, 200, k.alg);
    assert.equal(fetches, 1);
    // A token signed by another key under a known kid, one without kid, and an HS256 token (no secret).
    await assertRefused(await get(h, await jwt({ alg: "ES256", kid: "es" }, { sub: "x" }, rotated.privateKey)), /signature/);
    await assertRefused(await get(h, await jwt({ alg: "ES256" }, { sub: "x" }, es.privateKey)), /kid/);
    await assertRefused(await get(h, await hs({ sub: "x" })), /HS256/);
    assert.equal(fetches, 1);
  });

  test("an unknown kid refreshes the set, but no more often than the bound", async () => {
    fetches = 0;
    const h = await handlerWith({ jwt: { jwks: url, jwksRefreshMs: 300 } });
    assert.equal((await get(h, await signed(rs, { sub: "a" }))).status, 200);
    assert.equal(fetches, 1);
    keys = [rs.jwk, es.jwk, ed.jwk, rotated.jwk];
    // Within the bound: an unknown kid is refused without a fetch.
    await assertRefused(await get(h, await signed(rotated, { sub: "b" })), /no key "rotated"/);
    await assertRefused(await get(h, await signed(es, { sub: "c" }, "invented")), /no key/);
    assert.equal(fetches, 1);
    await new Promise((r) => setTimeout(r, 350));
    assert.equal((await get(h, await signed(rotated, { sub: "b2" }))).status, 200);
    assert.equal(fetches, 2);
    // Clients inventing kids make no more fetches within the bound.
    for (let i = 0; i < 5; i++) await assertRefused(await get(h, await signed(es, { sub: `x${i}` }, `invented-${i}`)));
    assert.equal(fetches, 2);
  });

  test("a hanging JWKS server: 401 within the time limit, other requests not stalled", async () => {
    fetches = 0;
    hang = true;
    try {
      const h = await handlerWith({ jwt: { jwks: url, secret: SECRET, jwksTimeoutMs: 300 } });
      const started = performance.now();
      const waiting = get(h, await signed(rs, { sub: "a" }));
      // Meanwhile: anonymous and HS256 requests are served at once.
      const others = performance.now();
      assert.equal((await get(h)).status, 200);
      assert.equal((await get(h, await hs({ sub: "b" }))).status, 200);
      assert.ok(performance.now() - others < 250, "other requests waited on the JWKS");
      await assertRefused(await waiting, /key set/);
      const took = performance.now() - started;
      assert.ok(took >= 250 && took < 2000, `took ${took} ms`);
      // Within the refresh bound, no fetch again: refused at once.
      const again = performance.now();
      await assertRefused(await get(h, await signed(rs, { sub: "c" })), /key set/);
      assert.ok(performance.now() - again < 250);
      assert.equal(fetches, 1);
    } finally {
      hang = false;
    }
  });
});

describe("configuration", () => {
  test("access in code is validated at start-up, naming the property", () => {
    const fails = (access: unknown, message: RegExp) =>
      assert.throws(
        () => createRestHandler({ context: { ...sample, url: ":memory:", access: access as AccessOptions } }),
        (e: Error) => {
          assert.ok(e instanceof RangeError, String(e));
          assert.match(e.message, message);
          return true;
        },
      );
    fails({ file: "rules.json" }, /^access\.file \(extent\.access\.file\): the rules file is read by the CLI/);
    fails({ jwt: { jwks: "not a url" } }, /^access\.jwt\.jwks \(extent\.auth\.jwt\.jwks\): must be a URL/);
    fails({ jwt: { jwks: "ftp://keys.example/jwks" } }, /extent\.auth\.jwt\.jwks.*http/);
    fails({ jwt: { secret: "" } }, /extent\.auth\.jwt\.secret.*empty/);
    fails({ jwt: { secret: "env:JWT_SECRET" } }, /extent\.auth\.jwt\.secret.*environment variable/);
    fails({ jwt: {} }, /^access\.jwt: needs a secret/);
    fails({ jwt: { secret: SECRET, algorithm: "HS256" } }, /access\.jwt\.algorithm/);
    fails({ rolesClaim: 3 }, /access\.rolesClaim \(extent\.auth\.roles-claim\)/);
    fails({ anonymousRole: " " }, /extent\.auth\.anonymous-role.*empty/);
  });

  test("persistence.xml properties become the context's access", async () => {
    const xml = (properties: string) =>
      new Map([
        [
          "persistence.xml",
          `<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0"><persistence-unit name="u"><properties><property name="jakarta.persistence.jdbc.url" value=":memory:"/>${properties}</properties></persistence-unit></persistence>`,
        ],
      ]);
    const { context, problems } = resolveContext(
      xml(`<property name="extent.auth.jwt.secret" value="env:JWT_SECRET"/>
<property name="extent.auth.jwt.jwks" value="https://keys.example/jwks.json"/>
<property name="extent.auth.jwt.issuer" value="https://issuer.example"/>
<property name="extent.auth.jwt.audience" value="extent"/>
<property name="extent.auth.roles-claim" value="groups"/>
<property name="extent.auth.anonymous-role" value="guest"/>`),
      "u",
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(context.access, {
      jwt: { secret: "env:JWT_SECRET", jwks: "https://keys.example/jwks.json", issuer: "https://issuer.example", audience: "extent" },
      rolesClaim: "groups",
      anonymousRole: "guest",
    });
    // The loader reads env:NAME; then the handler takes it.
    assert.deepEqual(applyAuthFlags(context, {}, { JWT_SECRET: SECRET }), { ok: true });
    assert.equal(context.access!.jwt!.secret, SECRET);
    assert.deepEqual(resolveAccess(context.access)!.rolesClaims, ["groups"]);
    // No property: no access, nothing per request.
    assert.equal(resolveContext(xml(""), "u").context.access, undefined);
    // The rules file is the CLI's to read: a handler given only its name says so.
    const rules = resolveContext(xml(`<property name="extent.access.file" value="rules.json"/>`), "u").context;
    assert.throws(() => createRestHandler({ context: { ...sample, url: ":memory:", access: rules.access! } }), /extent\.access\.file.*read by the CLI/);
  });

  test("CLI flags: --jwt-secret (text or env:NAME) and --jwt-jwks over the properties", () => {
    const base = ["--config", "d", "--persistence-context", "p"];
    const parsed = parseServeArgs([...base, "--jwt-secret", "env:S", "--jwt-jwks=https://keys.example/jwks.json"]);
    assert.ok(parsed.ok);
    assert.equal(parsed.options.jwtSecret, "env:S");
    assert.equal(parsed.options.jwtJwks, "https://keys.example/jwks.json");
    assert.deepEqual(parseServeArgs([...base, "--jwt-secret"]), { ok: false, message: "--jwt-secret needs a value" });
    assert.match((parseServeArgs([...base, "--jwt-jwks", "nope"]) as { message: string }).message, /^--jwt-jwks: must be a URL/);
    const plain = parseServeArgs(base);
    assert.ok(plain.ok);
    assert.equal(plain.options.jwtSecret, undefined);

    const context: PersistenceContext = { name: "p", access: { jwt: { secret: "from-the-file" }, anonymousRole: "guest" } };
    assert.deepEqual(applyAuthFlags(context, { jwtSecret: "env:S" }, { S: SECRET }), { ok: true });
    assert.deepEqual(context.access, { jwt: { secret: SECRET }, anonymousRole: "guest" });
    assert.deepEqual(applyAuthFlags({ name: "p" }, { jwtSecret: "env:MISSING" }, {}), {
      ok: false,
      message: "--jwt-secret: the environment variable MISSING is not set",
    });
    assert.deepEqual(applyAuthFlags({ name: "p", access: { jwt: { secret: "env:MISSING" } } }, {}, {}), {
      ok: false,
      message: "extent.auth.jwt.secret: the environment variable MISSING is not set",
    });
    const none: PersistenceContext = { name: "p" };
    assert.deepEqual(applyAuthFlags(none, {}, {}), { ok: true });
    assert.equal(none.access, undefined);
  });
});
