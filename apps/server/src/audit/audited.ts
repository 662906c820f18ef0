/** Records a security event of the calling account, from where the request came (the routes' one line). */
import type { AuditAction } from '@haul/shared';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { recordAudit } from './audit.repository.js';

export const auditCaller = (ctx: AppContext, req: FastifyRequest, action: AuditAction, details?: Record<string, unknown>) =>
  recordAudit(ctx.db, { action, subjectId: req.userId, actorId: req.userId, ip: req.ip, details }, ctx.clock.now());
