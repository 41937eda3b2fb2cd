/** Command-line arguments of `extent serve`, validated with valibot so a mistake names the flag. */
import * as v from "valibot";
import { resolveCors } from "../config/cors.ts";
import { DEFAULT_LIMITS, LIMIT_NAMES, type Limits, parseLimit } from "../config/limits.ts";

export const SERVE_USAGE = `Usage: extent serve --config DIR --persistence-context NAME [--port N] [--host H] [--prefix /p] [--seed FILE] [--server-timing] [--cors ORIGINS]

  --config DIR                 folder holding persistence.xml and/or jdoconfig.xml (directly or under META-INF/)
  --persistence-context NAME   the persistence-unit or persistence-manager-factory to serve
  --port N                     port to listen on (default 8080)
  --host H                     address to listen on (default 127.0.0.1)
  --prefix /p                  path prefix of every resource (default: none)
  --java-sources DIR           folder(s) of the Java model's sources (comma-separated; default: the context's
                               extent.java.sources, or src/main/java beside a Maven src/main/resources DIR)
  --seed FILE                  JSON {"class": [objects]} POSTed at start when those extents are empty
  --server-timing              answer each request's store cost in a Server-Timing header
  --cors ORIGINS               let browser pages of these origins call the service: * for every origin, or
                               origins separated by commas (https://app.example,http://localhost:5173);
                               overrides extent.cors.origins
  --jwt-secret SOURCE          HS256/384/512 secret of Bearer tokens: env:NAME reads the variable NAME
                               (the text itself works too, but shows in the process list); overrides
                               extent.auth.jwt.secret
  --jwt-jwks URL               JWKS of RS*/ES*/EdDSA Bearer tokens; overrides extent.auth.jwt.jwks
  --access-file FILE           the access rules (JSON, contract §8); overrides extent.access.file

Limits (each overrides the persistence context's extent.limit.<name> property):
${(Object.keys(LIMIT_NAMES) as (keyof Limits)[]).map((k) => `  --limit-${LIMIT_NAMES[k]} N`.padEnd(31) + `default ${DEFAULT_LIMITS[k]}`).join("\n")}`;

const Options = v.object({
  config: v.pipe(v.string(), v.minLength(1)),
  persistenceContext: v.pipe(v.string(), v.minLength(1)),
  port: v.pipe(v.string(), v.regex(/^\d+$/, "must be a port number"), v.transform(Number), v.number(), v.minValue(0), v.maxValue(65535)),
  host: v.string(),
  prefix: v.string(),
  seed: v.optional(v.string()),
  javaSources: v.optional(v.string()),
  serverTiming: v.boolean(),
  jwtSecret: v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty"))),
  jwtJwks: v.optional(v.pipe(v.string(), v.url("must be a URL"))),
  accessFile: v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty"))),
  cors: v.optional(
    v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        try {
          if (dataset.typed) resolveCors({ origins: dataset.value });
        } catch (e) {
          addIssue({ message: (e as Error).message.replace(/^[^:]*\): /, "") });
        }
      }),
    ),
  ),
});

export type ServeOptions = v.InferOutput<typeof Options> & { limits: Partial<Limits> };

/** `--limit-body-bytes` → `bodyBytes`, and so on for every limit. */
const LIMIT_FLAGS = new Map((Object.keys(LIMIT_NAMES) as (keyof Limits)[]).map((k) => [`--limit-${LIMIT_NAMES[k]}`, k]));

/** Flags that take no value. */
const SWITCHES: Record<string, "serverTiming"> = { "--server-timing": "serverTiming" };

const FLAGS: Record<string, Exclude<keyof ServeOptions, "serverTiming">> = {
  "--config": "config",
  "--persistence-context": "persistenceContext",
  "--port": "port",
  "--host": "host",
  "--prefix": "prefix",
  "--seed": "seed",
  "--java-sources": "javaSources",
  "--jwt-secret": "jwtSecret",
  "--jwt-jwks": "jwtJwks",
  "--access-file": "accessFile",
  "--cors": "cors",
};

export function parseServeArgs(argv: readonly string[]): { ok: true; options: ServeOptions } | { ok: false; message: string } {
  const raw: Record<string, string | boolean> = { port: "8080", host: "127.0.0.1", prefix: "", serverTiming: false };
  const limits: Partial<Limits> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const toggle = SWITCHES[flag];
    if (toggle && inline === undefined) {
      raw[toggle] = true;
      continue;
    }
    const limit = LIMIT_FLAGS.get(flag);
    if (limit) {
      const text = inline ?? argv[++i];
      if (text === undefined) return { ok: false, message: `${flag} needs a value` };
      const parsed = parseLimit(limit, text);
      if (!parsed.ok) return { ok: false, message: `${flag}: ${parsed.message}` };
      limits[limit] = parsed.value;
      continue;
    }
    const name = FLAGS[flag];
    if (!name) return { ok: false, message: `unknown argument ${argv[i]}` };
    const value = inline ?? argv[++i];
    if (value === undefined) return { ok: false, message: `${flag} needs a value` };
    raw[name] = value;
  }
  const parsed = v.safeParse(Options, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.[0]?.key as string | undefined;
    const flag = Object.entries(FLAGS).find(([, n]) => n === key)?.[0] ?? key ?? "arguments";
    return { ok: false, message: `${flag}: ${raw[key ?? ""] === undefined ? "is required" : issue.message}` };
  }
  return { ok: true, options: { ...parsed.output, limits } };
}
