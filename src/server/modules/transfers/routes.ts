import { transferInputSchema, transferSchema } from '../../../shared/wallet.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { createTransfer, deleteTransfer } from './service.ts';

// Transfers keep their place under /wallet in the API (and the wallet tag in the docs).

export const transferRoutes = companyRoutePlugin(['wallet'], (route) => {
  route.post(
    '/wallet/transfers',
    {
      summary: 'Move money between two accounts (same or different currency), posted as one entry',
      permission: 'post',
      body: transferInputSchema,
      response: transferSchema,
      status: 201,
      idempotent: 'POST /wallet/transfers',
    },
    createTransfer,
  );
  route.delete(
    '/wallet/transfers/:id',
    { summary: 'Delete a transfer (its entry is reversed)', permission: 'post', response: null },
    deleteTransfer,
  );
});
