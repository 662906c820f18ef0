/**
 * A document sent to the bot, fetched from the Bot API's file path through the network guard like every other fetch.
 * The address is always built from the configured API base (Telegram's `file_path` is only a path under it), no
 * redirect is followed, and the body is capped. The guard allows a private address for the API host only when the
 * operator named the API base (HAUL_TELEGRAM_API_BASE, say a local Bot API server) or allows private networks at all.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Config } from '../config.js';
import { BlockedAddressError, guardedLookup, isPublicAddress } from '../offline/network-guard.js';

export const DEFAULT_TELEGRAM_API_BASE = 'https://api.telegram.org';

export class TelegramFileError extends Error {}

/** Whether the guard lets the API host be private: an API base the operator chose is theirs to trust. */
export function apiHostMayBePrivate(config: Pick<Config, 'allowPrivateNetwork' | 'telegramApiBase'>): boolean {
  return config.allowPrivateNetwork || config.telegramApiBase !== DEFAULT_TELEGRAM_API_BASE;
}

/** The bytes of the file at Telegram's `filePath`, at most `maxBytes` (more is refused, not cut). */
export async function downloadTelegramFile(config: Config, filePath: string, maxBytes: number, timeoutMs = 30_000): Promise<Buffer> {
  if (!config.telegramBotToken) throw new TelegramFileError('no bot token');
  if (!/^[\w.\-/]+$/.test(filePath) || filePath.split('/').some((s) => s === '..' || s === '.')) throw new TelegramFileError('Telegram gave an odd file path.');
  const url = new URL(`${config.telegramApiBase}/file/bot${config.telegramBotToken}/${filePath}`);
  const allowPrivate = apiHostMayBePrivate(config);
  // Node skips `lookup` for address literals, so those are checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !allowPrivate && !isPublicAddress(literal)) throw new BlockedAddressError(literal);
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { lookup: guardedLookup(allowPrivate), timeout: timeoutMs }, resolve);
    req.on('timeout', () => req.destroy(new TelegramFileError('The Bot API did not send the file in time.')));
    req.on('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) {
    res.resume();
    throw new TelegramFileError(`The Bot API answered ${res.statusCode} for the file.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new TelegramFileError(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
