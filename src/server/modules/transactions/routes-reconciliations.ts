import {
  reconciliationListQuerySchema,
  reconciliationListSchema,
  reconciliationSchema,
  reconciliationStartSchema,
  reconciliationTickSchema,
  reconciliationUndoSchema,
} from '../../../shared/transactions.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import {
  cancelReconciliation,
  finishReconciliation,
  getReconciliation,
  listReconciliations,
  startReconciliation,
  tickTransactions,
  undoLastReconciliation,
} from './reconciliation.ts';

// Reconciling a money account against a bank statement (docs/transactions.md).

export const reconciliationRoutes = companyRoutePlugin(['transactions'], (route) => {
  route.get(
    '/reconciliations',
    {
      summary: 'Reconciliations, newest first',
      permission: 'read',
      query: reconciliationListQuerySchema,
      response: reconciliationListSchema,
    },
    listReconciliations,
  );
  route.post(
    '/reconciliations',
    {
      summary: 'Start reconciling an account against a statement',
      permission: 'post',
      body: reconciliationStartSchema,
      response: reconciliationSchema,
      status: 201,
    },
    startReconciliation,
  );
  route.get(
    '/reconciliations/:id',
    {
      summary: 'One reconciliation with its difference',
      permission: 'read',
      response: reconciliationSchema,
    },
    getReconciliation,
  );
  route.post(
    '/reconciliations/:id/tick',
    {
      summary: 'Tick or untick transactions',
      permission: 'post',
      body: reconciliationTickSchema,
      response: reconciliationSchema,
    },
    tickTransactions,
  );
  route.post(
    '/reconciliations/:id/finish',
    {
      summary: 'Finish at a zero difference; the ticked transactions lock',
      permission: 'post',
      response: reconciliationSchema,
    },
    finishReconciliation,
  );
  route.delete(
    '/reconciliations/:id',
    { summary: 'Cancel a reconciliation in progress', permission: 'post', response: null },
    cancelReconciliation,
  );
  route.post(
    '/reconciliations/undo-last',
    {
      summary: "Undo an account's latest finished reconciliation",
      permission: 'post',
      body: reconciliationUndoSchema,
      response: reconciliationSchema,
    },
    undoLastReconciliation,
  );
});
