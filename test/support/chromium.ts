/**
 * Debian's Chromium for the tests that look at pages (test/cors-browser, test/explorer-browser):
 * where it is, the flags it needs on a machine without a network, and why a test skips without it.
 */
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";

/** Without these, Chromium waits on the network this machine does not have (updates, sync, QUIC probes). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The reason to skip a browser test (`apt-get install -y chromium`; .ci/run installs it), or undefined when Chromium is there. */
export function chromiumMissing(what: string): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (apt-get install -y chromium): no browser to ${what}`;
}
