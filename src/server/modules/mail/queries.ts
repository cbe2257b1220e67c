import type { Db } from '../../db/client.ts';

// SQL for the development outbox. Mail is addressed to people, not companies.

export type OutboxRow = {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: StoredAttachment[];
};

export type StoredAttachment = { filename: string; contentType: string | null; contentBase64: string };

export const insertOutboxMail = (db: Db, row: OutboxRow) =>
  db
    .insertInto('mail_outbox')
    .values({
      to_address: row.to,
      subject: row.subject,
      text_body: row.text,
      html_body: row.html,
      attachments: JSON.stringify(row.attachments),
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();

export const listOutboxMail = (db: Db, params: { to?: string; limit: number }) => {
  let q = db
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'subject', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(params.limit);
  if (params.to) q = q.where('to_address', '=', params.to);
  return q.execute();
};

export const findOutboxMail = (db: Db, id: string) =>
  db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
