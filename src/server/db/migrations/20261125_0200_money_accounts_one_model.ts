import { type Kysely, sql } from 'kysely';

// One model for money (issue 13 §1–2, decision 0022). A money account is one ledger account of
// the chart with its wallet details:
//
// - every bank, cash and cash-equivalent asset account and every credit-card liability of the
//   chart that has no money account gets one (the standard chart's 1000, 1010, 1050 and 2100
//   among them), named and archived like its ledger account, opening on the earlier of its
//   first posting and the company's creation, with no opening balance of its own (what it
//   holds is already in the ledger);
// - the company's deposit account (where invoice payments go unless another is picked) is a
//   flag on one money account: the one behind the chart's "bank" system account, else the
//   oldest open bank account;
// - the stored balance column goes: balances are read from the ledger (ledgerBalancesAsOf).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    insert into money_accounts (organization_id, id, ledger_account_id, name, kind, currency,
                                institution, opening_balance, opening_date, archived_at, created_at, updated_at)
    select a.organization_id, gen_random_uuid()::text, a.id, a.name,
           case when a.type = 'liability' then 'credit_card'
                when a.subtype = 'bank' then 'bank'
                when a.subtype = 'cash' then 'cash'
                else 'payment_processor' end,
           a.currency, '', 0,
           least(o.created_at::date,
                 coalesce((select min(l.date) from journal_lines l
                            where l.organization_id = a.organization_id and l.account_id = a.id),
                          o.created_at::date)),
           a.archived_at, now(), now()
      from accounts a
      join organizations o on o.id = a.organization_id
     where ((a.type = 'asset' and a.subtype in ('bank', 'cash', 'cash_equivalent'))
            or (a.type = 'liability' and a.subtype = 'credit_card'))
       and not exists (select 1 from money_accounts m
                        where m.organization_id = a.organization_id and m.ledger_account_id = a.id)`.execute(
    db,
  );

  await sql`alter table money_accounts add column is_default_deposit boolean not null default false`.execute(
    db,
  );
  await sql`create unique index money_accounts_default_deposit on money_accounts (organization_id) where is_default_deposit`.execute(
    db,
  );
  await sql`
    update money_accounts m set is_default_deposit = true
      from (
        select distinct on (m2.organization_id) m2.organization_id, m2.id
          from money_accounts m2
          join accounts a on a.organization_id = m2.organization_id and a.id = m2.ledger_account_id
         where m2.archived_at is null and m2.kind = 'bank'
         order by m2.organization_id, (a.system_key = 'bank') desc nulls last, m2.created_at, m2.id
      ) pick
     where m.organization_id = pick.organization_id and m.id = pick.id`.execute(db);

  await sql`alter table money_accounts drop column balance`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`alter table money_accounts add column balance bigint not null default 0`.execute(db);
  await sql`
    update money_accounts m
       set balance = coalesce((select sum(case when l.currency is null then l.debit - l.credit
                                               when l.debit > 0 then l.amount else -l.amount end)
                                 from journal_lines l
                                where l.organization_id = m.organization_id and l.account_id = m.ledger_account_id), 0)`.execute(
    db,
  );
  await sql`drop index if exists money_accounts_default_deposit`.execute(db);
  await sql`alter table money_accounts drop column is_default_deposit`.execute(db);
};
