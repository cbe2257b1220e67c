import {
  balanceHistoryQuerySchema,
  balanceHistorySchema,
  depositAccountInputSchema,
  exchangeRateInputSchema,
  exchangeRateListSchema,
  exchangeRateSchema,
  moneyAccountCreateSchema,
  moneyAccountSchema,
  moneyAccountUpdateSchema,
  walletQuerySchema,
  walletSummarySchema,
} from '../../../shared/wallet.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { listExchangeRates, setExchangeRate } from './rates.ts';
import { createMoneyAccount, deleteMoneyAccount, setDepositAccount, updateMoneyAccount } from './service.ts';
import { balanceHistory, getMoneyAccount, getWalletSummary } from './summary.ts';

// Money accounts, the wallet summary and exchange rates (docs/transactions.md, "Wallet").

export const walletRoutes = companyRoutePlugin(['wallet'], (route) => {
  route.get(
    '/wallet',
    {
      summary:
        'Money accounts with their ledger balances (today or asOf), the cash total and what the cards owe',
      permission: 'read',
      query: walletQuerySchema,
      response: walletSummarySchema,
    },
    getWalletSummary,
  );
  route.put(
    '/wallet/deposit-account',
    {
      summary: 'Choose the deposit account: where invoice payments go unless another is picked',
      permission: 'manage_settings',
      body: depositAccountInputSchema,
      response: walletSummarySchema,
    },
    setDepositAccount,
  );
  route.get(
    '/wallet/history',
    {
      summary: 'Month-end balances over time',
      permission: 'read',
      query: balanceHistoryQuerySchema,
      response: balanceHistorySchema,
    },
    balanceHistory,
  );
  route.post(
    '/wallet/accounts',
    {
      summary: 'Add a money account (creates its ledger account and posts the opening balance)',
      permission: 'manage_settings',
      body: moneyAccountCreateSchema,
      response: moneyAccountSchema,
      status: 201,
      idempotent: 'POST /wallet/accounts',
    },
    createMoneyAccount,
  );
  route.get(
    '/wallet/accounts/:id',
    { summary: 'One money account', permission: 'read', response: moneyAccountSchema },
    getMoneyAccount,
  );
  route.patch(
    '/wallet/accounts/:id',
    {
      summary: 'Rename, change details or the opening balance and date, archive or unarchive a money account',
      permission: 'manage_settings',
      body: moneyAccountUpdateSchema,
      response: moneyAccountSchema,
    },
    updateMoneyAccount,
  );
  route.delete(
    '/wallet/accounts/:id',
    {
      summary: 'Delete a money account that has no activity (one with activity is archived instead)',
      permission: 'manage_settings',
      response: null,
    },
    deleteMoneyAccount,
  );
  route.get(
    '/wallet/rates',
    { summary: 'Exchange rates, newest first', permission: 'read', response: exchangeRateListSchema },
    listExchangeRates,
  );
  route.post(
    '/wallet/rates',
    {
      summary: 'Set the rate of a currency on a date (base units per one unit)',
      permission: 'post',
      body: exchangeRateInputSchema,
      response: exchangeRateSchema,
    },
    setExchangeRate,
  );
});
