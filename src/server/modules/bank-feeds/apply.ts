import { sql } from 'kysely';
import { descriptionKey } from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import type { BankFeedTransactionState } from '../../db/types.ts';
import { dedupePrefix } from '../bank-transactions/keys.ts';
import {
  deleteBankTransactions,
  deleteSplits,
  insertBankTransactions,
  updateBankTransaction,
} from '../bank-transactions/writes.ts';
import { postEntriesInBulk } from '../ledger/bulk.ts';
import { newEntryId } from '../ledger/ids.ts';
import { checkOpenPeriods, loadSettingsOrThrow } from '../ledger/posting-checks.ts';
import { postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { notifyBankLinesAdded } from '../notifications/events.ts';
import {
  entryForTransaction,
  loadPostingContext,
  type PostingContext,
  rateBook,
} from '../transactions/posting-context.ts';
import { selectRules } from '../transactions/queries.ts';
import { firstMatchingRule } from '../transactions/rules.ts';
import type { FeedTransaction, SyncPage } from './provider.ts';

// Applying what the bank reported (issue 18 §2), inside the caller's transaction: one sync
// page, or the lines that waited for an account to be mapped. Every write of a bank line goes
// through the bank-transactions module's writers and every entry through the ledger.
//
// The mirror (bank_feed_transactions) keeps each provider transaction with a state:
// - pending: the bank has not posted it; shown, never in the register (the cash has not moved);
// - waiting: posted at the bank, but its account is not mapped (or has no exchange rate yet);
// - posted: it is the bank line `bank_transaction_id`, written by the feed;
// - linked: an earlier line of the account (a statement import, a hand-recorded line) is the
//   same movement (same date and amount, and the same reference or description); not added twice;
// - skipped: it cannot enter the books (before the account's opening date, in a reconciled or
//   locked period) — shown with the reason;
// - conflict: the bank changed or removed a line that Kontor has locked (reconciled, ticked,
//   matched to an invoice or bill, a transfer): the line is kept as it is, and the feed says why.
// A posted transaction naming a pending one (pendingId) replaces it: the pending row goes, and
// only the posted one can become a bank line, so pending → posted never duplicates.

type MirrorRow = {
  provider_transaction_id: string;
  state: BankFeedTransactionState;
  bank_transaction_id: string | null;
};

type Connection = { organization_id: string; id: string; created_by: string | null };

type Money = {
  id: string;
  name: string;
  currency: string;
  ledger_account_id: string;
  opening_date: string;
  archived_at: unknown;
};

const mirrorValues = (
  c: Connection,
  tx: FeedTransaction,
  state: BankFeedTransactionState,
  reason: string | null,
) => ({
  organization_id: c.organization_id,
  connection_id: c.id,
  provider_transaction_id: tx.id,
  provider_account_id: tx.accountId,
  date: tx.date,
  amount: tx.amount,
  currency: tx.currency,
  description: tx.description.slice(0, 500),
  counterparty: tx.counterparty?.slice(0, 200) ?? null,
  reference: tx.reference?.slice(0, 200) ?? null,
  pending: tx.pending,
  pending_id: tx.pendingId,
  state,
  reason,
});

/** Writes the provider's view of one transaction; `state`/`reason` only when given. */
const upsertMirror = (
  trx: Executor,
  c: Connection,
  tx: FeedTransaction,
  state: BankFeedTransactionState,
  reason: string | null,
  options: { keepState?: boolean } = {},
) => {
  const values = mirrorValues(c, tx, state, reason);
  const {
    organization_id: _o,
    connection_id: _c,
    provider_transaction_id: _p,
    state: _s,
    reason: _r,
    ...fields
  } = values;
  return trx
    .insertInto('bank_feed_transactions')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'connection_id', 'provider_transaction_id'])
        .doUpdateSet({ ...fields, ...(!options.keepState && { state, reason }), updated_at: new Date() }),
    )
    .execute();
};

