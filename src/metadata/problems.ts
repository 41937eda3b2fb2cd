/**
 * Model problems: everything wrong with a model is collected and reported at once, each problem
 * pointing at its file, class and field, so a user fixes a model in one pass.
 */
export interface ModelProblem {
  file: string;
  line?: number;
  /** From 1; given where the source knows it (Java sources). */
  column?: number;
  class?: string;
  field?: string;
  message: string;
}

export function formatProblem(p: ModelProblem): string {
  const where = [p.line ? `${p.file}:${p.line}${p.column ? `:${p.column}` : ""}` : p.file, p.class && `class ${p.class}`, p.field && `field ${p.field}`]
    .filter(Boolean)
    .join(", ");
  return `${where}: ${p.message}`;
}

/** Thrown at start-up when the model or the configuration cannot work. */
export class ModelError extends Error {
  readonly problems: readonly ModelProblem[];
  constructor(found: readonly ModelProblem[]) {
    // In document order, so a user reads them as they fix the files.
    const problems = [...found].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    super(`The model has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` + problems.map((p) => "  " + formatProblem(p)).join("\n"));
    this.name = "ModelError";
    this.problems = problems;
  }
}
