/** Domain errors carry a wire error name and an HTTP status; one handler turns every failure into the error object. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { errorBody, type ErrorName } from '@haul/shared';

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
    req.log.error(err);
    return reply.status(500).send(errorBody('internal', 'Something went wrong on the server.'));
  });
}
