import nodemailer, { type Transporter } from 'nodemailer';
import { notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { type StoredAttachment, findOutboxMail, insertOutboxMail, listOutboxMail } from './queries.ts';

// Outgoing mail. With SMTP_URL set it goes out through nodemailer; without it, it lands in
// the outbox table, readable at /dev/mailbox in development and by tests through the API,
// so every flow (verification, reset, invitations) works with no mail server.

export type MailAttachment = { filename: string; content: Buffer | string; contentType?: string };

export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};

export type SentMail = { delivery: 'smtp'; messageId: string } | { delivery: 'outbox'; id: string };

const transports = new WeakMap<AppContext, Transporter>();

const transportFor = (ctx: AppContext, url: string) => {
  let transport = transports.get(ctx);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(ctx, transport);
  }
  return transport;
};

const toBase64 = (content: Buffer | string) =>
  (typeof content === 'string' ? Buffer.from(content, 'utf8') : content).toString('base64');

/**
 * Sends one mail. `options.db` lets a caller write the outbox row inside its own
 * transaction (an invitation and its mail commit together).
 */
export const sendMail = async (ctx: AppContext, mail: Mail, options: { db?: Db } = {}): Promise<SentMail> => {
  const to = mail.to.trim();
  if (ctx.config.smtpUrl) {
    const info = await transportFor(ctx, ctx.config.smtpUrl).sendMail({
      from: ctx.config.mailFrom,
      to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments?.map((a) => ({
        filename: a.filename,
        content: a.content,
        contentType: a.contentType,
      })),
    });
    return { delivery: 'smtp', messageId: String(info.messageId) };
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
