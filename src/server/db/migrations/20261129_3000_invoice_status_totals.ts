import { type Kysely, sql } from 'kysely';

// The invoice list's totals by status (the chips: count, total and amount due per status) kept
// as counters, so the first page reads a few dozen rows instead of every invoice of the
// company (issue 20 §3: 90 ms at 100k invoices, growing with the table). Decision 0046.
//
// One row per company, status and — for the open statuses, where "overdue" depends on today —
// due date; the closed statuses (draft, paid, void) keep one row each, dated 'infinity'. The
// list adds them up with overdue = open and due before today, exactly as the scan did.
//
// The counters follow the invoices table itself, by statement triggers on insert, update and
// delete, in the same statement as the change: every writer (the invoice services, payments,
// credit notes, the overdue job, company erase, a hand-written fix) keeps them right, and the
// property test compares them with a recount after every kind of change. Each statement
// applies its net change in one upsert, in key order, and skips keys whose figures did not
// move, so an edit that leaves status, due date and amounts alone locks no counter row.

const DUE_KEY = `case when status in ('sent', 'partially_paid') then due_date else 'infinity'::date end`;

/** What one invoice row adds to its counter: 1, its total in base currency, its open balance. */
const contribution = (table: string, sign: '+' | '-') =>
  sql.raw(`
    select ${DUE_KEY} as due_key, organization_id as org, status as st,
           ${sign}1 as n,
           ${sign}(case when status = 'draft' then round(total * exchange_rate::numeric)::bigint else total_base end) as total,
           ${sign}(case when status in ('sent', 'partially_paid') then balance_base else 0 end) as amount_due
      from ${table}`);

const upsert = (sources: ReturnType<typeof contribution>[]) => sql`
      insert into invoice_status_totals (organization_id, status, due_date, count, total, amount_due)
      select org, st, due_key, sum(n), sum(total), sum(amount_due)
        from (${sql.join(sources, sql` union all `)}) d
       where exists (select 1 from organizations o where o.id = d.org)
       group by org, st, due_key
      having sum(n) <> 0 or sum(total) <> 0 or sum(amount_due) <> 0
       order by org, st, due_key
      on conflict (organization_id, status, due_date) do update
        set count = invoice_status_totals.count + excluded.count,
            total = invoice_status_totals.total + excluded.total,
            amount_due = invoice_status_totals.amount_due + excluded.amount_due;`;

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table invoice_status_totals (
      organization_id text not null references organizations (id) on delete cascade,
      status text not null,
      due_date date not null,
      count bigint not null,
      total bigint not null,
      amount_due bigint not null,
      primary key (organization_id, status, due_date)
    )`.execute(db);
  // Company erase deletes the organization, and its invoices by cascade: the `exists` above
  // leaves the counters of a company being deleted alone (its rows go by cascade too).
  await sql`
    create function invoices_keep_status_totals() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${upsert([contribution('new_rows', '+')])}
      elsif tg_op = 'UPDATE' then
        ${upsert([contribution('new_rows', '+'), contribution('old_rows', '-')])}
      else
        ${upsert([contribution('old_rows', '-')])}
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger invoices_status_totals_insert after insert on invoices
    referencing new table as new_rows for each statement execute function invoices_keep_status_totals()`.execute(
    db,
  );
  await sql`create trigger invoices_status_totals_update after update on invoices
    referencing old table as old_rows new table as new_rows for each statement execute function invoices_keep_status_totals()`.execute(
    db,
  );
  await sql`create trigger invoices_status_totals_delete after delete on invoices
    referencing old table as old_rows for each statement execute function invoices_keep_status_totals()`.execute(
    db,
  );
  await sql`
    insert into invoice_status_totals (organization_id, status, due_date, count, total, amount_due)
    select org, st, due_key, sum(n), sum(total), sum(amount_due)
      from (${contribution('invoices', '+')}) d
     group by org, st, due_key`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop trigger invoices_status_totals_delete on invoices`.execute(db);
  await sql`drop trigger invoices_status_totals_update on invoices`.execute(db);
  await sql`drop trigger invoices_status_totals_insert on invoices`.execute(db);
  await sql`drop function invoices_keep_status_totals()`.execute(db);
  await sql`drop table invoice_status_totals`.execute(db);
};
