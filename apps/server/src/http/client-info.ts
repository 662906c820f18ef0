/** Where a request comes from, as a new session keeps it: the address the trusted proxy names, and the user agent. */
import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../accounts/tokens.js';

export const clientOf = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
