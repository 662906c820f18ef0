/**
 * A client that hangs up mid-request (closes the tab, loses its network, cancels an upload) is nobody's fault on the
 * server: it must not read as a database outage (it shares the socket codes ECONNRESET and EPIPE with a dropped
 * database connection) nor count as a server error.
 */
import type { IncomingMessage } from 'node:http';

/** The status such a request is recorded with (nginx's "client closed request"); nobody is left to read it. */
export const CLIENT_CLOSED = 499;

const SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether `err` is the request's own client going away: Node's "aborted" of a request body cut short, or a socket
 * error or premature close while `req`'s own connection is closed (so a database's or blob store's broken socket,
 * with the client still there, is not mistaken for it).
 */
export function isClientAbort(err: unknown, req?: IncomingMessage): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = String(e?.code ?? '');
  const message = String(e?.message ?? '');
  if (code === 'ECONNRESET' && message === 'aborted') return true;
  if (!req || !SOCKET_CODES.has(code)) return false;
  return req.destroyed || !!req.socket?.destroyed || (req as { aborted?: boolean }).aborted === true;
}
