/**
 * The message to an address someone tried to claim (a sign-up, or moving another account to it) while it already has
 * an account. The answer to the request looks like any other, so nobody learns which addresses have accounts; the
 * owner learns the truth here, with what to do if it was them.
 */
import type { MailMessage } from './mailer.js';
import { paragraphsMessage, type Locale } from './messages.js';

type Purpose = 'register' | 'change';

const WORDS: Record<Locale, { subject: string; hello: string; body: Record<Purpose, string>; yours: string; notYou: string }> = {
  en: {
    subject: 'This e-mail address already has a Haul account',
    hello: 'Hello,',
    body: {
      register: 'Someone asked to create a Haul account with this e-mail address, but it already has one, so no code was sent.',
      change: 'Someone asked to move a Haul account to this e-mail address, but it already has an account, so no code was sent.',
    },
    yours: 'If it was you, sign in instead, or reset your password from the sign-in page if you forgot it.',
    notYou: 'If it was not you, ignore this message: nothing changed.',
  },
  'zh-CN': {
    subject: '此邮箱地址已有 Haul 账号',
    hello: '你好：',
    body: {
      register: '有人请求用此邮箱地址创建 Haul 账号，但该地址已有账号，因此没有发送验证码。',
      change: '有人请求把一个 Haul 账号改用此邮箱地址，但该地址已有账号，因此没有发送验证码。',
    },
    yours: '如果是你本人，请直接登录；忘记密码可在登录页重置。',
    notYou: '如果不是你本人，请忽略此邮件：什么都没有改变。',
  },
};

export function takenMessage(input: { to: string; purpose: Purpose; locale: Locale }): MailMessage {
  const w = WORDS[input.locale];
  return paragraphsMessage({ to: input.to, subject: w.subject, lines: [w.hello, w.body[input.purpose], w.yours, w.notYou], locale: input.locale });
}
