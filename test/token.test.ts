/**
 * `extent token` (issue 18 item 5; contract §8): its arguments, each bad form refused naming the
 * flag; the secret's source; the token it mints, sent to the real handler configured with the same
 * secret (served, its roles and claims the principal's) and to one with another (401); and the
 * real command run as a subprocess: the token alone on stdout, or a message on stderr and exit 1.
 */
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { decode } from "hono/jwt";
import { type TokenArgs, type TokenOptions, parseTokenArgs } from "../src/cli/token-args.ts";
import { mintToken, tokenPayload, tokenSecret } from "../src/cli/token.ts";
import { type AccessOptions, resolveAccess } from "../src/config/access.ts";
import type { PersistenceContext } from "../src/config/context.ts";
import { resolveContext } from "../src/config/resolve-context.ts";
import { createRestHandler, type RestHandler } from "../src/handler.ts";
import { Authenticator } from "../src/http/auth/authenticate.ts";
import { loadConfigDir } from "../src/runtime/load-config-dir.ts";

const SCHEMA = new URL("../schema/jdo", import.meta.url).pathname;
const BIN = new URL("../bin/extent.js", import.meta.url).pathname;
const BOOK = "/org.extent.sample.Book";
const SECRET = "a-test-secret-of-at-least-thirty-two-bytes";
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function options(argv: string[]): TokenOptions {
  const parsed = parseTokenArgs(argv);
  assert.ok(parsed.ok && "options" in parsed, JSON.stringify(parsed));
  return parsed.options;
}
const refused = (argv: string[]): string => {
  const parsed: TokenArgs = parseTokenArgs(argv);
  assert.equal(parsed.ok, false, `${argv.join(" ")} was accepted`);
  return (parsed as { message: string }).message;
};
const bearer = (token: string) => new Request("http://x/", { headers: { authorization: `Bearer ${token}` } });
const mint = (argv: string[], secret = SECRET) => mintToken(options(argv), secret);

