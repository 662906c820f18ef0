/** What the request log keeps of a request: an access token passed in the query (the seeds allow it) never reaches a log. */
import type { FastifyRequest } from 'fastify';

export function redactUrl(url: string): string {
  return url.replace(/([?&]access_token=)[^&#]*/gi, '$1[redacted]');
}

/** Fastify's own request fields, with the URL redacted. */
export function logRequest(req: FastifyRequest) {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
