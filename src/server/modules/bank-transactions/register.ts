import { randomUUID } from 'node:crypto';
import { badRequest } from '../../../shared/errors.ts';
import { type RegisterSourceKind, descriptionKey } from '../../../shared/transactions.ts';
import type { Executor } from '../../db/transaction.ts';
import { nextDedupeKey } from './keys.ts';
import { insertBankTransactions } from './writes.ts';
import { bankLinesWithAccount } from './read.ts';

// Every cash movement is in the register (issue 13): a document that moves money in or out of
// a money account — an invoice payment, its removal, a refund — writes one register line with
// category kind 'payment' beside its journal entry. The line carries the document's entry (it
// is never categorised, split or posted again), the document it belongs to (source_kind,
// source_id) and the invoice it concerns. It can be ticked in a reconciliation like any line;
// once reconciled, the document cannot be removed (assertNotReconciled with { source }).

export type DocumentSource = { kind: RegisterSourceKind; id: string };

export type DocumentLine = {
  organizationId: string;
  /** The chart account the document debited (money in) or credited (money out). */
  ledgerAccountId: string;
  date: string;
  /** In the money account's currency: positive in, negative out. */
  amount: number;
  description: string;
  payee?: string | null;
  /** The journal entry the document posted (or its reversal's). */
  entryId: string;
  /** Base units per account unit, for a money account in a foreign currency. */
  rate?: string | null;
  source: DocumentSource;
  invoiceId?: string | null;
  createdBy: string | null;
  /**
   * The line takes back an existing movement (reverseDocumentLines): it may carry that
   * movement's date even when it is before the opening date (lines written before the rule).
   */
  reversal?: boolean;
};

/**
 * Writes the register line of a document's cash movement into the money account behind
 * `ledgerAccountId`, and returns its id; null when that chart account has no money account
 * (a chart account of the bank or cash kind that the wallet does not know yet).
 *
 * The one guard of every document's cash movement: none is dated before the money account's
 * opening date (hand-typed lines are refused the same way in transactions/service.ts). It
 * throws a 400 naming the account and its opening date; the caller's transaction, with the
 * journal entry it posted, rolls back, so nothing is recorded.
 */
export const recordDocumentLine = async (trx: Executor, line: DocumentLine) => {
  const money = await trx
    .selectFrom('money_accounts')
    .select(['id', 'name', 'opening_date'])
    .where('organization_id', '=', line.organizationId)
    .where('ledger_account_id', '=', line.ledgerAccountId)
    .forUpdate()
    .executeTakeFirst();
  if (!money || line.amount === 0) return null;
  if (!line.reversal && line.date < money.opening_date)
    throw badRequest(
      'before_opening',
      `${money.name} opens on ${money.opening_date}; money cannot move in or out of it before that date. Use ${money.opening_date} or a later date.`,
    );
  const description = line.description.slice(0, 500);
  const id = randomUUID();
  await insertBankTransactions(trx, [
    {
      organization_id: line.organizationId,
      id,
      money_account_id: money.id,
      date: line.date,
      description,
      payee: line.payee || null,
      amount: line.amount,
      status: 'categorized',
      category_kind: 'payment',
      category_account_id: null,
      transfer_id: null,
      tax_rate: null,
      notes: '',
      rate: line.rate ?? null,
      entry_id: line.entryId,
      import_id: null,
      external_id: null,
      dedupe_key: await nextDedupeKey(trx, line.organizationId, money.id, {
        date: line.date,
        amount: line.amount,
        description,
      }),
      description_key: descriptionKey(description),
      rule_id: null,
      reconciliation_id: null,
      source_kind: line.source.kind,
      source_id: line.source.id,
      invoice_id: line.invoiceId ?? null,
      created_by: line.createdBy,
    },
  ]);
  return id;
};

/**
 * Removing a document (a payment reversed): writes, in each money account where the
 * document's lines do not already net to zero, the line that takes them back, under the
 * reversal's entry. Returns the new lines' ids. The caller refuses first when a completed
 * reconciliation locks the document's lines (assertNotReconciled with { source }).
 */
export const reverseDocumentLines = async (
  trx: Executor,
  input: {
    organizationId: string;
    source: DocumentSource;
    date: string;
    description: string;
    entryId: string;
    createdBy: string | null;
  },
) => {
  const lines = await documentLines(trx, input.organizationId, input.source);
  const byAccount = new Map<
    string,
    { net: number; rate: string | null; invoiceId: string | null; ledger: string }
  >();
  for (const l of lines) {
    const acc = byAccount.get(l.money_account_id) ?? {
      net: 0,
      rate: l.rate,
      invoiceId: l.invoice_id,
      ledger: l.ledger_account_id,
    };
    acc.net += l.amount;
    byAccount.set(l.money_account_id, acc);
  }
  const ids: string[] = [];
  for (const acc of byAccount.values()) {
    if (acc.net === 0) continue;
    const id = await recordDocumentLine(trx, {
      organizationId: input.organizationId,
      ledgerAccountId: acc.ledger,
      date: input.date,
      amount: -acc.net,
      description: input.description,
      entryId: input.entryId,
      rate: acc.rate,
      source: input.source,
      invoiceId: acc.invoiceId,
      createdBy: input.createdBy,
      reversal: true,
    });
    if (id) ids.push(id);
  }
  return ids;
};

/** The register lines of a document, oldest first (the movement, then its removal if any). */
export const documentLines = (db: Executor, organizationId: string, source: DocumentSource) =>
  bankLinesWithAccount(db)
    .select([
      't.id',
      't.money_account_id',
      'm.ledger_account_id',
      't.date',
      't.amount',
      't.rate',
      't.entry_id',
      't.invoice_id',
      't.status',
      't.reconciliation_id',
    ])
    .where('t.organization_id', '=', organizationId)
    .where('t.source_kind', '=', source.kind)
    .where('t.source_id', '=', source.id)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
