import { type Kysely, sql } from 'kysely';

// Faster database guards for posted lines, same rules. 0400 checked each line with two
// row-level queries and a deferred per-line balance check; seeding a million entries spent
// most of its time there. Now one statement-level trigger checks a whole insert at once:
// every new line belongs to an entry posted in this same transaction (recorded in
// posted_txid, so lines cannot be slipped into an entry posted earlier) with the same date,
// number and closing flag, and falls after the lock date; it then updates the kept balances.
// The deferred per-entry trigger still refuses an unbalanced entry at commit.

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table journal_entries add column posted_txid bigint`.execute(db);

  await sql`
    create or replace function ledger_refuse_posted_entry_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        if old.status = 'posted' then
          raise exception 'posted journal entry % cannot be deleted; post a reversing entry instead', old.id
            using errcode = 'check_violation';
        end if;
        return old;
      end if;
      if tg_op = 'UPDATE' and old.status = 'posted' then
        raise exception 'posted journal entry % cannot be changed; post a reversing entry instead', old.id
          using errcode = 'check_violation';
      end if;
      if new.status = 'posted' then
        new.posted_txid := txid_current();
      else
        new.posted_txid := null;
      end if;
      return new;
    end $$`.execute(db);
  await sql`drop trigger journal_entries_immutable on journal_entries`.execute(db);
  await sql`
    create trigger journal_entries_immutable before insert or update or delete on journal_entries
    for each row execute function ledger_refuse_posted_entry_change()`.execute(db);

  await sql`drop trigger journal_lines_check on journal_lines`.execute(db);
  await sql`drop trigger journal_lines_balanced on journal_lines`.execute(db);
  await sql`drop trigger journal_lines_keep_balances on journal_lines`.execute(db);
  await sql`drop function ledger_check_line()`.execute(db);
  await sql`drop function ledger_check_line_entry_balanced()`.execute(db);

  await sql`
    create or replace function ledger_keep_balances() returns trigger language plpgsql as $$
    declare
      bad record;
    begin
      select l.entry_id into bad
        from new_lines l
        left join journal_entries e on e.organization_id = l.organization_id and e.id = l.entry_id
       where e.id is null or e.status <> 'posted' or e.date <> l.date or e.number <> l.entry_number
          or e.is_closing <> l.is_closing or e.posted_txid is distinct from txid_current()
       limit 1;
      if found then
        raise exception 'journal line does not belong to an entry posted in this transaction (entry %)', bad.entry_id
          using errcode = 'check_violation';
      end if;
      select l.date, s.lock_date into bad
        from new_lines l
        join ledger_settings s on s.organization_id = l.organization_id
       where s.lock_date is not null and l.date <= s.lock_date
       limit 1;
      if found then
        raise exception 'the books are locked through %; nothing can post on or before that date', bad.lock_date
          using errcode = 'check_violation';
      end if;
      insert into account_period_balances (organization_id, account_id, period, is_closing, debit, credit)
        select organization_id, account_id, date_trunc('month', date)::date, is_closing, sum(debit), sum(credit)
          from new_lines
         group by organization_id, account_id, date_trunc('month', date)::date, is_closing
         order by 1, 2, 3, 4
      on conflict (organization_id, account_id, period, is_closing) do update
        set debit = account_period_balances.debit + excluded.debit,
            credit = account_period_balances.credit + excluded.credit;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger journal_lines_keep_balances after insert on journal_lines
    referencing new table as new_lines
    for each statement execute function ledger_keep_balances()`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  // Going back to 0400's guards means re-running 0400; dropping the column is enough here
  // because 0400's down drops the tables and functions.
  await sql`alter table journal_entries drop column posted_txid`.execute(db);
};
