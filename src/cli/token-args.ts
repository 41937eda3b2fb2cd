/**
 * Command-line arguments of `extent token`, validated with valibot so a mistake names the flag.
 * Parsing is pure: the secret's source (`env:NAME`, EXTENT_JWT_SECRET) is read when minting.
 */
import * as v from "valibot";

export const TOKEN_USAGE = `Usage: extent token [--secret SOURCE] --sub ID [--roles R1,R2] [--claim k=v ...] [--expires 1h] [--alg HS256] [--issuer I] [--audience A]

Mints a development JWT that \`extent serve --jwt-secret SOURCE\` accepts and prints it alone on stdout.
  --secret SOURCE              the HS* secret: env:NAME reads the variable NAME, or the text itself
                               (default: the variable EXTENT_JWT_SECRET)
  --sub ID                     the principal's subject (the sub claim)
  --roles R1,R2                its roles, comma-separated, as an array in the roles claim (default: no roles claim)
  --claim k=v                  another claim, repeatable: k an identifier, v a JSON number or boolean
                               (then one), else a string
  --expires T                  lifetime: 30s, 15m, 1h, 7d... or never (no exp claim); default 1h
  --alg A                      HS256, HS384 or HS512 (default HS256)
  --issuer I                   the iss claim
  --audience A                 the aud claim`;

/** Units of --expires, in seconds. */
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `30s`, `15m`, `1h`, `7d` in seconds; undefined when not such a positive duration. */
function seconds(text: string): number | undefined {
  const match = /^(\d+)([smhd])$/.exec(text);
  const value = match ? Number(match[1]) * UNITS[match[2]!]! : 0;
  return value > 0 && Number.isSafeInteger(value) ? value : undefined;
}

const NonEmpty = v.pipe(v.string(), v.minLength(1, "must not be empty"));

const Options = v.object({
  secret: v.optional(NonEmpty),
  sub: NonEmpty,
  roles: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.split(",").map((role) => role.trim())),
      v.check((roles) => roles.every((role) => role !== ""), "must be role names separated by commas (none empty)"),
    ),
  ),
  expires: v.pipe(
    v.string(),
    v.check(
      (text) => text === "never" || seconds(text) !== undefined,
      "must be a duration such as 30s, 15m, 1h or 7d (a positive whole number of s, m, h or d), or never",
    ),
    v.transform((text) => (text === "never" ? null : seconds(text)!)),
  ),
  alg: v.picklist(["HS256", "HS384", "HS512"], "must be HS256, HS384 or HS512"),
  issuer: v.optional(NonEmpty),
  audience: v.optional(NonEmpty),
});

export type TokenOptions = v.InferOutput<typeof Options> & {
  /** The --claim pairs, values typed. */
  claims: Record<string, string | number | boolean>;
};

const FLAGS: Record<string, keyof v.InferInput<typeof Options>> = {
  "--secret": "secret",
  "--sub": "sub",
  "--roles": "roles",
  "--expires": "expires",
  "--alg": "alg",
  "--issuer": "issuer",
  "--audience": "audience",
};

/** The flag that sets a claim when given (iat and exp are set unless --expires never). */
const CLAIM_FLAGS: Record<string, string> = { sub: "--sub", roles: "--roles", iss: "--issuer", aud: "--audience" };

export type TokenArgs = { ok: true; options: TokenOptions } | { ok: true; help: true } | { ok: false; message: string };

export function parseTokenArgs(argv: readonly string[]): TokenArgs {
  const raw: Record<string, string> = { expires: "1h", alg: "HS256" };
  const given = new Set<string>();
  const claims: Record<string, string | number | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if ((flag === "--help" || flag === "-h") && inline === undefined) return { ok: true, help: true };
    const name = FLAGS[flag];
    if (!name && flag !== "--claim") return { ok: false, message: `unknown argument ${argv[i]}` };
    const value = inline ?? argv[++i];
    if (value === undefined) return { ok: false, message: `${flag} needs a value` };
    if (name) {
      if (given.has(name)) return { ok: false, message: `${flag} is given twice` };
      given.add(name);
      raw[name] = value;
      continue;
    }
    const claim = parseClaim(value, claims);
    if (!claim.ok) return claim;
  }
  for (const key of Object.keys(claims)) {
    const by = setBy(key, raw, given);
    if (by) return { ok: false, message: `--claim ${key}: the ${key} claim is set by ${by}` };
  }
  const parsed = v.safeParse(Options, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.[0]?.key as string | undefined;
    const flag = Object.entries(FLAGS).find(([, n]) => n === key)?.[0] ?? key ?? "arguments";
    return { ok: false, message: `${flag}: ${raw[key ?? ""] === undefined ? "is required" : issue.message}` };
  }
  return { ok: true, options: { ...parsed.output, claims } };
}

/** What else sets claim `key`, if anything: a --claim may not set a claim twice. */
function setBy(key: string, raw: Record<string, string>, given: Set<string>): string | undefined {
  if (key === "iat") return "the time of minting";
  if (key === "exp") return raw.expires === "never" ? undefined : given.has("expires") ? "--expires" : "--expires (default 1h)";
  const flag = CLAIM_FLAGS[key];
  return flag && given.has(FLAGS[flag]!) ? flag : undefined;
}

/** `k=v`: k an identifier (so a rule may name it as :k), v typed as JSON when a number or boolean. */
function parseClaim(text: string, claims: Record<string, string | number | boolean>): { ok: true } | { ok: false; message: string } {
  const at = text.indexOf("=");
  if (at < 0) return { ok: false, message: `--claim ${text}: must be k=v` };
  const key = text.slice(0, at);
  const value = text.slice(at + 1);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return { ok: false, message: `--claim ${text}: ${JSON.stringify(key)} is not an identifier` };
  if (Object.hasOwn(claims, key)) return { ok: false, message: `--claim ${key} is given twice` };
  claims[key] = typed(value);
  return { ok: true };
}

function typed(text: string): string | number | boolean {
  if (text === "true" || text === "false") return text === "true";
  // JSON's number grammar exactly (no spaces, hex or Infinity); a number too large for a double stays text.
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}
