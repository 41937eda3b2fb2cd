/**
 * A JSON array written page by page: the same text as `JSON.stringify` of the whole array (`[`,
 * the elements joined by `,`, `]`), as a web-standard ReadableStream that reads a page only when
 * the client has taken the previous one. A slow client therefore holds the server to one page,
 * not the whole array.
 */

/** One page of an array's elements, each already JSON text, and how to read the page after it. */
export interface ArrayPage {
  elements: string[];
  /** The elements as one JSON array text, when its reader has it so: answered as it is when this is the only page. */
  array?: string;
  /** Absent on the last page. */
  next?: () => Promise<ArrayPage>;
}

/** The elements of a JSON array text, joined by commas as they stand between its brackets ('' for none). */
export const arrayElements = (array: string): string => array.slice(1, -1);

/**
 * The answer's body. A single page is plain text, exactly as before streaming (so small answers
 * keep their Content-Length). Otherwise a stream that starts with the page already read; a page
 * that fails later can only abort the stream (the status is sent), after `onError`.
 */
export function jsonArrayBody(first: ArrayPage, onError: (error: unknown) => void): string | ReadableStream<Uint8Array> {
  if (!first.next) return first.array ?? `[${first.elements.join(",")}]`;
  const encoder = new TextEncoder();
  let next = first.next;
  // Dropped once sent: the stream's callbacks share this scope for as long as it is read.
  let firstElements: string[] | undefined = first.elements;
  let written = 0;
  let cancelled = false;
  // A comma before a page's elements when elements came before (a page may have none: its rows
  // were all of classes outside the model).
  const chunk = (elements: string[], end = "") => {
    const text = (written && elements.length ? "," : "") + elements.join(",") + end;
    written += elements.length;
    return encoder.encode(text);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // The bracket and the first page as two chunks: @hono/node-server reads up to two chunks
        // before it sends the head (to give short bodies a Content-Length), and when the second
        // is not ready it waits for it, which would hold the first byte until a second page is read.
        controller.enqueue(encoder.encode("["));
        controller.enqueue(chunk(firstElements!));
        firstElements = undefined;
      },
      async pull(controller) {
        try {
          const page = await next();
          if (cancelled) return;
          controller.enqueue(chunk(page.elements, page.next ? "" : "]"));
          if (page.next) next = page.next;
          else controller.close();
        } catch (error) {
          if (cancelled) return;
          onError(error);
          controller.error(error);
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    // Pull only when the client has asked for a chunk: no page is read ahead of it.
    { highWaterMark: 0 },
  );
}
