/** The account's link to the server's Telegram bot. */
import { haul } from '../../lib/api-client';

export const TELEGRAM_KEY = 'telegram-link';

export const getTelegramLink = (signal?: AbortSignal) => haul.call('getTelegramLink', { signal });
export const makeTelegramCode = () => haul.call('createTelegramLinkCode', {});
export const setTelegramFolder = (folderId: string) => haul.call('setTelegramFolder', { body: { folder_id: folderId } });
export const unlinkTelegram = () => haul.call('unlinkTelegram', {});
