/**
 * Node's HTTP parser refuses some requests before any handler sees them: a request head larger
 * than the server's `maxHeaderSize`, bytes that are not HTTP/1.1, a head that takes too long.
 * Node answers those with a bare status line; this answers them as problem documents, as every
 * other error: 414 when the request line is what is too long (a URL past `urlBytes`), 431 when
 * the other header fields are, 408 and 400 for the rest.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { PROBLEM_TYPE, TITLES, problemText } from "../http/problem.ts";

type ClientError = Error & { code?: string; rawPacket?: Buffer };

/**
 * How long a refused connection is read (and what it sends dropped) after its answer: closing a
 * socket with unread bytes resets the connection, and the client may lose the answer with it.
 */
const LINGER_MS = 2000;

export function answerClientErrors(server: Server, urlBytes: number, maxHeaderSize: number): void {
  const answered = new WeakSet<Socket>();
  const longLines = watchFirstLines(server, urlBytes);
  server.on("clientError", (error: ClientError, socket: Socket) => {
    // The rest of a refused request: the parser fails on each packet of it; it is dropped.
    if (answered.has(socket)) return;
    // As Node's own answer: only on a socket that is open and has no response under way.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) return void socket.destroy(error);
    const [status, detail] = refusal(error, urlBytes, maxHeaderSize, longLines.has(socket));
    const body = problemText(status, detail);
    answered.add(socket);
    socket.end(
      `HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once("close", () => clearTimeout(timer));
  });
}

function refusal(error: ClientError, urlBytes: number, maxHeaderSize: number, longLine: boolean): [number, string] {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return longLine || urlTooLong(error.rawPacket, urlBytes)
      ? [414, `the request target is longer than the ${urlBytes} bytes this server takes (limit urlBytes): send less in the query, or a shorter key`]
      : [
          431,
          `the request's head (its URL and header fields) is larger than the ${maxHeaderSize} bytes this server reads: send fewer or shorter header fields`,
        ];
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return [408, "the request's head did not arrive in time"];
  return [400, "the request is not valid HTTP/1.1"];
}

/**
 * Whether the head overflowed in its request line: the packet the parser stopped in starts the
 * request, and its line does not end within `urlBytes` (plus the method and version around the
 * target). A packet that continues a head (a slow client) does not tell: 431 covers both then.
 */
function urlTooLong(packet: Buffer | undefined, urlBytes: number): boolean {
  if (!packet || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(packet.toString("latin1", 0, 32))) return false;
  const end = packet.indexOf("\n");
  if (end < 0) return true;
  const line = packet.toString("latin1", 0, end).trim();
  return line.slice(line.indexOf(" ") + 1, line.lastIndexOf(" ")).length > urlBytes;
}

/**
 * The connections whose first request line ran past `urlBytes` (plus its method and version)
 * before it ended: the parser may stop in a later packet than the line's first (the client's
 * write split in packets), which alone would not tell a long URL from long header fields. Each
 * connection is watched until its first line ends (in its first packet, nearly always), so a
 * request costs nothing more.
 */
function watchFirstLines(server: Server, urlBytes: number): WeakSet<Socket> {
  const long = new WeakSet<Socket>();
  const most = urlBytes + LINE_AROUND_TARGET;
  server.on("connection", (socket: Socket) => {
    let seen = 0;
    const watch = (chunk: Buffer) => {
      const end = chunk.indexOf(10);
      if (end < 0 ? seen + chunk.length > most : seen + end > most) long.add(socket);
      seen += chunk.length;
      if (end >= 0 || long.has(socket)) socket.off("data", watch);
    };
    // Before the HTTP parser's own listener: the packet it overflows in is counted first.
    socket.prependListener("data", watch);
  });
  return long;
}

/** Room for the method and `HTTP/1.1` around the target on a request line. */
const LINE_AROUND_TARGET = 32;
