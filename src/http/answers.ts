/** How routes write their answers: JSON text as it is (JSON selects write it) or from a value, and 304 for collections. */
import { stringify } from "../json/exact.ts";
import { fromText } from "./compress.ts";
import { collectionNotModified } from "./conditional.ts";
import type { RouteRequest } from "./resource.ts";
import type { Eventually } from "../util/eventually.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

/** A JSON answer from its text, or a stream of it (streamed extents and query answers). (For HEAD, Hono drops the body.) */
export function jsonText(body: string | ReadableStream<Uint8Array>, status = 200, headers?: Record<string, string>): Response {
  const all: Record<string, string> = { "content-type": JSON_TYPE };
  if (headers) for (const name in headers) all[name] = headers[name]!;
  const response = new Response(body, { status, headers: all });
  // A text's length tells compression at once whether it is worth it; a stream is judged as it comes.
  return typeof body === "string" ? fromText(response, body) : response;
}

/** A 200 JSON answer from its text or stream (one argument: for `thenNow`). */
export const jsonAnswer = (body: string | ReadableStream<Uint8Array>): Response => jsonText(body);

/** A JSON answer from a value. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return jsonText(stringify(body), status, headers);
}

/** A collection's answer (extent, filter, query), unless a precondition says 412 or 304; at once when `answer` has it at once. */
export function unlessNotModified(r: RouteRequest, what: string, answer: () => Eventually<Response>): Eventually<Response> {
  return collectionNotModified(r.raw, what) ? new Response(null, { status: 304 }) : answer();
}
