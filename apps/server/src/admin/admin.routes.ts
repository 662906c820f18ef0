/** /admin/v1: the operator's console (accounts, shares held, blocked words, the system, run-time settings, the audit log); every route behind requireAdmin. */
import { listInvitations } from './admin-invitations.service.js';
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { AccountEraser } from '../accounts/account-erasure.js';
import { serve } from '../http/contract.js';
import { listAudit } from '../audit/audit.repository.js';
import { presentAudit } from '../audit/audit.presenter.js';
import { requireAdmin } from './admin-policy.js';
import { getBlockedWords, moderateShare, replaceBlockedWords, shareDetail, topShares } from './admin-shares.service.js';
import { systemStatus } from './admin-system.service.js';
import { configStatus, processesStatus, statsStatus, storageStatus } from './admin-health.service.js';
import { queuesStatus, retryJob } from './admin-jobs.service.js';
import { runTimeSettings, updateRunTimeSettings } from '../ops/run-time-settings.js';
import { saveProductAsOperator, sendTestMail } from './admin-setup.service.js';
import { listUsers, signOutUser, updateUser, userDetail } from './admin-users.service.js';
import { accountGrants, createAccount, deleteAccount, grantPlan, sendPasswordReset } from './admin-accounts.service.js';
import { createCodesAsOperator, listCodes, listOrders, listProducts, refundAsOperator, retireProductAsOperator, revokeCode } from './admin-money.service.js';

export async function adminRoutes(app: FastifyInstance, ctx: AppContext, eraser: AccountEraser): Promise<void> {
  await app.register(async (scope) => {
    requireAdmin(scope, ctx);
    serve(scope, C.adminListUsers, (req) => listUsers(ctx.db, { q: req.query.q, limit: req.query.limit ?? 50, pageToken: req.query.page_token }));
    serve(scope, C.adminGetUser, (req) => userDetail(ctx, req.params.id));
    serve(scope, C.adminUpdateUser, (req) => updateUser(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body));
    serve(scope, C.adminSignOutUser, async (req) => {
      await signOutUser(ctx, { id: req.userId, ip: req.ip }, req.params.id);
      return {};
    });
    serve(scope, C.adminCreateUser, (req) => createAccount(ctx, { id: req.userId, ip: req.ip }, req.body));
    serve(scope, C.adminResetPassword, (req) => sendPasswordReset(ctx, { id: req.userId, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') }, req.params.id));
    serve(scope, C.adminListGrants, (req) => accountGrants(ctx, req.params.id));
    serve(scope, C.adminGrant, (req) => grantPlan(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body.grant));
    serve(scope, C.adminDeleteUser, async (req) => {
      await deleteAccount(ctx, { id: req.userId, ip: req.ip }, req.params.id, (id) => eraser.kick(id));
      return {};
    });
    serve(scope, C.adminGetShare, (req) => shareDetail(ctx, req.params.id));
    serve(scope, C.adminTopShares, async (req) => ({ shares: await topShares(ctx, req.query.order, req.query.limit ?? 20) }));
    serve(scope, C.adminModerateShare, (req) => moderateShare(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body));
    serve(scope, C.adminGetBlockedWords, () => getBlockedWords(ctx));
    serve(scope, C.adminSetBlockedWords, (req) => replaceBlockedWords(ctx, { id: req.userId, ip: req.ip }, req.body.words));
    serve(scope, C.adminSystem, () => systemStatus(ctx));
    serve(scope, C.adminStorage, () => storageStatus(ctx));
    serve(scope, C.adminQueues, () => queuesStatus(ctx));
    serve(scope, C.adminRetryJob, (req) => retryJob(ctx, { id: req.userId, ip: req.ip, requestId: req.id }, req.params.kind, req.params.id));
    serve(scope, C.adminProcesses, () => processesStatus(ctx));
    serve(scope, C.adminConfig, async () => configStatus(ctx));
    serve(scope, C.adminStats, (req) => statsStatus(ctx, req.query.days ?? 30));
    serve(scope, C.adminGetSettings, () => runTimeSettings(ctx));
    serve(scope, C.adminTestMail, (req) => sendTestMail(ctx, req.userId));
    serve(scope, C.adminSaveProduct, (req) => saveProductAsOperator(ctx, { id: req.userId, ip: req.ip }, req.body));
    serve(scope, C.adminListProducts, () => listProducts(ctx));
    serve(scope, C.adminRetireProduct, (req) => retireProductAsOperator(ctx, { id: req.userId, ip: req.ip }, req.params.id));
    serve(scope, C.adminListOrders, (req) => listOrders(ctx, { email: req.query.email, status: req.query.status, limit: req.query.limit ?? 50, pageToken: req.query.page_token }));
    serve(scope, C.adminRefundOrder, (req) => refundAsOperator(ctx, { id: req.userId, ip: req.ip }, req.params.id));
    serve(scope, C.adminListCodes, (req) => listCodes(ctx, { limit: req.query.limit ?? 50, pageToken: req.query.page_token }));
    serve(scope, C.adminListInvitations, (req) => listInvitations(ctx, { userId: req.query.user_id, limit: req.query.limit ?? 50, pageToken: req.query.page_token }));
    serve(scope, C.adminCreateCodes, (req) => createCodesAsOperator(ctx, { id: req.userId, ip: req.ip }, req.body));
    serve(scope, C.adminRevokeCode, (req) => revokeCode(ctx, { id: req.userId, ip: req.ip }, req.params.id));
    serve(scope, C.adminUpdateSettings, (req) => updateRunTimeSettings(ctx, { id: req.userId, ip: req.ip }, req.body));
    serve(scope, C.adminListAudit, async (req) => {
      const page = await listAudit(ctx.db, { subjectId: req.query.user_id, action: req.query.action, limit: req.query.limit ?? 50, pageToken: req.query.page_token });
      return { events: await presentAudit(ctx.db, page.rows), next_page_token: page.nextPageToken };
    });
  });
}
