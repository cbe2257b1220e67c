import { type Kysely, sql } from 'kysely';

// Plan limits (issue 16; src/server/modules/billing/limits.ts) count, on every invoice sent,
// the invoices a company issued this calendar month, and, on every invitation, the company's
// pending invitations. These indexes keep both counts to an index range.

export const up = async (db: Kysely<unknown>) => {
  await sql`create index invoices_sent_at on invoices (organization_id, sent_at) where sent_at is not null`.execute(
    db,
  );
  await sql`create index organization_invitations_pending on organization_invitations (organization_id, expires_at)
    where status = 'pending'`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop index organization_invitations_pending`.execute(db);
  await sql`drop index invoices_sent_at`.execute(db);
};
