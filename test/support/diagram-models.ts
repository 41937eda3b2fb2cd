/** The test models whose class diagrams are checked (test/model-diagram.test.ts) and drawn by Mermaid (test/explorer-browser.test.ts). */
import { readFileSync } from "node:fs";
import type { PersistenceContext } from "../../src/config/context.ts";
import { tckCompanyModel } from "../fixtures/tck-company.ts";

type ModelParts = Pick<PersistenceContext, "metadata" | "classes" | "name">;
const ROOT = new URL("../..", import.meta.url).pathname;
const jdoFile = (path: string): ModelParts => ({ name: path, metadata: [{ source: path, text: readFileSync(`${ROOT}${path}`, "utf8") }] });
const JDO_MODELS = ["types", "identity", "jpql", "relations", "inheritance", "fetch", "jdoql-features", "versions", "exact"];

export const DIAGRAM_MODELS: { name: string; model: () => Promise<ModelParts> }[] = [
  ...JDO_MODELS.map((m) => ({ name: `test/models/${m}`, model: async () => jdoFile(`test/models/${m}/package.jdo`) })),
  { name: "TCK company, application identity", model: async () => ({ name: "tck", ...tckCompanyModel("applicationidentity") }) },
  { name: "TCK company, datastore identity", model: async () => ({ name: "tck", ...tckCompanyModel("datastoreidentity") }) },
];
