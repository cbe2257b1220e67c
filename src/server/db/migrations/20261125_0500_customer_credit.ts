import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { keyColumns, companyRefs, createdColumns } from '../migrations-helpers.ts';

// Customer credit and refunds (issue 13 §5, decision 0028). Money a customer has paid or been
// credited beyond what their invoices ask for is the company's liability to them: it sits on
// a "Customer credit" liability account (system key customer_credit) until it is applied to
// another invoice or refunded. customer_credit_entries is the per-customer, per-currency
// ledger of that credit: + when an overpayment or a credit note adds to it, − when it is
// applied, refunded or taken back (payment removed, credit note voided). Its sum per
// customer and currency is the credit balance; amount_base is the base-currency carrying
// amount, and its sum per customer equals the liability account's balance for that contact.
//
// invoice_payments.credit_amount is the part of a payment kept as credit (the rest settled
// the invoice); credit_notes.to_credit the part of a credit note that went to credit because
// the invoice had less left to pay.

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table invoice_payments add column credit_amount bigint not null default 0`.execute(db);
  await sql`
    alter table invoice_payments add constraint invoice_payments_credit_amount
      check (credit_amount >= 0 and credit_amount <= amount)`.execute(db);
  await sql`alter table credit_notes add column to_credit bigint not null default 0`.execute(db);
  await sql`
    alter table credit_notes add constraint credit_notes_to_credit
      check (to_credit >= 0 and to_credit <= total)`.execute(db);

  await sql`
    create table customer_credit_entries (
      ${keyColumns(false)},
      customer_id text not null,
      currency char(3) not null,
      date date not null,
      kind text not null check (kind in (
        'overpayment', 'credit_note', 'applied', 'refund', 'payment_removed', 'credit_note_voided', 'exchange'
      )),
      -- Signed, in the credit's currency: + adds to the customer's credit, − uses it.
      amount bigint not null,
      -- Signed carrying amount in the base currency (what the liability account moved by).
      amount_base bigint not null,
      -- Base units per unit of currency the entry moved at ('1' in the base currency).
      exchange_rate text not null default '1',
      -- For 'applied': the receivable (base) the application cleared on the invoice.
      receivable_base bigint not null default 0,
      invoice_id text,
      payment_id text,
      credit_note_id text,
      money_account_id text,
      journal_entry_id text,
      reference text not null default '',
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ customer_id: 'customers', invoice_id: 'invoices', payment_id: 'invoice_payments', credit_note_id: 'credit_notes', money_account_id: 'money_accounts', journal_entry_id: 'journal_entries' })},
      check ((kind in ('overpayment', 'credit_note')) = (amount > 0) or kind = 'exchange'),
      check (kind <> 'exchange' or amount = 0)
    )`.execute(db);
  await sql`
    create index customer_credit_entries_customer
      on customer_credit_entries (organization_id, customer_id, currency, date)`.execute(db);
  await sql`
    create index customer_credit_entries_invoice
      on customer_credit_entries (organization_id, invoice_id) where invoice_id is not null`.execute(db);

  await addCustomerCreditAccounts(db);
};

/**
 * Every company with a chart gets the Customer credit account (new companies get it from the
 * standard chart). Code 2350 unless taken, then the next free 235x-239x; the name gets its
 * code appended if a same-name account exists (names are unique ignoring case).
 */
export const addCustomerCreditAccounts = async (db: Kysely<unknown>) => {
  const orgs = await sql<{ organization_id: string; currency: string }>`
    select s.organization_id,
           coalesce((select a.currency from accounts a
                      where a.organization_id = s.organization_id and a.system_key = 'accounts_receivable'),
                    'USD') as currency
      from ledger_settings s
     where not exists (select 1 from accounts a
                        where a.organization_id = s.organization_id and a.system_key = 'customer_credit')`.execute(
    db,
  );
  for (const org of orgs.rows) {
    const taken = await sql<{ code: string; name: string }>`
      select code, lower(name) as name from accounts where organization_id = ${org.organization_id}`.execute(
      db,
    );
    const codes = new Set(taken.rows.map((r) => r.code));
    const names = new Set(taken.rows.map((r) => r.name));
    let code = '';
    for (let n = 2350; n <= 2399 && !code; n++) if (!codes.has(String(n))) code = String(n);
    if (!code) code = `2350-${randomUUID().slice(0, 8)}`;
    const name = names.has('customer credit') ? `Customer credit (${code})` : 'Customer credit';
    await sql`
      insert into accounts (organization_id, id, code, name, type, subtype, currency, description, system_key)
      values (${org.organization_id}, ${randomUUID()}, ${code}, ${name}, 'liability', 'current_liability',
              ${org.currency}, 'Unapplied cash and credit owed to customers', 'customer_credit')`.execute(db);
  }
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table customer_credit_entries`.execute(db);
  await sql`alter table credit_notes drop column to_credit`.execute(db);
  await sql`alter table invoice_payments drop column credit_amount`.execute(db);
  await sql`
    delete from accounts a
     where a.system_key = 'customer_credit'
       and not exists (select 1 from journal_lines l where l.organization_id = a.organization_id and l.account_id = a.id)`.execute(
    db,
  );
};
