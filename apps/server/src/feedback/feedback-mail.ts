/** The mail telling a person the operator answered their feedback: their message (shortened) and the answer. */
import type { MailMessage } from '../mail/mailer.js';
import { paragraphsMessage, type Locale } from '../mail/messages.js';

const WORDS: Record<Locale, { subject: string; hello: string; lead: string; yours: string; more: string }> = {
  en: {
    subject: 'An answer to your feedback on Haul',
    hello: 'Hello,',
    lead: 'The operator of your Haul server answered your message:',
    yours: 'You wrote:',
    more: 'You can read it again in Haul, on the Feedback page of your account menu.',
  },
  'zh-CN': {
    subject: '你在 Haul 上的反馈有了回复',
    hello: '你好：',
    lead: '你的 Haul 服务器管理员回复了你的留言：',
    yours: '你的留言：',
    more: '你也可以在 Haul 账号菜单的「反馈」页面再次查看。',
  },
};

/** Characters of the person's own message quoted back. */
const QUOTE_MAX = 300;

export function feedbackAnswerMessage(input: { to: string; message: string; answer: string; locale: Locale }): MailMessage {
  const w = WORDS[input.locale];
  const quote = input.message.length > QUOTE_MAX ? `${input.message.slice(0, QUOTE_MAX)}…` : input.message;
  return paragraphsMessage({ to: input.to, subject: w.subject, lines: [w.hello, w.lead, input.answer, w.yours, quote, w.more], locale: input.locale });
}
