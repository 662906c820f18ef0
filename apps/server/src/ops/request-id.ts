/**
 * Request ids that follow work across processes: an X-Request-Id from a proxy or a client is kept when it is short and
 * plain (so it cannot forge log lines or blow up their size), else a new one is made; every answer echoes it, and a
 * task a request creates records it, so the worker's lines for that task carry the same reqId (tasks/task-queue.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Long enough for a UUID, a trace id or a proxy's own ids; longer ones are replaced. */
export const REQUEST_ID_MAX = 128;
const SAFE = /^[A-Za-z0-9._:+/=-]+$/;

/** The caller's id when it is acceptable, else null. */
export function acceptedRequestId(raw: string | string[] | undefined): string | null {
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (!v || v.length > REQUEST_ID_MAX || !SAFE.test(v)) return null;
  return v;
}

/** Fastify options: the id comes from genReqId alone (Fastify's own header option would take any value as is). */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId: (req: IncomingMessage) => acceptedRequestId(req.headers[REQUEST_ID_HEADER]) ?? randomUUID(),
};

/** Echoes the id in every answer, errors and 404s included, so a caller can quote it when reporting a problem. */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
}
