/**
 * From a persistence context's metadata (decorated classes, object-form models, declarations,
 * JDO and JPA XML texts) to the normalized model. Code comes first and XML after it, so XML
 * overrides code for the same class, as in JDO. Every source's problems are collected before
 * anything fails, so one start-up lists every problem of the model.
 */
import type { PersistenceContext } from "./context.ts";
import { buildModel } from "../metadata/build.ts";
import type { MetadataDocument } from "../metadata/declarations.ts";
import { readDecoratedClasses } from "../metadata/decorators/read.ts";
import { readJdoXml } from "../metadata/jdo-xml.ts";
import type { JpaClass } from "../metadata/jpa/model.ts";
import { isOrmXml, readOrmXml } from "../metadata/jpa/orm-xml.ts";
import { translateJpa } from "../metadata/jpa/translate.ts";
import type { Model } from "../metadata/model.ts";
import { readObjectModel } from "../metadata/object-form.ts";
import { ModelError, type ModelProblem } from "../metadata/problems.ts";

type ModelSources = Pick<PersistenceContext, "metadata" | "models" | "documents" | "jpaClasses" | "classes" | "package">;

export function loadModel(context: ModelSources): Model {
  const { documents, problems } = readDocuments(context);
  if (!problems.length) return buildModel(documents);
  // The sources had problems of their own: build what they said anyway, so one start-up lists
  // the model's problems too (unknown types, mapped-by, discriminators, ...).
  try {
    buildModel(documents);
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    const seen = new Set(problems.map(problemKey));
    for (const p of error.problems) if (!seen.has(problemKey(p))) problems.push(p);
  }
  throw new ModelError(problems);
}

/**
 * A model's sources read into declarations, one document per source, and the problems met: what
 * `buildModel` takes. A prepared model (`extent model`, src/cli/) is these documents as JSON, so a
 * runtime that starts often (a worker's cold isolate) builds its model without reading XML.
 */
export function readDocuments(context: ModelSources): { documents: MetadataDocument[]; problems: ModelProblem[] } {
  const problems: ModelProblem[] = [];
  const decorated = readDecoratedClasses(context.classes ?? [], { package: context.package });
  problems.push(...decorated.problems);
  const documents: MetadataDocument[] = [...decorated.documents, ...(context.documents ?? [])];
  (context.models ?? []).forEach((m, i) => {
    try {
      documents.push(readObjectModel(m, `model object #${i + 1}`));
    } catch (error) {
      if (error instanceof ModelError) problems.push(...error.problems);
      else throw error;
    }
  });

  // orm.xml documents are translated together: an embedded id may name another document's embeddable.
  const orm: { document: MetadataDocument; classes: JpaClass[] }[] = [];
  for (const { source, text } of context.metadata ?? []) {
    if (isOrmXml(text)) {
      const read = readOrmXml(text, source);
      problems.push(...read.problems);
      // Its place in the order is kept now; its classes come once every orm.xml is read.
      const document: MetadataDocument = { source, classes: [] };
      documents.push(document);
      orm.push({ document, classes: read.classes });
      continue;
    }
    const read = readJdoXml(text, source);
    problems.push(...read.problems);
    documents.push(read.document);
  }
  const everyJpaClass = [...decorated.jpaClasses, ...(context.jpaClasses ?? []), ...orm.flatMap((o) => o.classes)];
  for (const { document, classes } of orm) {
    const translated = translateJpa(classes, everyJpaClass);
    problems.push(...translated.problems);
    document.classes.push(...translated.classes);
  }

  if (!documents.some((d) => d.classes.length)) {
    throw new ModelError(
      problems.length
        ? problems
        : [{ file: "persistence context", message: "the model has no persistent classes: give decorated classes, metadata files or models" }],
    );
  }
  return { documents, problems };
}

const problemKey = (p: ModelProblem) => `${p.file}:${p.line}:${p.class}:${p.field}:${p.message}`;
