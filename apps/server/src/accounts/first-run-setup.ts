/**
 * First-run setup: while no account exists (and HAUL_FIRST_RUN_SETUP is on, as by default) the server waits for its
 * operator. Sign-up and a provider's first sign-in are refused then; POST /v1/setup creates the first account as an
 * operator and signs it in. One request wins however many race: the account's row and a claim row (system_kv
 * `first_run_setup`) are written in one transaction, and a second claim finds the first.
 */
import type { TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { ClientInfo } from '../http/client-info.js';
import { createUser } from './accounts.service.js';
import { issueTokens } from './tokens.js';
import { recordAudit } from '../audit/audit.repository.js';
import { settled, setupRequired } from './setup-state.js';

const CLAIM = 'first_run_setup';

const done = () => new HttpError(409, 'failed_precondition', 'Setup is done: an account exists. Sign in instead.');

export async function completeSetup(ctx: AppContext, input: { email: string; password: string; name?: string }, client: ClientInfo): Promise<TokenResponse> {
  if (!(await setupRequired(ctx))) throw done();
  const user = await createUser(ctx, { ...input, isAdmin: true }, async (trx, row) => {
    const claimed = await trx.insertInto('system_kv').values({ key: CLAIM, value: String(ctx.clock.now()) }).onConflict((oc) => oc.column('key').doNothing()).executeTakeFirst();
    if (!Number(claimed.numInsertedOrUpdatedRows)) throw done();
    await recordAudit(trx, { action: 'admin.user.updated', subjectId: row.id, actorId: row.id, ip: client.ip, details: { is_admin: { from: false, to: true }, setup: true } }, ctx.clock.now());
  });
  settled.add(ctx.db);
  return issueTokens(ctx, user.id, client);
}
