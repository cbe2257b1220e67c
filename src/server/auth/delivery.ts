import type { AppContext } from '../context.ts';
import { type Mail, sendMail } from '../modules/mail/service.ts';

// Auth mail leaves without holding up the answer when it goes over SMTP: a slow mail server
// must not make "reset link requested for a known email" measurably slower than for an
// unknown one. The outbox insert is quick, so it is awaited (tests read it right after).

export const deliverAuthMail = async (ctx: AppContext, mail: Mail) => {
  const sending = sendMail(ctx, mail);
  if (ctx.config.smtpUrl) {
    sending.catch((error: unknown) => console.error(`kontor: could not send "${mail.subject}"`, error));
    return;
  }
  await sending;
};
