/**
 * `GET /`: the persistent classes the model serves, as JSON; or, when the explorer is on and the
 * request's Accept prefers HTML (a browser), the explorer page (explorer.ts). Both vary by Accept.
 */
import { json } from "../answers.ts";
import { prefersHtml } from "../negotiate.ts";
import type { Resource } from "../resource.ts";
import { explorerAnswer } from "./explorer.ts";

export function root(page?: () => string): Resource {
  return {
    path: "/",
    what: "the root",
    GET: (c) => {
      if (page && prefersHtml(c.req.header("accept"))) return explorerAnswer(page());
      const classes = [...c.get("rt").model.classes.values()].filter((m) => !m.embeddedOnly).map((m) => m.name);
      return json({ classes }, 200, page ? { vary: "Accept" } : undefined);
    },
  };
}
