/**
 * Errors as RFC 9457 problem documents. What the HTTP layer itself refuses (a body's media type, a
 * header, the request's size) is an `HttpError` with its status; the layers below throw domain
 * errors (src/errors/), which src/http/error-status.ts turns into these documents.
 */
import type { FieldProblem } from "../errors/request-errors.ts";

export interface ProblemExtras {
  errors?: FieldProblem[];
  position?: { line: number; column: number; offset: number };
  expected?: string[];
  headers?: Record<string, string>;
}

export const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
    this.name = "HttpError";
  }
}

export const PROBLEM_TYPE = "application/problem+json; charset=utf-8";

export function problem(status: number, detail: string, extras: ProblemExtras = {}, instance?: string): Response {
  return new Response(problemText(status, detail, extras, instance), {
    status,
    headers: { "content-type": PROBLEM_TYPE, ...extras.headers },
  });
}

/** The problem document's JSON text (for answers written without a Response, see src/runtime/node-client-errors.ts). */
export function problemText(status: number, detail: string, extras: ProblemExtras = {}, instance?: string): string {
  const body: Record<string, unknown> = {
    type: `https://extent.dev/problems/${status}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
  };
  if (instance) body.instance = instance;
  if (extras.errors) body.errors = extras.errors;
  if (extras.position) body.position = extras.position;
  if (extras.expected) body.expected = extras.expected;
  return JSON.stringify(body);
}
