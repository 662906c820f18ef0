/** /v1/telegram/link: the signed-in account's link to the Telegram bot (status, link code, folder, unlink); the webhook. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { makeLinkCode, setLinkFolder, telegramStatus, unlink } from './telegram-links.js';
import { receiveUpdate } from './telegram-webhook.js';

export async function telegramRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Public: Telegram posts here; the secret in the path and its header are the credential.
  serve(app, C.telegramWebhook, async (req) => {
    const header = req.headers['x-telegram-bot-api-secret-token'];
    await receiveUpdate(ctx.config, ctx.db, req.params.secret, typeof header === 'string' ? header : undefined, req.body, ctx.clock.now());
    return {};
  });
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.getTelegramLink, async (req) => telegramStatus(ctx, req.userId));
    serve(scope, C.createTelegramLinkCode, async (req) => makeLinkCode(ctx, req.userId));
    serve(scope, C.setTelegramFolder, async (req) => {
      await setLinkFolder(ctx, req.userId, req.body.folder_id);
      return telegramStatus(ctx, req.userId);
    });
    serve(scope, C.unlinkTelegram, async (req) => {
      await unlink(ctx.db, req.userId);
      return {};
    });
  });
}
