import { randomUUID } from 'node:crypto';
import { notFound } from '../../../shared/errors.ts';
import type { Rule, ruleInputSchema } from '../../../shared/transactions.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { recordMemberAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Executor } from '../../db/transaction.ts';
import { selectMoneyAccount } from '../wallet/queries.ts';
import { checkCategory, loadPostingContext } from './posting-context.ts';
import { type RuleRow, selectRules } from './queries.ts';

// Categorisation rules: create, change, delete, list in priority order.

type RuleInput = z.output<typeof ruleInputSchema>;

const toRule = (r: RuleRow): Rule => ({
  id: r.id,
  name: r.name,
  priority: r.priority,
  enabled: r.enabled,
  descriptionContains: r.description_contains,
  payeeContains: r.payee_contains,
  minAmount: r.min_amount,
  maxAmount: r.max_amount,
  direction: r.direction,
  moneyAccountId: r.money_account_id,
  setCategoryAccountId: r.set_category_account_id,
  setCategoryName: r.category_name,
  setPayee: r.set_payee,
  setTaxRate: r.set_tax_rate,
});

export const listRules = async (ctx: AppContext, member: MemberContext) => ({
  rules: (await selectRules(ctx.database.db, member.organizationId)).map(toRule),
});

const checkRuleInput = async (trx: Executor, organizationId: string, input: RuleInput) => {
  const pc = await loadPostingContext(trx, organizationId);
  checkCategory(pc, input.setCategoryAccountId);
  if (input.moneyAccountId && !(await selectMoneyAccount(trx, organizationId, input.moneyAccountId))) {
    throw notFound('The rule names a money account that does not exist.');
  }
};

const columns = (input: RuleInput) => ({
  name: input.name,
  priority: input.priority,
  enabled: input.enabled,
  description_contains: input.descriptionContains || null,
  payee_contains: input.payeeContains || null,
  min_amount: input.minAmount,
  max_amount: input.maxAmount,
  direction: input.direction,
  money_account_id: input.moneyAccountId,
  set_category_account_id: input.setCategoryAccountId,
  set_payee: input.setPayee || null,
  set_tax_rate: input.setTaxRate,
});

const findRule = async (db: Executor, organizationId: string, id: string) => {
  const rule = (await selectRules(db, organizationId)).find((r) => r.id === id);
  if (!rule) throw notFound('Rule not found.');
  return toRule(rule);
};

export const createRule = (ctx: AppContext, member: MemberContext, input: RuleInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    await checkRuleInput(trx, member.organizationId, input);
    const id = randomUUID();
    await trx
      .insertInto('categorization_rules')
      .values({ organization_id: member.organizationId, id, ...columns(input) })
      .execute();
    const rule = await findRule(trx, member.organizationId, id);
    await recordMemberAudit(trx, member, 'rule.created', ['rule', id], { after: rule });
    return rule;
  });

export const updateRule = (ctx: AppContext, member: MemberContext, input: RuleInput & { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { id } = input;
    const before = await findRule(trx, member.organizationId, id);
    await checkRuleInput(trx, member.organizationId, input);
    await trx
      .updateTable('categorization_rules')
      .set({ ...columns(input), updated_at: new Date() })
      .where('organization_id', '=', member.organizationId)
      .where('id', '=', id)
      .execute();
    const after = await findRule(trx, member.organizationId, id);
    await recordMemberAudit(trx, member, 'rule.updated', ['rule', id], { before, after });
    return after;
  });

export const deleteRule = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const before = await findRule(trx, member.organizationId, id);
    await trx
      .deleteFrom('categorization_rules')
      .where('organization_id', '=', member.organizationId)
      .where('id', '=', id)
      .execute();
    await recordMemberAudit(trx, member, 'rule.deleted', ['rule', id], { before });
  });
