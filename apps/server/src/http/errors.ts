/** Domain errors carry a wire error name and an HTTP status; one handler turns every failure into the error object. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { errorBody, type ErrorName } from '@haul/shared';
import { CLIENT_CLOSED, isClientAbort } from './client-abort.js';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorName,
    message: string,
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
}

export const badInput = (message: string) => new HttpError(400, 'invalid_argument', message);
export const notFound = (message = 'The file does not exist.') => new HttpError(404, 'file_not_found', message);
export const unauthenticated = (message = 'Please sign in.') => new HttpError(401, 'unauthenticated', message);

/** PostgreSQL codes of a server that is going away or not there yet (admin shutdown, crash, starting up, too many clients). */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
const NET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'SQLITE_BUSY', 'SQLITE_LOCKED']);

/**
 * Whether a failure means the database cannot be reached right now (restarting, failing over, a dropped connection,
 * SQLite busy past its timeout): the request is worth repeating, and nothing was changed by it.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isClientAbort(err)) return false;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = String(e?.code ?? '');
  if (PG_UNAVAILABLE.has(code) || NET_UNAVAILABLE.has(code) || code.startsWith('08')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(String(e?.message ?? ''));
}

/** The 503 answer of a database that is away. */
export const databaseUnavailable = () => new HttpError(503, 'unavailable', 'The server cannot reach its database right now. Please try again in a moment.');

/** Whether a failure is the server's disk (or its database's) running out of space. */
export function isDiskFull(err: unknown): boolean {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100';
}

/** The 507 answer of a server whose disk is full: nothing was kept, and the same request works once space is freed. */
export const diskFull = () =>
  new HttpError(507, 'resource_exhausted', "The server's disk is full, so nothing more can be stored right now. Reading files still works; try again once space is freed.");

/** Installs the error handler that answers every failure with the error object. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.status).send(errorBody(err.error, err.message, err.details));
    }
    const e = err as FastifyError;
    if (e.validation) {
      const where = e.validationContext ?? 'request';
      const first = e.validation[0];
      const field = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : (first?.params as { missingProperty?: string })?.missingProperty;
      const msg = `Invalid ${where}${field ? ` field "${field}"` : ''}: ${first?.message ?? 'bad value'}.`;
      return reply.status(400).send(errorBody('invalid_argument', msg));
    }
    if (e.statusCode === 413) return reply.status(413).send(errorBody('payload_too_large', 'The request body is too large.'));
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.status(e.statusCode).send(errorBody('invalid_argument', e.message));
    }
    // Before the database check: a hang-up has the same socket codes (ECONNRESET, EPIPE) as a dropped database link.
    if (isClientAbort(err, req.raw)) {
      req.log.info({ reason: (err as Error).message }, 'client closed the request');
      return reply.status(CLIENT_CLOSED).send();
    }
    if (isDiskFull(err)) {
      req.log.error({ err: (err as Error).message }, 'disk full');
      const full = diskFull();
      return reply.status(full.status).send(errorBody(full.error, full.message));
    }
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: (err as Error).message }, 'database unavailable');
      const away = databaseUnavailable();
      return reply.status(503).header('Retry-After', '5').send(errorBody(away.error, away.message));
    }
    req.log.error(err);
    return reply.status(500).send(errorBody('internal', 'Something went wrong on the server.'));
  });
}
