import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { AdminContactMessage, adminContactQuerySchema } from '../../../shared/admin.ts';
import { notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, exactTimestamp, keysetPage } from '../../db/cursor.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ContactMessagesTable } from '../../db/types.ts';
import { recordAdminAction } from './actions.ts';
import type { AdminActor } from './guard.ts';

// The website's contact messages as an inbox (docs/admin.md, "Messages"): newest first, with
// read and replied state an admin sets, and the number still unread.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

const toMessage = (r: Selectable<ContactMessagesTable>): AdminContactMessage => ({
  id: r.id,
  name: r.name,
  email: r.email,
  company: r.company,
  message: r.message,
  createdAt: new Date(r.created_at).toISOString(),
  readAt: iso(r.read_at),
  repliedAt: iso(r.replied_at),
});

export const listContactMessages = async (ctx: AppContext, q: z.output<typeof adminContactQuerySchema>) => {
  const db = ctx.database.db;
  const after = decodeCursor(q.cursor, { createdAt: 'timestamp', id: 'string' });
  if (after && !UUID.test(after.id)) throw notFound('No such page.');
  let query = db
    .selectFrom('contact_messages')
    .selectAll()
    .select(exactTimestamp('contact_messages.created_at').as('created_exact'));
  if (q.status === 'unread') query = query.where('read_at', 'is', null);
  if (q.status === 'unreplied') query = query.where('replied_at', 'is', null);
  const { page, nextCursor } = await keysetPage(query, {
    keys: [
      ['contact_messages.created_at', 'timestamptz'],
      ['contact_messages.id', 'uuid'],
    ],
    after: after ? [after.createdAt, after.id] : null,
    limit: q.limit,
    direction: 'desc',
  });
  const unread = await db
    .selectFrom('contact_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    messages: page.map(toMessage),
    nextCursor: nextCursor((r) => ({ createdAt: r.created_exact, id: r.id })),
    unread: Number(unread.n),
  };
};

/** Marks a message read or unread, replied or not (a replied message is read too). */
export const updateContactMessage = async (
  ctx: AppContext,
  admin: AdminActor,
  { id, read, replied }: { id: string; read?: boolean; replied?: boolean },
) => {
  if (!UUID.test(id)) throw notFound('No contact message with this id.');
  return inTransaction(ctx.database.db, async (trx) => {
    const before = await trx
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) throw notFound('No contact message with this id.');
    const now = ctx.now();
    const readNow = read ?? (replied === true ? true : undefined);
    const changes = {
      ...(readNow !== undefined && { read_at: readNow ? (before.read_at ?? now) : null }),
      ...(replied !== undefined && { replied_at: replied ? (before.replied_at ?? now) : null }),
    };
    if (Object.keys(changes).length === 0) return toMessage(before);
    const row = await trx
      .updateTable('contact_messages')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAdminAction(trx, admin, 'contact.updated', ['contact_message', id], {
      ...(read !== undefined && { read }),
      ...(replied !== undefined && { replied }),
    });
    return toMessage(row);
  });
};
