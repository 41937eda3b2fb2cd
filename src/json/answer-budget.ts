/**
 * The `answerBytes` limit where JavaScript builds an answer: the object path's serializer and a
 * query's projected rows spend from a budget as they write, and stop with `AnswerTooLargeError`
 * the moment it is spent, before the rest is built. (Where SQL writes the answer, its text is
 * checked in SQL: src/read/json-select.ts.)
 */
import { AnswerTooLargeError } from "../errors/capacity-errors.ts";

export class AnswerBudget {
  private spent = 0;

  constructor(readonly limit: number) {}

  /** Counts `bytes` more of the answer (an estimate from below: what is certainly written). */
  spend(bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.limit) throw new AnswerTooLargeError(this.limit);
  }

  /** A finished text: within the limit, or AnswerTooLargeError. */
  checked<T extends string>(text: T): T {
    if (text.length > this.limit) throw new AnswerTooLargeError(this.limit);
    return text;
  }
}
