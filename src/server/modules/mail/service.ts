import type { Transporter } from 'nodemailer';
import { notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sendJob } from '../jobs/queue.ts';
import { type StoredAttachment, findOutboxMail, insertOutboxMail, listOutboxMail } from './queries.ts';

// Outgoing mail. With SMTP_URL set it goes out through nodemailer; without it, it lands in
// the outbox table, readable at /dev/mailbox in development and by tests through the API,
// so every flow (verification, reset, invitations) works with no mail server.
//
// A caller in a transaction passes it as `options.db`: the outbox row is written in it, and
// with SMTP the mail becomes a `mail.send` job queued in it (docs/jobs.md), so a mail for a
// change that rolls back never leaves, and a refused SMTP delivery is retried with backoff.

export type MailAttachment = { filename: string; content: Buffer | string; contentType?: string };

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};

export type SentMail =
  | { delivery: 'smtp'; messageId: string }
  | { delivery: 'outbox'; id: string }
  | { delivery: 'queued'; jobId: string | null };

/** The queue of SMTP deliveries (a worker in the server process runs them: main.ts). */
export const MAIL_JOB = 'mail.send';
const MAIL_RETRY = { retryLimit: 8, retryDelaySeconds: 30 };

export type QueuedMail = Omit<Mail, 'attachments'> & {
  attachments?: { filename: string; contentBase64: string; contentType?: string }[];
};

const transports = new WeakMap<AppContext, Transporter>();

const transportFor = async (ctx: AppContext, url: string) => {
  // nodemailer is imported with the first message sent over SMTP, not at start (issue 20 §6).
  const { default: nodemailer } = await import('nodemailer');
  let transport = transports.get(ctx);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(ctx, transport);
  }
  return transport;
};

const toBase64 = (content: Buffer | string) =>
  (typeof content === 'string' ? Buffer.from(content, 'utf8') : content).toString('base64');

const sendSmtp = async (ctx: AppContext, url: string, mail: Mail) => {
  const info = await (await transportFor(ctx, url)).sendMail({
    from: ctx.config.mailFrom,
    to: mail.to.trim(),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments?.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
    })),
  });
  return String(info.messageId);
};

/** The `mail.send` job: one SMTP delivery (a refusal throws, and the queue retries it). */
export const deliverQueuedMail = async (ctx: AppContext, data: QueuedMail) => {
  if (!ctx.config.smtpUrl) throw new Error('SMTP_URL is not set: this mail cannot be delivered');
  await sendSmtp(ctx, ctx.config.smtpUrl, {
    ...data,
    attachments: data.attachments?.map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.contentBase64, 'base64'),
      contentType: a.contentType,
    })),
  });
};

/**
 * Sends one mail. With `options.db` (the caller's transaction) the mail leaves only if that
 * transaction commits: the outbox row is written in it, or with SMTP a `mail.send` job is
 * queued in it. Without it, SMTP delivers at once.
 */
export const sendMail = async (ctx: AppContext, mail: Mail, options: { db?: Db } = {}): Promise<SentMail> => {
  const to = mail.to.trim();
  if (ctx.config.smtpUrl && options.db) {
    const data: QueuedMail = {
      to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.attachments
        ? {
            attachments: mail.attachments.map((a) => ({
              filename: a.filename,
              contentBase64: toBase64(a.content),
              ...(a.contentType ? { contentType: a.contentType } : {}),
            })),
          }
        : {}),
    };
    const jobId = await sendJob(options.db, MAIL_JOB, data, { ...MAIL_RETRY, now: ctx.now() });
    return { delivery: 'queued', jobId };
  }
  if (ctx.config.smtpUrl) {
    return { delivery: 'smtp', messageId: await sendSmtp(ctx, ctx.config.smtpUrl, { ...mail, to }) };
  }
  const attachments: StoredAttachment[] = (mail.attachments ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType ?? null,
    contentBase64: toBase64(a.content),
  }));
  const row = await insertOutboxMail(options.db ?? ctx.database.db, {
    to: to.toLowerCase(),
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    attachments,
  });
  return { delivery: 'outbox', id: row.id };
};

/** The outbox is readable only where it cannot leak real users' links. */
export const mailboxEnabled = (ctx: AppContext) =>
  ctx.config.app.ENVIRONMENT === 'development' || ctx.config.app.ENVIRONMENT === 'test';

export type MailboxSummary = { id: string; to: string; subject: string; createdAt: string };
export type MailboxMessage = MailboxSummary & {
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string | null; size: number }[];
};

export const listMailbox = async (ctx: AppContext, params: { to?: string; limit?: number }) => {
  const rows = await listOutboxMail(ctx.database.db, {
    to: params.to?.trim().toLowerCase(),
    limit: params.limit ?? 50,
  });
  return rows.map(
    (r): MailboxSummary => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      createdAt: new Date(r.created_at).toISOString(),
    }),
  );
};

export const readMailbox = async (ctx: AppContext, id: string): Promise<MailboxMessage> => {
  const row = await findOutboxMail(ctx.database.db, id);
  if (!row) throw notFound('No mail with this id in the outbox.');
  const attachments = (row.attachments as StoredAttachment[]) ?? [];
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    createdAt: new Date(row.created_at).toISOString(),
    text: row.text_body,
    html: row.html_body,
    attachments: attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: Buffer.from(a.contentBase64, 'base64').length,
    })),
  };
};
