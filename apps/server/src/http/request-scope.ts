/** A value kept in an AsyncLocalStorage for the whole of each request's handling (its link base, its client). */
import { AsyncResource, type AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Enters `valueOf(req)` in `storage` for the rest of each request's handling. Validation and the handler run from the
 * request body's 'end' event, which some Node versions deliver in the socket's async context rather than ours
 * (nodejs/node#34430): the request's scope is entered again there, as @fastify/request-context does.
 */
export function installRequestScope<T>(app: FastifyInstance, storage: AsyncLocalStorage<T>, valueOf: (req: FastifyRequest) => T, name: string): void {
  const scopes = new WeakMap<FastifyRequest, AsyncResource>();
  app.addHook('onRequest', (req, _reply, done) => {
    storage.run(valueOf(req), () => {
      const scope = new AsyncResource(name);
      scopes.set(req, scope);
      scope.runInAsyncScope(done);
    });
  });
  app.addHook('preValidation', (req, _reply, done) => {
    const scope = scopes.get(req);
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
}
