import { ruleInputSchema, ruleListSchema, ruleSchema } from '../../../shared/transactions.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { createRule, deleteRule, listRules, updateRule } from './rules-service.ts';

// The categorisation rules, in priority order.

export const ruleRoutes = companyRoutePlugin(['transactions'], (route) => {
  route.get(
    '/transaction-rules',
    { summary: 'Categorisation rules in priority order', permission: 'read', response: ruleListSchema },
    listRules,
  );
  route.post(
    '/transaction-rules',
    {
      summary: 'Add a categorisation rule',
      permission: 'post',
      body: ruleInputSchema,
      response: ruleSchema,
      status: 201,
    },
    createRule,
  );
  route.put(
    '/transaction-rules/:id',
    {
      summary: 'Change a categorisation rule',
      permission: 'post',
      body: ruleInputSchema,
      response: ruleSchema,
    },
    updateRule,
  );
  route.delete(
    '/transaction-rules/:id',
    { summary: 'Delete a categorisation rule', permission: 'post', response: null },
    deleteRule,
  );
});
