/**
 * The Telegram bot: a person links their Telegram account with a one-time code (the bot's `/start CODE` deep link),
 * then links, magnet links and .torrent files sent to the bot become cloud downloads into the folder chosen here.
 * Telegram's ids never travel: the account sees the name Telegram shows, nothing more.
 */
import { Type, type Static } from '@sinclair/typebox';
import { route } from './define.js';
import { Empty, TimeString } from './schema-kit.js';

const tag = 'Telegram bot';
const notSetUp = 'The operator has not set a Telegram bot token on this server (HAUL_TELEGRAM_BOT_TOKEN).';

/** Minutes a link code stays good. */
export const TELEGRAM_CODE_TTL_SECONDS = 600;

export const TelegramStatusSchema = Type.Object({
  enabled: Type.Boolean({ description: 'Whether this server runs a Telegram bot (the operator set its token).' }),
  bot_username: Type.String({ description: "The bot's @username without the @; '' when the bot is off or not reached yet." }),
  linked: Type.Boolean(),
  display_name: Type.String({ description: "The linked Telegram account's name as Telegram shows it (not its id); '' when not linked." }),
  folder_id: Type.String({ description: "Where what is sent to the bot lands; '' for the top of the drive." }),
  folder_name: Type.String({ description: "That folder's name; '' for the top of the drive." }),
  linked_at: TimeString("When it was linked (RFC 3339); '' when not linked."),
});
export type TelegramStatus = Static<typeof TelegramStatusSchema>;

export const telegramRoutes = {
  getTelegramLink: route({
    method: 'GET',
    path: '/v1/telegram/link',
    tag,
    summary: 'The Telegram link of the account',
    description: "Whether the server runs a bot, and whether this account is linked to a Telegram account: its name as Telegram shows it, and the folder what is sent to the bot lands in. Telegram's ids are never answered.",
    auth: 'user',
    response: TelegramStatusSchema,
    errors: {},
  }),
  createTelegramLinkCode: route({
    method: 'POST',
    path: '/v1/telegram/link/code',
    tag,
    summary: 'Make a one-time link code',
    description: `A code good for ${TELEGRAM_CODE_TTL_SECONDS / 60} minutes and once: sending \`/start CODE\` to the bot (the \`url\`, a t.me deep link, does that in one tap; a QR code of it from a phone) links the Telegram account that sent it to this account. A new code replaces the account's earlier one.`,
    auth: 'user',
    response: Type.Object({
      code: Type.String(),
      url: Type.String({ description: "https://t.me/<bot>?start=<code>; '' when the bot's name is not known yet (send /start CODE by hand)." }),
      expires_at: TimeString('When the code stops working (RFC 3339).'),
    }),
    errors: { failed_precondition: notSetUp },
  }),
  setTelegramFolder: route({
    method: 'PUT',
    path: '/v1/telegram/link/folder',
    tag,
    summary: 'Choose where the bot saves',
    description: "The folder the cloud downloads made through the bot land in ('' for the top of the drive).",
    auth: 'user',
    body: Type.Object({ folder_id: Type.String({ maxLength: 64 }) }),
    response: TelegramStatusSchema,
    errors: {
      file_not_found: 'The folder does not exist or is not yours.',
      file_in_recycle_bin: 'The folder is in the trash.',
      failed_precondition: 'The account is not linked to Telegram.',
    },
    example: { folder_id: '' },
  }),
  telegramWebhook: route({
    method: 'POST',
    path: '/v1/telegram/webhook/:secret',
    tag,
    summary: "Telegram's webhook",
    description:
      "Where Telegram posts the bot's updates when Haul takes them by webhook (an https HAUL_PUBLIC_URL, or HAUL_TELEGRAM_WEBHOOK=on). The path's secret and Telegram's `X-Telegram-Bot-Api-Secret-Token` header must both be the one Haul gave setWebhook; the update waits in the database for the worker that handles the bot's updates, so it is answered at once.",
    auth: 'public',
    params: Type.Object({ secret: Type.String({ maxLength: 256 }) }),
    body: Type.Object({ update_id: Type.Integer({ minimum: 0 }) }, { additionalProperties: true, description: 'A Telegram Update.' }),
    response: Empty,
    errors: { permission_denied: 'The secret in the path or the header is not this bot\'s, or the server runs no bot.' },
    example: { update_id: 1, message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: '/help' } },
  }),
  unlinkTelegram: route({
    method: 'DELETE',
    path: '/v1/telegram/link',
    tag,
    summary: 'Unlink Telegram',
    description: 'Unlinks the Telegram account: the bot no longer takes anything from it for this account. Downloads it started go on. Unlinking when not linked does nothing.',
    auth: 'user',
    response: Empty,
    errors: {},
  }),
};
