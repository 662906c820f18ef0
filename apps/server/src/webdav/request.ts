/** What every WebDAV handler is handed, and the pieces of HTTP they share: bodies, answers, lock and If checks. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { DavError, ifHolds, liveLocks, parseIf, requireTokens, submittedTokens, type Lock, type WriteTarget } from './locks.js';
import type { DavPath } from './paths.js';
import { etagOfRow } from './props.js';
import { resolve } from './tree.js';
import { parseXml, XML_HEAD, type XmlElement } from './xml.js';

export interface DavRequest {
  ctx: AppContext;
  req: FastifyRequest;
  reply: FastifyReply;
  userId: string;
  path: DavPath;
  now: number;
}

/** XML bodies larger than this are refused: a property update or a lock request is a few kilobytes. */
const XML_LIMIT = 1024 * 1024;

/** Whether the request carries a body (a length above 0, or chunked). */
export const hasBody = (req: FastifyRequest) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/** Reads the request body as text (up to 1 MiB; 413 past it). */
export async function readText(req: FastifyRequest): Promise<string> {
  if (!hasBody(req)) return '';
  if (Number(req.headers['content-length'] ?? 0) > XML_LIMIT) throw new HttpError(413, 'payload_too_large', 'The request body is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > XML_LIMIT) throw new HttpError(413, 'payload_too_large', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The parsed XML body, or null when there is none. */
export async function readXml(req: FastifyRequest): Promise<XmlElement | null> {
  const text = await readText(req);
  return text.trim() ? parseXml(text) : null;
}

export function sendMultistatus(reply: FastifyReply, responses: string[]): FastifyReply {
  return reply
    .status(207)
    .header('Content-Type', 'application/xml; charset=utf-8')
    .send(`${XML_HEAD}<D:multistatus xmlns:D="DAV:">${responses.join('')}</D:multistatus>`);
}

/** A status line for propstat and response elements. */
export const statusLine = (code: number) => `HTTP/1.1 ${code} ${STATUS_TEXT[code] ?? 'Status'}`;
const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 412: 'Precondition Failed', 423: 'Locked', 424: 'Failed Dependency', 507: 'Insufficient Storage' };

/** The account's live locks, read once per request. */
export async function locksOf(d: DavRequest): Promise<Lock[]> {
  return liveLocks(d.ctx.db, d.userId, d.now);
}

/**
 * The checks before a write: the If header holding (else 412), then every lock applying to `targets` submitted
 * (else 423). Returns the locks read.
 */
export async function checkWrite(d: DavRequest, targets: WriteTarget[]): Promise<Lock[]> {
  const locks = await locksOf(d);
  await requireIf(d, locks);
  requireTokens(locks, submittedTokens(parseIf(d.req.headers.if as string | undefined)), targets);
  return locks;
}

/** 412 unless the If header holds. */
export async function requireIf(d: DavRequest, locks: Lock[]): Promise<void> {
  const lists = parseIf(d.req.headers.if as string | undefined);
  const etagOf = async (key: string) => {
    const r = await resolve(d.ctx.db, d.userId, key ? key.slice(1).split('/') : []);
    return r ? etagOfRow(r) : null;
  };
  if (!(await ifHolds(lists, d.path.key, locks, etagOf))) throw new DavError(412);
}
