import {
  matchInputSchema,
  matchStateSchema,
  matchSuggestionsSchema,
  statementSuggestionsQuerySchema,
  statementSuggestionsSchema,
} from '../../../shared/matching.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { getMatch, matchTransaction, unmatchTransaction } from './service.ts';
import { suggestionsForStatement, suggestionsForTransaction } from './suggestions.ts';

// Matching bank lines to open invoices and recorded payments (docs/transactions.md, "Matching").

export const matchingRoutes = companyRoutePlugin(['matching'], (route) => {
  route.get(
    '/transactions/:id/match-suggestions',
    {
      summary:
        'Open invoices and recorded payments (money in) or open bills (money out) this bank line may be, best first',
      permission: 'read',
      response: matchSuggestionsSchema,
    },
    suggestionsForTransaction,
  );
  route.get(
    '/statement-imports/:importId/match-suggestions',
    {
      summary: 'Suggestions for every uncategorised money-in line of one imported statement',
      permission: 'read',
      query: statementSuggestionsQuerySchema.omit({ importId: true }),
      response: statementSuggestionsSchema,
    },
    suggestionsForStatement,
  );
  route.get(
    '/transactions/:id/match',
    {
      summary: 'What this bank line is matched to (null when it is not)',
      permission: 'read',
      response: matchStateSchema,
    },
    getMatch,
  );
  // An Idempotency-Key makes a retried confirmation answer as the first one did.
  route.post(
    '/transactions/:id/match',
    {
      summary:
        'Match a bank line to open invoices (records their payments) or to a recorded payment; Idempotency-Key honoured',
      permission: 'post',
      body: matchInputSchema,
      response: matchStateSchema,
      idempotent: ({ id }) => `POST /transactions/${id}/match`,
    },
    matchTransaction,
  );
  route.delete(
    '/transactions/:id/match',
    {
      summary: 'Unmatch a bank line: the payments it recorded are removed and it waits to be categorised',
      permission: 'post',
      response: matchStateSchema,
    },
    unmatchTransaction,
  );
});
