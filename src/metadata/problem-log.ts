/** Collects model problems while the model is built, each tied to its declaration. */
import type { ClassDecl, FieldDecl } from "./declarations.ts";
import type { ModelProblem } from "./problems.ts";

export class ProblemLog {
  readonly problems: ModelProblem[] = [];

  add(decl: ClassDecl, message: string, field?: FieldDecl | string): void {
    const f = typeof field === "string" ? undefined : field;
    const source = f?.source ?? decl.source;
    this.problems.push({
      file: source.file,
      line: source.line,
      ...(source.column ? { column: source.column } : {}),
      class: decl.name,
      field: typeof field === "string" ? field : field?.name,
      message,
    });
  }
}
