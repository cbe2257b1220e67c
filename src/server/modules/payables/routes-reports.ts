import { reportFormatQuerySchema } from '../../../shared/ledger.ts';
import { payablesAgingQuerySchema, payablesAgingSchema } from '../../../shared/payables.ts';
import { csvReply } from '../../http/csv.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { payablesAgingReport } from './reports.ts';

// Payables routes: reports. The aging answers JSON, CSV or PDF (format=json|csv|pdf) as the
// ledger's reports do (ledger/routes-reports.ts), with the same date and amount preferences.

export const payablesReportsRoutes = companyRoutePlugin(['payables'], (route) => {
  route.get(
    '/payables/aging',
    {
      summary:
        'Accounts payable aging per supplier as of a date, in the base currency, with the ledger balance (format=json|csv|pdf)',
      permission: 'read',
      query: payablesAgingQuerySchema.extend(reportFormatQuerySchema.shape),
      response: payablesAgingSchema,
      produces: ['text/csv', 'application/pdf'],
    },
    async (ctx, member, input, { reply }) => {
      const output = await payablesAgingReport(ctx, member, input);
      if (output.format === 'json') return output.data;
      if (output.format === 'csv') return csvReply(reply, output.fileName).send(output.body);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${output.fileName}"`)
        .send(output.body);
    },
  );
});
