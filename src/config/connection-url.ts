/**
 * Connection URLs: configuration files written for JDO/JPA use JDBC URLs, while the store speaks
 * libSQL. SQLite's JDBC form maps onto libSQL's; every other JDBC driver is refused up front,
 * with a message saying what is accepted, instead of failing later inside the client.
 */

const PASS_THROUGH = [/^file:/i, /^libsql:\/\//i, /^https?:\/\//i, /^wss?:\/\//i];

/** Hides `user:password@` so an error message never repeats credentials. */
function redact(url: string): string {
  return url.replace(/\/\/[^/@]*@/, "//***@");
}

/** Returns the libSQL URL for `url`, or throws an Error saying why the URL cannot be used. */
export function normalizeConnectionUrl(url: string): string {
  const u = url.trim();
  if (u === "") throw new Error("the connection URL is empty");
  if (u === ":memory:") return u;
  if (PASS_THROUGH.some((p) => p.test(u))) return u;
  const sqlite = /^jdbc:sqlite:(.*)$/i.exec(u);
  if (sqlite) {
    const path = sqlite[1]!;
    if (path === ":memory:" || path === "") {
      // sqlite-jdbc treats an empty path as an in-memory database too.
      return ":memory:";
    }
    return /^file:/i.test(path) ? path : `file:${path}`;
  }
  const jdbc = /^jdbc:([^:]+):/i.exec(u);
  const why = jdbc ? `the "${jdbc[1]}" JDBC driver is not supported, only SQLite/libSQL` : "unsupported connection URL";
  throw new Error(`${why}: "${redact(u)}"; expected file:PATH, :memory:, libsql://HOST, http(s)://HOST, ws(s)://HOST or jdbc:sqlite:PATH`);
}
