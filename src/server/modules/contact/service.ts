import type { ContactMessage, ContactReceipt } from '../../../shared/contact.ts';
import type { AppContext } from '../../context.ts';
import { insertContactMessage } from './queries.ts';

// Stores a message from the public contact form. The input is already parsed by the
// shared schema (trimmed, email lower-cased); the sender's address and browser are kept to
// deal with abuse.

export const submitContactMessage = async (
  ctx: AppContext,
  message: ContactMessage,
  origin: { ip: string | null; userAgent: string | null },
): Promise<ContactReceipt> => {
  const row = await insertContactMessage(ctx.database.db, {
    ...message,
    ip: origin.ip,
    userAgent: origin.userAgent ? origin.userAgent.slice(0, 500) : null,
  });
  return { id: row.id, receivedAt: new Date(row.created_at).toISOString() };
};
