import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { deleteSplits, updateCategorisation } from '../bank-transactions/writes.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { postEntriesInBulk, reverseEntriesInBulk } from '../ledger/bulk.ts';
import {
  checkCategory,
  entryForTransaction,
  loadPostingContext,
  type PostingContext,
  postableOf,
} from './posting-context.ts';
import { type BankTransactionRow, selectRules, selectTransactionsForUpdate } from './queries.ts';
import { firstMatchingRule } from './rules.ts';
import { emitTransactionEvent } from '../webhooks/emit.ts';

// Categorising many bank transactions at once, by hand or by the rules: their entries are
// reversed and posted again in bulk (ledger/bulk.ts), one audit row per batch.

type Recategorisation = {
  row: BankTransactionRow;
  categoryAccountId: string;
  payee?: string | null;
  taxRate?: number | null;
  ruleId?: string | null;
};

/** Reverses the rows' entries and posts them again under their new categories, in bulk. */
const recategorize = async (
  trx: Executor,
  member: MemberContext,
  pc: PostingContext,
  changes: Recategorisation[],
  action: 'bank_transactions.categorized' | 'bank_transactions.rules_applied',
) => {
  if (changes.length === 0) return 0;
  const { organizationId, userId } = member;
  const moneyRows = await trx
    .selectFrom('money_accounts')
    .select(['id', 'ledger_account_id', 'currency'])
    .where('organization_id', '=', organizationId)
    .execute();
  const moneyById = new Map(moneyRows.map((m) => [m.id, m]));
  const batchId = randomUUID();
  const audit = { action, entityType: 'bank_transaction_batch', entityId: batchId };
  await reverseEntriesInBulk(
    trx,
    { organizationId, actorUserId: userId, audit: { ...audit, action: `${action}.reversed` } },
    changes.map((c) => c.row.entry_id),
  );
  const newIds = await postEntriesInBulk(
    trx,
    { organizationId, actorUserId: userId, audit },
    changes.map((c) => {
      const taxRate = c.taxRate !== undefined ? c.taxRate : c.row.tax_rate;
      return entryForTransaction(pc, moneyById.get(c.row.money_account_id)!, {
        ...postableOf(c.row, []),
        categoryKind: 'account',
        categoryAccountId: c.categoryAccountId,
        taxRate,
      });
    }),
  );
  await deleteSplits(
    trx,
    organizationId,
    changes.filter((c) => c.row.category_kind === 'split').map((c) => c.row.id),
  );
  await updateCategorisation(
    trx,
    organizationId,
    changes.map((c, i) => ({
      id: c.row.id,
      entryId: newIds[i]!,
      categoryKind: 'account',
      categoryAccountId: c.categoryAccountId,
      ...(c.payee !== undefined && c.payee !== null ? { payee: c.payee } : {}),
      ...(c.taxRate !== undefined ? { taxRate: c.taxRate } : {}),
      ruleId: c.ruleId ?? null,
    })),
  );
  return changes.length;
};

export const bulkCategorize = (
  ctx: AppContext,
  member: MemberContext,
  input: { transactionIds: string[]; categoryAccountId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const ids = [...new Set(input.transactionIds)];
    const rows = await selectTransactionsForUpdate(trx, member.organizationId, ids);
    if (rows.length !== ids.length) {
      throw notFound(
        `${ids.length - rows.length} of the selected transactions were not found; reload the list and try again.`,
      );
    }
    await assertNotReconciled(trx, member.organizationId, { ids });
    const locked = rows.filter((r) => r.category_kind === 'transfer' || r.category_kind === 'payment');
    if (locked.length > 0) {
      throw conflict(
        'transactions_locked',
        `${locked.length} of the selected transactions are transfers or invoice payments and cannot be recategorised. Unselect them and try again.`,
        { ids: locked.map((r) => r.id) },
      );
    }
    const pc = await loadPostingContext(trx, member.organizationId);
    checkCategory(pc, input.categoryAccountId);
    const changes = rows
      .filter((r) => !(r.category_kind === 'account' && r.category_account_id === input.categoryAccountId))
      .map((row) => ({ row, categoryAccountId: input.categoryAccountId }));
    const updated = await recategorize(trx, member, pc, changes, 'bank_transactions.categorized');
    const source = { organizationId: member.organizationId, now: ctx.now() };
    for (const { row } of changes) await emitTransactionEvent(trx, source, 'transaction.categorized', row.id);
    return { updated, unchanged: rows.length - updated };
  });

/** Runs the rules over uncategorised transactions (of one account, or all) and categorises the matches. */
export const applyRulesNow = (
  ctx: AppContext,
  member: MemberContext,
  input: { moneyAccountId?: string | null },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const rules = (await selectRules(trx, organizationId)).filter((r) => r.enabled);
    if (rules.length === 0) return { categorized: 0, checked: 0 };
    let q = trx
      .selectFrom('bank_transactions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'uncategorized')
      .where('category_kind', '=', 'none');
    if (input.moneyAccountId) q = q.where('money_account_id', '=', input.moneyAccountId);
    const rows = await q.orderBy('id').forUpdate().execute();
    const pc = await loadPostingContext(trx, organizationId);
    const changes: Recategorisation[] = [];
    for (const row of rows) {
      const rule = firstMatchingRule(rules, {
        description: row.description,
        payee: row.payee,
        amount: row.amount,
        moneyAccountId: row.money_account_id,
      });
      if (!rule) continue;
      const category = pc.accounts.get(rule.set_category_account_id);
      if (!category || category.archived) continue;
      changes.push({
        row,
        categoryAccountId: rule.set_category_account_id,
        payee: rule.set_payee,
        taxRate: rule.set_tax_rate ?? undefined,
        ruleId: rule.id,
      });
    }
    const categorized = await recategorize(trx, member, pc, changes, 'bank_transactions.rules_applied');
    return { categorized, checked: rows.length };
  });
