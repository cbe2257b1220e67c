import { type Kysely, sql } from 'kysely';

// The invoice list's overdue, sent and partially-paid chips (newest first) read the open
// invoices in issue-date order from this partial index, instead of walking every invoice's
// issue date past the paid ones (issue 20 §3: 106 ms at a million invoices before).

export const up = async (db: Kysely<unknown>) => {
  await sql`create index invoices_open_issue_date on invoices (organization_id, issue_date desc, id desc)
    where status in ('sent', 'partially_paid')`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop index invoices_open_issue_date`.execute(db);
};
