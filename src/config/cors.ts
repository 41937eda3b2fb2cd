/**
 * Cross-origin requests (contract §7): off unless configured, in code (`cors` in the persistence
 * context), by the `extent.cors.origins` property or by `--cors ORIGINS`. Validated once at
 * start-up with valibot, so a mistake names the option and the origin at fault.
 */
import * as v from "valibot";

export interface CorsOptions {
  /**
   * The origins whose pages may call the service: `*` for every origin, or origins such as
   * `https://app.example` and `http://localhost:5173` (scheme, host and port, no path): an array,
   * or one string listing them separated by commas.
   */
  origins: string | readonly string[];
}

export const CORS_PROPERTY = "extent.cors.origins";

/** `cors` as the handler uses it: every origin, or the listed ones. */
export type ResolvedCors = { origins: "*" } | { origins: readonly string[] };

const origin = v.pipe(
  v.string("must be text"),
  v.trim(),
  v.minLength(1, "must not be empty"),
  v.check(isOrigin, (issue) => `${JSON.stringify(issue.input)} is not an origin: give * or scheme://host[:port] with no path, such as https://app.example`),
);

const Schema = v.strictObject(
  {
    origins: v.union(
      [
        v.pipe(
          v.string(),
          v.transform((s) => s.split(",")),
          v.array(origin),
        ),
        v.pipe(v.array(origin), v.minLength(1, "must name at least one origin")),
      ],
      "must be * or origins (an array, or text separated by commas)",
    ),
  },
  "must be an object { origins }, origins being * or a list of origins",
);

function isOrigin(text: string): boolean {
  if (text === "*") return true;
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === text;
  } catch {
    return false;
  }
}

/** The CORS configuration in force, or undefined when none is given. Throws a RangeError naming the option and its property. */
export function resolveCors(cors: CorsOptions | undefined): ResolvedCors | undefined {
  if (cors === undefined) return undefined;
  const parsed = v.safeParse(Schema, cors);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const at = (issue.path ?? []).map((p) => (typeof p.key === "number" ? `[${p.key}]` : `.${String(p.key)}`)).join("");
    throw new RangeError(`cors${at} (${CORS_PROPERTY}): ${issue.message}`);
  }
  const origins = parsed.output.origins;
  return origins.includes("*") ? { origins: "*" } : { origins: [...new Set(origins)] };
}
