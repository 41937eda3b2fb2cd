/**
 * From a persistence context's metadata (XML texts, object-form models, declarations) to the
 * normalized model. Every source's problems are collected before anything fails, so one start-up
 * lists every problem of the model.
 */
import type { PersistenceContext } from "../config/context.ts";
import { buildModel } from "./build.ts";
import type { MetadataDocument } from "./declarations.ts";
import { readJdoXml } from "./jdo-xml.ts";
import type { Model } from "./model.ts";
import { readObjectModel } from "./object-form.ts";
import { ModelError, type ModelProblem } from "./problems.ts";

export function loadModel(context: Pick<PersistenceContext, "metadata" | "models" | "documents">): Model {
  const problems: ModelProblem[] = [];
  const documents: MetadataDocument[] = [...(context.documents ?? [])];
  (context.models ?? []).forEach((m, i) => {
    try {
      documents.push(readObjectModel(m, `model object #${i + 1}`));
    } catch (error) {
      if (error instanceof ModelError) problems.push(...error.problems);
      else throw error;
    }
  });
  for (const { source, text } of context.metadata ?? []) {
    if (/<entity-mappings[\s>]/.test(text)) {
      problems.push({ file: source, message: "JPA orm.xml metadata is not supported yet; use JDO XML (.jdo/.orm) or the object form" });
      continue;
    }
    const read = readJdoXml(text, source);
    problems.push(...read.problems);
    documents.push(read.document);
  }
  if (problems.length) throw new ModelError(problems);
  if (!documents.some((d) => d.classes.length)) throw new ModelError([{ file: "persistence context", message: "the model has no persistent classes: give metadata files or models" }]);
  return buildModel(documents);
}
