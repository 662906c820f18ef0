/** Where a request comes from, as a new session keeps it: the address the trusted proxy names, and the user agent. */
import type { FastifyRequest } from 'fastify';

/** Where a sign-in comes from: kept with its session (the address lets the owner past the account-wide slow lane). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** What a device signed in by code called itself ("Living room TV"). */
  deviceName?: string;
  /** The session that approved this sign-in (a device code): the new one is born of it. */
  parentSessionId?: string | null;
}

export const clientOf = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });
