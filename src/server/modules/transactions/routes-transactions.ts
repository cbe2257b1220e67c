import { Readable } from 'node:stream';
import {
  attachmentBase64UploadSchema,
  attachmentListSchema,
  attachmentSchema,
} from '../../../shared/attachments.ts';
import {
  applyRulesInputSchema,
  applyRulesResultSchema,
  bulkCategorizeResultSchema,
  bulkCategorizeSchema,
  transactionCreateSchema,
  transactionListQuerySchema,
  transactionPageSchema,
  transactionSchema,
  transactionTotalsSchema,
  transactionUpdateSchema,
} from '../../../shared/transactions.ts';
import { csvReply } from '../../http/csv.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { onReplica } from '../../http/read-replica.ts';
import { BASE64_BODY_LIMIT, sendAttachment } from '../attachments/http.ts';
import { receiptsOf } from '../attachments/receipts.ts';
import { applyRulesNow, bulkCategorize } from './categorize.ts';
import {
  exportTransactionsCsv,
  getTransaction,
  listTransactions,
  transactionTotals,
} from './read-service.ts';
import { deleteTransaction, recordTransaction, updateTransaction } from './service.ts';

// The bank transactions: the filtered list, its totals and CSV, recording, editing and
// deleting one, categorising many, and the receipts attached to one.

const receipts = receiptsOf('bank_transaction');

export const transactionListRoutes = companyRoutePlugin(['transactions'], (route) => {
  route.get(
    '/transactions',
    {
      summary: 'Bank transactions, filtered and sorted, a page at a time (keyset cursor)',
      permission: 'read',
      query: transactionListQuerySchema,
      response: transactionPageSchema,
    },
    onReplica(listTransactions),
  );
  route.get(
    '/transactions/totals',
    {
      summary: 'Count, money in and money out of what the filter shows, per currency',
      permission: 'read',
      query: transactionListQuerySchema,
      response: transactionTotalsSchema,
    },
    onReplica(transactionTotals),
  );
  route.get(
    '/transactions/export.csv',
    {
      summary: 'The filtered list as CSV',
      permission: 'read',
      query: transactionListQuerySchema,
      produces: ['text/csv'],
    },
    async (c, member, query, { reply }) =>
      csvReply(reply, `transactions-${c.now().toISOString().slice(0, 10)}.csv`).send(
        Readable.from(exportTransactionsCsv(c, member, query)),
      ),
  );
  route.post(
    '/transactions',
    {
      summary: 'Record a transaction (posts it to the ledger)',
      permission: 'post',
      body: transactionCreateSchema,
      response: transactionSchema,
      status: 201,
      idempotent: 'POST /transactions',
    },
    recordTransaction,
  );
  route.post(
    '/transactions/bulk-categorize',
    {
      summary: 'Categorise many transactions at once',
      permission: 'post',
      body: bulkCategorizeSchema,
      response: bulkCategorizeResultSchema,
    },
    bulkCategorize,
  );
  route.post(
    '/transactions/apply-rules',
    {
      summary: 'Run the categorisation rules over uncategorised transactions now',
      permission: 'post',
      body: applyRulesInputSchema,
      response: applyRulesResultSchema,
    },
    applyRulesNow,
  );
  route.get(
    '/transactions/:id',
    { summary: 'One transaction', permission: 'read', response: transactionSchema },
    getTransaction,
  );
  route.patch(
    '/transactions/:id',
    {
      summary: 'Edit, categorise or split a transaction (reverses and reposts its entry)',
      permission: 'post',
      body: transactionUpdateSchema,
      response: transactionSchema,
    },
    updateTransaction,
  );
  route.delete(
    '/transactions/:id',
    { summary: 'Delete a transaction (its entry is reversed)', permission: 'post', response: null },
    deleteTransaction,
  );

  route.get(
    '/transactions/:id/attachments',
    { summary: 'Files attached to a transaction', permission: 'read', response: attachmentListSchema },
    receipts.list,
  );
  route.post(
    '/transactions/:id/attachments',
    {
      summary:
        'Attach a receipt (base64; PDF, PNG, JPEG, GIF, WebP, HEIC or plain text, at most 10 MB; the type is read from the bytes, contentType is ignored)',
      permission: 'record',
      body: attachmentBase64UploadSchema,
      response: attachmentSchema,
      status: 201,
      bodyLimit: BASE64_BODY_LIMIT,
    },
    receipts.attachBase64,
  );
  route.get(
    '/transactions/:id/attachments/:attachmentId',
    {
      summary: 'Download an attached file',
      permission: 'read',
      produces: ['application/pdf', 'image/*', 'text/plain'],
    },
    async (c, member, input, { reply }) => sendAttachment(reply, await receipts.read(c, member, input)),
  );
  route.delete(
    '/transactions/:id/attachments/:attachmentId',
    { summary: 'Remove an attached file', permission: 'record', response: null },
    receipts.remove,
  );
});
