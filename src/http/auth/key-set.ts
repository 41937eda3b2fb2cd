/**
 * A JWKS URL's keys, fetched once and kept; fetched again when a token names a `kid` the set
 * lacks (keys rotate), but never more often than `refreshMs`, so clients inventing `kid`s cannot
 * make the server fetch per request. One fetch at a time (concurrent requests share it), each
 * bounded by `timeoutMs`: a slow or hostile JWKS server delays only the requests that need a new
 * key, and those by `timeoutMs` at most.
 */
import type { HonoJsonWebKey } from "hono/utils/jwt/jws";
import { InvalidTokenError } from "../../errors/auth-errors.ts";

/** The largest JWKS document read, in characters: a key set is a few KiB. */
const JWKS_CHARS = 1024 * 1024;

export class KeySet {
  private keys: Map<string, HonoJsonWebKey> | undefined;
  private fetching: Promise<void> | undefined;
  private lastFetch = -Infinity;
  /** How many fetches were started (tests). */
  fetches = 0;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly refreshMs: number,
  ) {}

  /** The key named `kid`; an InvalidTokenError when the set (fetched again if allowed) has none. */
  async key(kid: string | undefined): Promise<HonoJsonWebKey> {
    if (!kid) throw new InvalidTokenError("the token names no key (kid)");
    const known = this.keys?.get(kid);
    if (known) return known;
    if (this.fetching || performance.now() - this.lastFetch >= this.refreshMs) await this.refresh();
    else if (!this.keys) throw new InvalidTokenError("the server cannot fetch its key set now; retry later");
    const key = this.keys?.get(kid);
    if (!key) throw new InvalidTokenError(`no key ${JSON.stringify(kid)} in the server's key set`);
    return key;
  }

  private refresh(): Promise<void> {
    if (!this.fetching) {
      this.lastFetch = performance.now();
      this.fetches++;
      this.fetching = this.load().finally(() => (this.fetching = undefined));
    }
    return this.fetching;
  }

  private async load(): Promise<void> {
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(this.timeoutMs), headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const text = await response.text();
      if (text.length > JWKS_CHARS) throw new Error(`larger than ${JWKS_CHARS} characters`);
      const { keys } = JSON.parse(text) as { keys?: unknown };
      if (!Array.isArray(keys)) throw new Error(`no "keys" array`);
      const byKid = new Map<string, HonoJsonWebKey>();
      for (const key of keys as HonoJsonWebKey[]) {
        if (key && typeof key.kid === "string" && (key as { use?: string }).use !== "enc") byKid.set(key.kid, key);
      }
      this.keys = byKid;
    } catch (error) {
      // Logged once per fetch (at most one per refreshMs), not per request.
      console.error(`[extent] cannot fetch the JWKS ${this.url}: ${(error as Error).message}`);
      if (!this.keys) throw new InvalidTokenError("the server cannot fetch its key set now; retry later");
    }
  }
}
