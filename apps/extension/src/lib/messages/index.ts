/** Every language's table, by the web app's locale names. */
import type { Locale } from '@haul/shared/plain';
import { EN_US, type Messages } from './en-US';
import { ES } from './es';
import { ID } from './id';
import { JA } from './ja';
import { KO } from './ko';
import { MS } from './ms';
import { PT } from './pt';
import { RU } from './ru';
import { UK } from './uk';
import { ZH_CN } from './zh-CN';
import { ZH_TW } from './zh-TW';

export type { MessageKey, Messages } from './en-US';

export const MESSAGES: Record<Locale, Messages> = {
  'en-US': EN_US,
  es: ES,
  id: ID,
  ja: JA,
  ko: KO,
  ms: MS,
  pt: PT,
  ru: RU,
  uk: UK,
  'zh-CN': ZH_CN,
  'zh-TW': ZH_TW,
};