describe("arguments", () => {
  test("defaults: HS256, exp an hour after iat, no roles claim; --flag value and --flag=value", () => {
    assert.deepEqual(options(["--sub", "alice"]), { sub: "alice", expires: 3600, alg: "HS256", claims: {} });
    assert.deepEqual(options(["--sub=alice", "--secret=env:S", "--roles=manager,admin", "--alg=HS512", "--issuer=i", "--audience=a"]), {
      sub: "alice",
      secret: "env:S",
      roles: ["manager", "admin"],
      expires: 3600,
      alg: "HS512",
      issuer: "i",
      audience: "a",
      claims: {},
    });
    assert.deepEqual(options(["--sub", "a", "--roles", " manager , admin "]).roles, ["manager", "admin"]);
    assert.deepEqual(parseTokenArgs(["--help"]), { ok: true, help: true });
  });

  test("--expires: seconds, minutes, hours, days, or never", () => {
    const expires = (text: string) => options(["--sub", "a", "--expires", text]).expires;
    assert.deepEqual([expires("30s"), expires("15m"), expires("1h"), expires("7d"), expires("never")], [30, 900, 3600, 604800, null]);
    for (const bad of ["", "1", "1w", "h", "-1h", "0s", "1.5h", "1 h", "1H", "99999999999999999999d", "forever"])
      assert.match(refused(["--sub", "a", "--expires", bad]), /^--expires: must be a duration such as 30s, 15m, 1h or 7d/, bad);
  });

  test("--claim k=v: numbers and booleans typed, anything else a string; repeatable", () => {
    const claims = options(["--sub", "a", "--claim", "tenant=42", "--claim=ratio=-1.5e2", "--claim", "admin=true", "--claim", "off=false"]).claims;
    assert.deepEqual(claims, { tenant: 42, ratio: -150, admin: true, off: false });
    const strings = options([
      "--sub",
      "a",
      "--claim",
      "email=a@b.c",
      "--claim",
      "n=null",
      "--claim",
      "z=007",
      "--claim",
      "e=",
      "--claim",
      "q=a=b",
      "--claim",
      "big=1e999",
    ]);
    assert.deepEqual(strings.claims, { email: "a@b.c", n: "null", z: "007", e: "", q: "a=b", big: "1e999" });
    // Claims the flags leave unset may be given: roles without --roles, exp with --expires never.
    assert.deepEqual(options(["--sub", "a", "--claim", "roles=x"]).claims, { roles: "x" });
    assert.deepEqual(options(["--sub", "a", "--expires", "never", "--claim", "exp=9"]).claims, { exp: 9 });
  });

  test("bad --claim forms, and a claim given twice", () => {
    assert.equal(refused(["--sub", "a", "--claim", "tenant"]), "--claim tenant: must be k=v");
    assert.equal(refused(["--sub", "a", "--claim", "=1"]), '--claim =1: "" is not an identifier');
    assert.equal(refused(["--sub", "a", "--claim", "1x=1"]), '--claim 1x=1: "1x" is not an identifier');
    assert.equal(refused(["--sub", "a", "--claim", "a-b=1"]), '--claim a-b=1: "a-b" is not an identifier');
    assert.equal(refused(["--sub", "a", "--claim", "t=1", "--claim", "t=2"]), "--claim t is given twice");
    assert.equal(refused(["--sub", "a", "--claim", "sub=bob"]), "--claim sub: the sub claim is set by --sub");
    assert.equal(refused(["--sub", "a", "--roles", "r", "--claim", "roles=x"]), "--claim roles: the roles claim is set by --roles");
    assert.equal(refused(["--sub", "a", "--claim", "iat=1"]), "--claim iat: the iat claim is set by the time of minting");
    assert.equal(refused(["--sub", "a", "--claim", "exp=1"]), "--claim exp: the exp claim is set by --expires (default 1h)");
    assert.equal(refused(["--sub", "a", "--expires", "1d", "--claim", "exp=1"]), "--claim exp: the exp claim is set by --expires");
    assert.equal(refused(["--sub", "a", "--issuer", "i", "--claim", "iss=j"]), "--claim iss: the iss claim is set by --issuer");
    assert.equal(refused(["--sub", "a", "--audience", "x", "--claim", "aud=y"]), "--claim aud: the aud claim is set by --audience");
  });

  test("unknown flags, missing values, missing or empty required values, repeated flags, a bad --alg or --roles", () => {
    assert.equal(refused(["--sub", "a", "--subject", "b"]), "unknown argument --subject");
    assert.equal(refused(["--sub", "a", "alice"]), "unknown argument alice");
    assert.equal(refused(["--sub", "a", "--jwt-secret=x"]), "unknown argument --jwt-secret=x");
    assert.equal(refused(["--sub"]), "--sub needs a value");
    assert.equal(refused(["--sub", "a", "--claim"]), "--claim needs a value");
    assert.equal(refused([]), "--sub: is required");
    assert.equal(refused(["--roles", "r"]), "--sub: is required");
    assert.equal(refused(["--sub", ""]), "--sub: must not be empty");
    assert.equal(refused(["--sub", "a", "--secret", ""]), "--secret: must not be empty");
    assert.equal(refused(["--sub", "a", "--sub", "b"]), "--sub is given twice");
    assert.equal(refused(["--sub", "a", "--alg", "RS256"]), "--alg: must be HS256, HS384 or HS512");
    assert.equal(refused(["--sub", "a", "--alg", "none"]), "--alg: must be HS256, HS384 or HS512");
    for (const bad of ["", "a,,b", "a,", " "]) assert.match(refused(["--sub", "a", "--roles", bad]), /^--roles: must be role names separated by commas/, bad);
  });

  test("the secret: the text, env:NAME, else EXTENT_JWT_SECRET, else an error", () => {
    assert.deepEqual(tokenSecret("plain", {}), { ok: true, value: "plain" });
    assert.deepEqual(tokenSecret("env:S", { S: SECRET }), { ok: true, value: SECRET });
    assert.deepEqual(tokenSecret("env:S", {}), { ok: false, message: "--secret: the environment variable S is not set" });
    assert.deepEqual(tokenSecret("env:not a name", {}), { ok: false, message: '--secret: "not a name" is not an environment variable\'s name' });
    assert.deepEqual(tokenSecret(undefined, { EXTENT_JWT_SECRET: SECRET }), { ok: true, value: SECRET });
    assert.deepEqual(tokenSecret("text", { EXTENT_JWT_SECRET: SECRET }), { ok: true, value: "text" }, "--secret wins");
    assert.deepEqual(tokenSecret(undefined, {}), { ok: false, message: "--secret is required (or set the environment variable EXTENT_JWT_SECRET)" });
    assert.deepEqual(tokenSecret(undefined, { EXTENT_JWT_SECRET: "" }).ok, false);
  });
});

