import type { WalletSummary } from '../../../shared/wallet.ts';

/**
 * The money account a transactions form (reconcile, statement import) is on: the one the
 * person picked while it is still open, else the company's deposit account, else the first
 * open account. Read on every render, so a wallet that loads after the dialog mounted still
 * gives the dialog its account (a useState initialiser would have kept '').
 */
export const formMoneyAccountId = (wallet: WalletSummary | undefined, picked: string): string => {
  const live = (wallet?.accounts ?? []).filter((a) => !a.archived);
  if (picked && live.some((a) => a.id === picked)) return picked;
  const deposit = live.find((a) => a.id === wallet?.defaultDepositAccountId);
  return (deposit ?? live[0])?.id ?? '';
};
