/**
 * Demo data: `{ "class": [objects] }` POSTed through the handler itself (so it is validated like
 * any request) for each class whose extent is still empty.
 */
import type { RestHandler } from "../handler.ts";

export async function seedIfEmpty(handler: Pick<RestHandler, "fetch">, data: Record<string, unknown[]>, prefix = ""): Promise<number> {
  let count = 0;
  for (const [className, objects] of Object.entries(data)) {
    const url = `http://seed.local${prefix}/${className}`;
    const existing = (await (await handler.fetch(new Request(url))).json()) as unknown[];
    if (existing.length) continue;
    for (const object of objects) {
      const response = await handler.fetch(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(object) }));
      if (response.status !== 201) throw new Error(`seed ${className}: ${response.status} ${await response.text()}`);
      count++;
    }
  }
  return count;
}