const setMirrorState = (
  trx: Executor,
  c: Connection,
  id: string,
  state: BankFeedTransactionState,
  reason: string | null,
  bankTransactionId?: string | null,
) =>
  trx
    .updateTable('bank_feed_transactions')
    .set({
      state,
      reason,
      ...(bankTransactionId !== undefined && { bank_transaction_id: bankTransactionId }),
      updated_at: new Date(),
    })
    .where('organization_id', '=', c.organization_id)
    .where('connection_id', '=', c.id)
    .where('provider_transaction_id', '=', id)
    .execute();

const deleteMirror = (trx: Executor, c: Connection, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve()
    : trx
        .deleteFrom('bank_feed_transactions')
        .where('organization_id', '=', c.organization_id)
        .where('connection_id', '=', c.id)
        .where('provider_transaction_id', 'in', ids)
        .execute()
        .then(() => undefined);

/** Why a bank line cannot follow the bank's change, or null when it can. */
const lockedReason = (line: { status: string; reconciliation_id: string | null; category_kind: string }) => {
  if (line.status === 'reconciled') return 'it is reconciled';
  if (line.reconciliation_id) return 'it is ticked in a reconciliation in progress';
  if (line.category_kind === 'payment') return 'it is matched to an invoice or bill payment';
  if (line.category_kind === 'transfer') return 'it is a side of a transfer';
  return null;
};

/** What the company's books need to know to place lines: accounts, rules, periods, rates. */
const loadPlacement = async (trx: Executor, c: Connection) => {
  const organizationId = c.organization_id;
  const feedAccounts = await trx
    .selectFrom('bank_feed_accounts')
    .select(['provider_account_id', 'money_account_id'])
    .where('organization_id', '=', organizationId)
    .where('connection_id', '=', c.id)
    .execute();
  const moneyIds = feedAccounts.flatMap((a) => (a.money_account_id ? [a.money_account_id] : [])).sort();
  const monies =
    moneyIds.length === 0
      ? []
      : await trx
          .selectFrom('money_accounts')
          .select(['id', 'name', 'currency', 'ledger_account_id', 'opening_date', 'archived_at'])
          .where('organization_id', '=', organizationId)
          .where('id', 'in', moneyIds)
          .orderBy('id')
          .forUpdate()
          .execute();
  const moneyById = new Map(monies.map((m) => [m.id, { ...m, currency: m.currency.trim() } as Money]));
  const moneyOf = new Map(
    feedAccounts.map((a) => [
      a.provider_account_id,
      a.money_account_id ? (moneyById.get(a.money_account_id) ?? null) : null,
    ]),
  );
  const reconciled = new Map<string, string>();
  if (moneyIds.length > 0) {
    const rows = await trx
      .selectFrom('reconciliations')
      .select(['money_account_id', sql<string>`max(statement_date)::text`.as('date')])
      .where('organization_id', '=', organizationId)
      .where('money_account_id', 'in', moneyIds)
      .where('status', '=', 'completed')
      .groupBy('money_account_id')
      .execute();
    for (const r of rows) reconciled.set(r.money_account_id, r.date);
  }
  return { moneyOf, reconciled };
};

type Placement = Awaited<ReturnType<typeof loadPlacement>>;

/** Free dedupe keys for new lines of one account (the unique key per account), page-local too. */
const dedupeKeys = (trx: Executor, organizationId: string) => {
  const used = new Map<string, Set<string>>();
  return async (moneyAccountId: string, tx: { date: string; amount: number; description: string }) => {
    const prefix = dedupePrefix(tx.date, tx.amount, tx.description);
    const scope = `${moneyAccountId}\u0000${prefix}`;
    let taken = used.get(scope);
    if (!taken) {
      const rows = await trx
        .selectFrom('bank_transactions')
        .select('dedupe_key')
        .where('organization_id', '=', organizationId)
        .where('money_account_id', '=', moneyAccountId)
        .where('dedupe_key', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}#%`)
        .execute();
      taken = new Set(rows.map((r) => r.dedupe_key));
      used.set(scope, taken);
    }
    let n = 1;
    while (taken.has(`${prefix}#${n}`)) n += 1;
    const key = `${prefix}#${n}`;
    taken.add(key);
    return key;
  };
};

/**
 * Places posted transactions (new, or waiting until now): waiting, skipped, linked to an
 * existing line, or written as new bank lines — posted to the ledger in one bulk call.
 */
export const placeLines = async (
  ctx: AppContext,
  trx: Executor,
  c: Connection,
  txs: FeedTransaction[],
  placement?: Placement,
) => {
  if (txs.length === 0) return { posted: 0, linked: 0 };
  const organizationId = c.organization_id;
  const { moneyOf, reconciled } = placement ?? (await loadPlacement(trx, c));
  const settings = await loadSettingsOrThrow(trx, organizationId);
  let pc: PostingContext | null = null;
  let rules: Awaited<ReturnType<typeof selectRules>> | null = null;
  const rateBooks = new Map<string, (date: string) => string | null>();
  const keyOf = dedupeKeys(trx, organizationId);
  const claimed = new Set<string>();
  const fresh: { tx: FeedTransaction; money: Money; rate: string | null }[] = [];
  let linked = 0;
  for (const tx of txs) {
    const money = moneyOf.get(tx.accountId) ?? null;
    if (!money) {
      await setMirrorState(trx, c, tx.id, 'waiting', 'The account is not mapped to a money account yet.');
      continue;
    }
    if (money.archived_at) {
      await setMirrorState(trx, c, tx.id, 'waiting', `${money.name} is archived.`);
      continue;
    }
    const skip = (reason: string) => setMirrorState(trx, c, tx.id, 'skipped', reason);
    if (tx.currency !== money.currency) {
      await skip(`The bank reports it in ${tx.currency}; ${money.name} is kept in ${money.currency}.`);
      continue;
    }
    // An earlier line of the account is the same movement: linked, not added twice.
    const existing = await trx
      .selectFrom('bank_transactions as t')
      .select(['t.id', 't.external_id', 't.dedupe_key'])
      .where('t.organization_id', '=', organizationId)
      .where('t.money_account_id', '=', money.id)
      .where('t.date', '=', tx.date)
      .where('t.amount', '=', tx.amount)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('bank_feed_transactions as f')
              .select('f.provider_transaction_id')
              .whereRef('f.organization_id', '=', 't.organization_id')
              .whereRef('f.bank_transaction_id', '=', 't.id'),
          ),
        ),
      )
      .orderBy('t.created_at')
      .orderBy('t.id')
      .execute();
    const prefix = `${dedupePrefix(tx.date, tx.amount, tx.description)}#`;
    const same = existing.find(
      (l) =>
        !claimed.has(l.id) &&
        ((tx.reference !== null && l.external_id === tx.reference) || l.dedupe_key.startsWith(prefix)),
    );
    if (same) {
      claimed.add(same.id);
      linked += 1;
      await setMirrorState(trx, c, tx.id, 'linked', null, same.id);
      continue;
    }
    if (tx.date < money.opening_date) {
      await skip(`${money.name} opens on ${money.opening_date}; this line is dated ${tx.date}.`);
      continue;
    }
    const reconciledTo = reconciled.get(money.id);
    if (reconciledTo && tx.date <= reconciledTo) {
      await skip(
        `${tx.date} is on or before ${reconciledTo}, the statement date of ${money.name}'s last completed reconciliation.`,
      );
      continue;
    }
    try {
      await checkOpenPeriods(trx, organizationId, [tx.date], settings.lock_date);
    } catch (error) {
      await skip(error instanceof Error ? error.message : 'The period is closed.');
      continue;
    }
    pc ??= await loadPostingContext(trx, organizationId);
    let rate: string | null = null;
    if (money.currency !== pc.baseCurrency) {
      let book = rateBooks.get(money.currency);
      if (!book) {
        book = await rateBook(trx, organizationId, money.currency, pc.baseCurrency);
        rateBooks.set(money.currency, book);
      }
      rate = book(tx.date);
      if (!rate) {
        await setMirrorState(
          trx,
          c,
          tx.id,
          'waiting',
          `No ${money.currency} to ${pc.baseCurrency} exchange rate on or before ${tx.date}; add one under Wallet → Exchange rates.`,
        );
        continue;
      }
    }
    fresh.push({ tx, money, rate });
  }
  if (fresh.length === 0) return { posted: 0, linked };
  pc ??= await loadPostingContext(trx, organizationId);
  rules ??= (await selectRules(trx, organizationId)).filter((r) => r.enabled);
  const ids = fresh.map(() => newEntryId());
  const ruleOf = fresh.map(({ tx, money }) => {
    const rule = firstMatchingRule(rules!, {
      description: tx.description,
      payee: tx.counterparty,
      amount: tx.amount,
      moneyAccountId: money.id,
    });
    return rule && pc!.accounts.get(rule.set_category_account_id)?.archived === false ? rule : null;
  });
  const entryIds = await postEntriesInBulk(
    trx,
    { organizationId, actorUserId: c.created_by, audit: null },
    fresh.map(({ tx, money, rate }, i) =>
      entryForTransaction(pc!, money, {
        id: ids[i]!,
        date: tx.date,
        description: tx.description,
        amount: tx.amount,
        categoryKind: ruleOf[i] ? 'account' : 'none',
        categoryAccountId: ruleOf[i]?.set_category_account_id ?? null,
        splits: [],
        taxRate: ruleOf[i]?.set_tax_rate ?? null,
        rate,
      }),
    ),
  );
  const rows = [];
  for (let i = 0; i < fresh.length; i += 1) {
    const { tx, money, rate } = fresh[i]!;
    const rule = ruleOf[i];
    const description = tx.description.slice(0, 500);
    rows.push({
      organization_id: organizationId,
      id: ids[i]!,
      money_account_id: money.id,
      date: tx.date,
      description,
      payee: rule?.set_payee ?? tx.counterparty?.slice(0, 200) ?? null,
      amount: tx.amount,
      status: rule ? ('categorized' as const) : ('uncategorized' as const),
      category_kind: rule ? ('account' as const) : ('none' as const),
      category_account_id: rule?.set_category_account_id ?? null,
      transfer_id: null,
      tax_rate: rule?.set_tax_rate ?? null,
      notes: '',
      rate,
      entry_id: entryIds[i]!,
      import_id: null,
      external_id: null,
      dedupe_key: await keyOf(money.id, { date: tx.date, amount: tx.amount, description }),
      description_key: descriptionKey(description),
      rule_id: rule?.id ?? null,
      reconciliation_id: null,
      created_by: c.created_by,
    });
  }
  await insertBankTransactions(trx, rows);
  for (let i = 0; i < fresh.length; i += 1)
    await setMirrorState(trx, c, fresh[i]!.tx.id, 'posted', null, ids[i]!);
  // A line at or above the company's large-transaction threshold notifies its members.
  await notifyBankLinesAdded(ctx, trx, organizationId, { transactionIds: ids });
  return { posted: fresh.length, linked };
};

