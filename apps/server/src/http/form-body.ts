/**
 * OAuth endpoints speak application/x-www-form-urlencoded (RFC 6749 §4.1.3, RFC 8628 §3.1), and standard client
 * libraries send nothing else; JSON is accepted there too. Only the scope this is installed in takes form bodies:
 * every other route keeps answering 415 to anything but JSON.
 */
import type { FastifyInstance } from 'fastify';

export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    // A repeated field keeps its first value; the schema then checks types and lengths as for JSON.
    const out: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body as string)) if (!(k in out)) out[k] = v;
    done(null, out);
  });
}
