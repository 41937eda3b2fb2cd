/**
 * Running a JSON select (src/read/json-select.ts): its statements bound to a request's values, and
 * the rows they answer as root objects, each already its JSON text.
 */
import { base64Marks } from "../json/sql-values.ts";
import type { ClassMeta, Model } from "../metadata/model.ts";
import { bind } from "../store/sql.ts";
import { type Statement, type StatementResult, type Store, batchEventually } from "../store/store.ts";
import { type Eventually, thenNow } from "../util/eventually.ts";
import { type JsonSelect, KEY_COLUMN } from "./json-select.ts";

/** A root row: the object's JSON (null when its class is outside the model: invisible), version, class and key. */
export interface JsonRow {
  json: string | null;
  version: number | null;
  /** The runtime class (undefined for an invisible row). */
  meta: ClassMeta | undefined;
  key: unknown[];
  /** The position of the row's table group among the class's groups. */
  group: number;
}

/** The select's statements; `oneKey` when it reads one key (each statement then answers one row at most). */
export function jsonStatements(select: JsonSelect, values: Record<string, unknown>, oneKey = false): Statement[] {
  const out: Statement[] = [];
  for (const s of select.steps) {
    const statement = bind(s.compiled, values);
    if (oneKey) {
      statement.oneRow = true;
      statement.fixedCost = select.fixedCost;
    }
    out.push(statement);
  }
  return out;
}

/** The rows of the select's statements (its `results`, in order), in the selection's order. */
export function jsonRows(model: Model, select: JsonSelect, results: readonly StatementResult[]): JsonRow[] {
  const rows: (JsonRow & { ord: number })[] = [];
  for (let group = 0; group < select.steps.length; group++) {
    const width = select.steps[group]!.group.keyColumns.length;
    for (const r of results[group]!.rows) {
      const name = r[2] as string | null;
      rows.push({
        json: r[0] === null ? null : base64Marks(r[0] as string),
        version: r[1] === null || r[1] === undefined ? null : Number(r[1]),
        meta: name === null ? undefined : model.classes.get(name),
        key: r.slice(KEY_COLUMN, KEY_COLUMN + width),
        group,
        ord: select.ordered ? Number(r[KEY_COLUMN + width]) : 0,
      });
    }
  }
  // Each group's rows come in the query's order: merge them by it.
  if (select.ordered && select.steps.length > 1) rows.sort((a, b) => a.ord - b.ord);
  return rows;
}

/** Runs the select as one read batch (its rows at once when the store ran it at once). */
export function readJson(store: Store, model: Model, select: JsonSelect, values: Record<string, unknown>, oneKey = false): Eventually<JsonRow[]> {
  return thenNow(batchEventually(store, jsonStatements(select, values, oneKey), "read"), (results) => jsonRows(model, select, results));
}

/** The visible rows' JSON texts. */
export function jsonTexts(rows: readonly JsonRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) if (r.json !== null) out.push(r.json);
  return out;
}

/**
 * A JSON select's `array` row: the visible objects as one JSON array text, and what the caller
 * pages by. SQL writes the brackets too: a text made here as `"[" + texts + "]"` is a rope that the
 * server must copy before it sends it, which cost an extent of 100 about 40 µs of CPU a request on
 * Node and 50 on Bun (test/bench/README.md, seventeenth part).
 */
export interface JsonArray {
  /** `[` the texts joined by commas `]` (`[]` for none). */
  array: string;
  /** Rows read, visible or not. */
  rows: number;
  visible: number;
  /** The key of the row with the greatest key, and its text (null when it is invisible). */
  lastKey: unknown;
  lastText: string | null;
}

export function readJsonArray(store: Store, select: JsonSelect, values: Record<string, unknown>): Eventually<JsonArray> {
  const statement = bind(select.array!, values);
  statement.oneRow = true;
  return thenNow(batchEventually(store, [statement], "read"), jsonArrayOf);
}

function jsonArrayOf([result]: StatementResult[]): JsonArray {
  const [a, n, m, k, t] = result!.rows[0]!;
  return {
    array: base64Marks(a as string),
    rows: Number(n),
    visible: Number(m),
    lastKey: k,
    lastText: t === null ? null : base64Marks(t as string),
  };
}