/** The bank changed a line the feed wrote: follow it unless Kontor has locked the line. */
const changePostedLine = async (
  trx: Executor,
  c: Connection,
  bankTransactionId: string,
  tx: FeedTransaction,
) => {
  const organizationId = c.organization_id;
  const line = await trx
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', bankTransactionId)
    .forUpdate()
    .executeTakeFirst();
  if (!line) return;
  const moves = line.date !== tx.date || Number(line.amount) !== tx.amount;
  const description = tx.description.slice(0, 500);
  if (!moves && line.description === description) return;
  const locked = lockedReason(line);
  if (locked) {
    await setMirrorState(
      trx,
      c,
      tx.id,
      'conflict',
      `The bank changed this line (${tx.date}, ${tx.amount}, "${description}"), but ${locked}; Kontor kept it as it was.`,
    );
    return;
  }
  if (!moves) {
    await updateBankTransaction(trx, organizationId, line.id, {
      description,
      description_key: descriptionKey(description),
    });
    return;
  }
  const money = await trx
    .selectFrom('money_accounts')
    .select(['id', 'ledger_account_id', 'currency', 'opening_date', 'name'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', line.money_account_id)
    .executeTakeFirstOrThrow();
  const pc = await loadPostingContext(trx, organizationId);
  // A split no longer adds up to a new amount: the line goes back to uncategorised.
  const keepsCategory =
    line.category_kind === 'account' || (line.category_kind === 'split' && Number(line.amount) === tx.amount);
  const categoryKind = keepsCategory ? line.category_kind : 'none';
  let splits: { accountId: string; amount: number; description: string | null }[] = [];
  if (categoryKind === 'split') {
    const rows = await trx
      .selectFrom('bank_transaction_splits')
      .select(['category_account_id', 'amount', 'description'])
      .where('organization_id', '=', organizationId)
      .where('transaction_id', '=', line.id)
      .orderBy('line_no')
      .execute();
    splits = rows.map((s) => ({
      accountId: s.category_account_id,
      amount: Number(s.amount),
      description: s.description,
    }));
  }
  let rate = line.rate;
  if (money.currency.trim() !== pc.baseCurrency && line.date !== tx.date) {
    rate =
      (await rateBook(trx, organizationId, money.currency.trim(), pc.baseCurrency))(tx.date) ?? line.rate;
  }
  try {
    await checkOpenPeriods(
      trx,
      organizationId,
      [line.date, tx.date],
      (await loadSettingsOrThrow(trx, organizationId)).lock_date,
    );
  } catch (error) {
    await setMirrorState(
      trx,
      c,
      tx.id,
      'conflict',
      `The bank changed this line, but ${error instanceof Error ? error.message : 'its period is closed'}`,
    );
    return;
  }
  await reverseJournalEntry(trx, {
    organizationId,
    entryId: line.entry_id,
    actorUserId: c.created_by,
    memo: `Changed at the bank: ${description}`,
  });
  const entry = await postJournalEntry(trx, {
    organizationId,
    actorUserId: c.created_by,
    ...entryForTransaction(
      pc,
      { ledger_account_id: money.ledger_account_id, currency: money.currency },
      {
        id: line.id,
        date: tx.date,
        description,
        amount: tx.amount,
        categoryKind,
        categoryAccountId: categoryKind === 'account' ? line.category_account_id : null,
        splits,
        taxRate: categoryKind === 'account' ? line.tax_rate : null,
        rate,
      },
    ),
  });
  if (categoryKind !== line.category_kind) await deleteSplits(trx, organizationId, [line.id]);
  await updateBankTransaction(trx, organizationId, line.id, {
    date: tx.date,
    amount: tx.amount,
    description,
    description_key: descriptionKey(description),
    category_kind: categoryKind,
    category_account_id: categoryKind === 'none' ? null : line.category_account_id,
    status: categoryKind === 'none' ? 'uncategorized' : 'categorized',
    rate,
    entry_id: entry.id,
  });
};

/** The bank removed a line the feed wrote: take it out of the books unless Kontor has locked it. */
const removePostedLine = async (
  trx: Executor,
  c: Connection,
  providerId: string,
  bankTransactionId: string,
) => {
  const organizationId = c.organization_id;
  const line = await trx
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', bankTransactionId)
    .forUpdate()
    .executeTakeFirst();
  if (!line) return deleteMirror(trx, c, [providerId]);
  const locked = lockedReason(line);
  if (locked) {
    await setMirrorState(
      trx,
      c,
      providerId,
      'conflict',
      `The bank removed this line, but ${locked}; Kontor kept it. Check it against your bank statement.`,
    );
    return;
  }
  try {
    await checkOpenPeriods(
      trx,
      organizationId,
      [line.date],
      (await loadSettingsOrThrow(trx, organizationId)).lock_date,
    );
  } catch (error) {
    await setMirrorState(
      trx,
      c,
      providerId,
      'conflict',
      `The bank removed this line, but ${error instanceof Error ? error.message : 'its period is closed'}`,
    );
    return;
  }
  await reverseJournalEntry(trx, {
    organizationId,
    entryId: line.entry_id,
    actorUserId: c.created_by,
    memo: `Removed at the bank: ${line.description}`,
  });
  await deleteMirror(trx, c, [providerId]);
  await deleteBankTransactions(trx, organizationId, [line.id]);
};

/** One sync page, in the caller's transaction. */
export const applySyncPage = async (ctx: AppContext, trx: Executor, c: Connection, page: SyncPage) => {
  // One id may come twice in a page (added, then modified): its last version is what the bank says.
  const latest = new Map<string, FeedTransaction>();
  for (const tx of [...page.added, ...page.modified]) latest.set(tx.id, tx);
  const changed = [...latest.values()];
  const ids = [
    ...new Set([
      ...changed.map((t) => t.id),
      ...changed.flatMap((t) => (t.pendingId ? [t.pendingId] : [])),
      ...page.removed.map((r) => r.id),
    ]),
  ];
  const mirror = new Map<string, MirrorRow>();
  for (let at = 0; at < ids.length; at += 1000) {
    const rows = await trx
      .selectFrom('bank_feed_transactions')
      .select(['provider_transaction_id', 'state', 'bank_transaction_id'])
      .where('organization_id', '=', c.organization_id)
      .where('connection_id', '=', c.id)
      .where('provider_transaction_id', 'in', ids.slice(at, at + 1000))
      .execute();
    for (const r of rows) mirror.set(r.provider_transaction_id, r);
  }
  const toPlace: FeedTransaction[] = [];
  for (const tx of changed) {
    // The posted line replaces its pending one, which never entered the books.
    if (tx.pendingId && mirror.get(tx.pendingId)?.state === 'pending') {
      await deleteMirror(trx, c, [tx.pendingId]);
      mirror.delete(tx.pendingId);
    }
    const known = mirror.get(tx.id);
    if (known && (known.state === 'posted' || known.state === 'linked' || known.state === 'conflict')) {
      await upsertMirror(trx, c, tx, known.state, null, { keepState: true });
      if (known.state === 'posted' && known.bank_transaction_id)
        await changePostedLine(trx, c, known.bank_transaction_id, tx);
      continue;
    }
    await upsertMirror(trx, c, tx, tx.pending ? 'pending' : 'waiting', null);
    if (!tx.pending) toPlace.push(tx);
  }
  const removedIds = new Set(page.removed.map((r) => r.id));
  // A line added and removed in the same page never enters the books.
  const placing = toPlace.filter((t) => !removedIds.has(t.id));
  for (const r of page.removed) {
    const known = mirror.get(r.id);
    if (known?.state === 'posted' && known.bank_transaction_id)
      await removePostedLine(trx, c, r.id, known.bank_transaction_id);
    else await deleteMirror(trx, c, [r.id]);
  }
  const placed = await placeLines(ctx, trx, c, placing);
  return { ...placed, received: changed.length + page.removed.length };
};

/** Lines that waited (their account unmapped, or no exchange rate): placed now. */
export const placeWaitingLines = async (
  ctx: AppContext,
  trx: Executor,
  c: Connection,
  providerAccountId?: string,
) => {
  let q = trx
    .selectFrom('bank_feed_transactions')
    .selectAll()
    .where('organization_id', '=', c.organization_id)
    .where('connection_id', '=', c.id)
    .where('state', '=', 'waiting')
    // Only accounts that are mapped now: an unmapped account's lines keep waiting untouched.
    .where('provider_account_id', 'in', (sub) =>
      sub
        .selectFrom('bank_feed_accounts')
        .select('provider_account_id')
        .where('organization_id', '=', c.organization_id)
        .where('connection_id', '=', c.id)
        .where('money_account_id', 'is not', null),
    );
  if (providerAccountId) q = q.where('provider_account_id', '=', providerAccountId);
  const rows = await q.orderBy('date').orderBy('provider_transaction_id').execute();
  return placeLines(
    ctx,
    trx,
    c,
    rows.map((r) => ({
      id: r.provider_transaction_id,
      accountId: r.provider_account_id,
      date: r.date,
      amount: Number(r.amount),
      currency: r.currency,
      description: r.description,
      counterparty: r.counterparty,
      reference: r.reference,
      pending: false,
      pendingId: r.pending_id,
    })),
  );
};
