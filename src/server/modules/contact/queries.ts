import type { Db } from '../../db/client.ts';

// SQL for contact messages. Not tenant data (see the migration), so no organization filter.

export type NewContactMessageRow = {
  name: string;
  email: string;
  company: string;
  message: string;
  ip: string | null;
  userAgent: string | null;
};

export const insertContactMessage = (db: Db, row: NewContactMessageRow) =>
  db
    .insertInto('contact_messages')
    .values({
      name: row.name,
      email: row.email,
      company: row.company,
      message: row.message,
      ip: row.ip,
      user_agent: row.userAgent,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();

export const findContactMessage = (db: Db, id: string) =>
  db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirst();