describe("the token", () => {
  test("its payload and header", async () => {
    const argv = ["--sub", "alice", "--roles", "manager,admin", "--claim", "tenant=7", "--claim", "email=a@b.c", "--issuer", "i", "--audience", "a"];
    assert.deepEqual(tokenPayload(options(argv), 1000), {
      sub: "alice",
      roles: ["manager", "admin"],
      iat: 1000,
      exp: 4600,
      iss: "i",
      aud: "a",
      tenant: 7,
      email: "a@b.c",
    });
    assert.deepEqual(tokenPayload(options(["--sub", "bob", "--expires", "never"]), 1000), { sub: "bob", iat: 1000 });
    const before = Math.floor(Date.now() / 1000);
    const { header, payload } = decode(await mint([...argv, "--alg", "HS384", "--expires", "15m"]));
    assert.deepEqual(header, { alg: "HS384", typ: "JWT" });
    assert.ok(payload.iat! >= before && payload.iat! <= before + 5);
    assert.equal(payload.exp, payload.iat! + 900);
    assert.deepEqual(payload.roles, ["manager", "admin"]);
  });

  const handlers: RestHandler[] = [];
  after(() => handlers.forEach((h) => h.close()));
  async function handlerWith(access: AccessOptions): Promise<RestHandler> {
    const { context: sample } = resolveContext(await loadConfigDir(SCHEMA), "sample");
    const context: PersistenceContext = { ...sample, url: ":memory:", access };
    const handler = createRestHandler({ context });
    handlers.push(handler);
    await handler.ready;
    return handler;
  }
  const get = (h: RestHandler, token: string) => h.fetch(new Request(`http://x${BOOK}`, { headers: { authorization: `Bearer ${token}` } }));

  test("the handler with the same secret serves it, with each --alg; one with another secret answers 401", async () => {
    const h = await handlerWith({ jwt: { secret: SECRET } });
    for (const alg of ["HS256", "HS384", "HS512"])
      assert.equal((await get(h, await mint(["--sub", "alice", "--roles", "manager", "--alg", alg]))).status, 200, alg);
    assert.equal((await get(h, await mint(["--sub", "alice", "--expires", "never"]))).status, 200);
    const wrong = await get(h, await mint(["--sub", "alice"], "another-secret-of-thirty-two-bytes-or-so"));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
    // A token minted already expired (clock moved back) is refused as the server refuses any.
    const expired = await mintToken(options(["--sub", "alice", "--expires", "30s"]), SECRET, Math.floor(Date.now() / 1000) - 3600);
    assert.equal((await get(h, expired)).status, 401);
  });

  test("its roles and claims are the principal's; --issuer and --audience satisfy a handler that checks them", async () => {
    const access: AccessOptions = { jwt: { secret: SECRET, issuer: "https://dev.example", audience: "extent" } };
    const argv = ["--sub", "alice", "--roles", "manager,admin", "--claim", "tenant=7", "--claim", "email=alice@example.org"];
    const token = await mint([...argv, "--issuer", "https://dev.example", "--audience", "extent"]);
    const principal = await new Authenticator(resolveAccess(access)!).principal(bearer(token));
    assert.deepEqual(principal.roles, ["manager", "admin"]);
    assert.equal(principal.claims.sub, "alice");
    assert.equal(principal.claims.tenant, 7);
    assert.equal(principal.claims.email, "alice@example.org");
    const h = await handlerWith(access);
    assert.equal((await get(h, token)).status, 200);
    assert.equal((await get(h, await mint(argv))).status, 401, "without iss and aud");
    assert.equal((await get(h, await mint([...argv, "--issuer", "https://dev.example", "--audience", "other"]))).status, 401);
  });
});

describe("the command", () => {
  function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { EXTENT_JWT_SECRET: _, ...inherited } = process.env;
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  }

  test("prints the token alone on stdout, exit 0; the secret from env:NAME or EXTENT_JWT_SECRET", async () => {
    const minted = await run(["token", "--secret", "env:DEV_SECRET", "--sub", "alice", "--roles", "manager", "--claim", "tenant=7"], { DEV_SECRET: SECRET });
    assert.equal(minted.code, 0, minted.stderr);
    assert.equal(minted.stderr, "");
    assert.match(minted.stdout, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/);
    const token = minted.stdout.trim();
    assert.match(token, JWT);
    const principal = await new Authenticator(resolveAccess({ jwt: { secret: SECRET } })!).principal(bearer(token));
    assert.deepEqual([principal.roles, principal.claims.sub, principal.claims.tenant], [["manager"], "alice", 7]);
    const fromEnv = await run(["token", "--sub", "bob"], { EXTENT_JWT_SECRET: SECRET });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.match(fromEnv.stdout.trim(), JWT);
  });

  test("a mistake: a message and the usage on stderr, nothing on stdout, exit 1", async () => {
    const bad = await run(["token", "--secret", SECRET, "--sub", "alice", "--bogus"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, "");
    assert.match(bad.stderr, /^extent token: unknown argument --bogus\n\nUsage: extent token /);
    const noSecret = await run(["token", "--sub", "alice"]);
    assert.equal(noSecret.code, 1);
    assert.match(noSecret.stderr, /--secret is required \(or set the environment variable EXTENT_JWT_SECRET\)/);
    const help = await run(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: extent serve[\s\S]*Usage: extent token/);
  });
});
