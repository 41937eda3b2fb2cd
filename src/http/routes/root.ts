/** `GET /`: the persistent classes the model serves. */
import { json } from "../answers.ts";
import type { Resource } from "../resource.ts";

export const root: Resource = {
  path: "/",
  what: "the root",
  GET: (c) => json({ classes: [...c.get("rt").model.classes.values()].filter((m) => !m.embeddedOnly).map((m) => m.name) }),
};
