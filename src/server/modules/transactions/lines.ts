import { badRequest } from '../../../shared/errors.ts';
import { convertMinor, divideRoundHalfAwayFromZero } from '../../../shared/money.ts';
import type { PostingLineInput } from '../ledger/posting.ts';

// The journal lines of one bank transaction. Money in debits the money account and credits
// the category; money out the other way round. A split credits (or debits) each part's
// category; a tax rate carves the tax out of a single-category amount onto the sales tax
// account. A foreign-currency account's line carries its own amount and the rate; the other
// lines are in the base currency, with any rounding cent on the largest part.

export type TransactionPart = { accountId: string; amount: number; description?: string | null };

export type TransactionPostingInput = {
  moneyLedgerAccountId: string;
  currency: string;
  baseCurrency: string;
  /** Signed minor units of the account's currency. */
  amount: number;
  /** Signed parts that add up to the amount; one part for a single category. */
  parts: TransactionPart[];
  /** Basis points; only with a single part. */
  taxRate: number | null;
  taxAccountId: string | null;
  /** Base units per one account-currency unit, for a foreign account. */
  rate: string | null;
  description: string;
};

const toBase = (minor: number, input: TransactionPostingInput) =>
  input.currency === input.baseCurrency
    ? minor
    : convertMinor(minor, input.currency, input.rate!, input.baseCurrency);

/** Signed base-currency amounts of the parts, adjusted so they add up to the money line exactly. */
const partsInBase = (input: TransactionPostingInput, totalBase: number) => {
  const values = input.parts.map((p) => Math.sign(p.amount) * toBase(Math.abs(p.amount), input));
  const diff = totalBase - values.reduce((s, v) => s + v, 0);
  if (diff !== 0) {
    let largest = 0;
    values.forEach((v, i) => {
      if (Math.abs(v) > Math.abs(values[largest]!)) largest = i;
    });
    values[largest]! += diff;
  }
  return values;
};

export const transactionLines = (input: TransactionPostingInput): PostingLineInput[] => {
  if (input.amount === 0) throw badRequest('invalid_amount', 'A transaction cannot be zero.');
  const partsTotal = input.parts.reduce((s, p) => s + p.amount, 0);
  if (partsTotal !== input.amount) {
    throw badRequest(
      'split_mismatch',
      `The parts add up to ${partsTotal} but the transaction is ${input.amount} (minor units); they must be equal.`,
      { partsTotal, amount: input.amount },
    );
  }
  if (input.currency !== input.baseCurrency && !input.rate) {
    throw badRequest('rate_required', `Give the ${input.currency} to ${input.baseCurrency} exchange rate.`);
  }
  const abs = Math.abs(input.amount);
  const absBase = toBase(abs, input);
  if (absBase === 0)
    throw badRequest('invalid_amount', 'The amount is too small to post at this exchange rate.');
  const moneyIn = input.amount > 0;
  const moneyLine: PostingLineInput = {
    accountId: input.moneyLedgerAccountId,
    ...(moneyIn ? { debit: absBase } : { credit: absBase }),
    ...(input.currency !== input.baseCurrency
      ? { currency: input.currency, amount: abs, rate: input.rate! }
      : {}),
    description: input.description.slice(0, 500),
  };
  const signedBase = moneyIn ? absBase : -absBase;
  const values = partsInBase(input, signedBase);
  const lines: PostingLineInput[] = [moneyLine];
  input.parts.forEach((part, i) => {
    let value = values[i]!;
    if (value === 0) return;
    if (input.taxRate && input.taxAccountId && input.parts.length === 1) {
      // Tax included in the amount: tax = amount x rate / (1 + rate), rounded half away from zero.
      const tax = Number(
        divideRoundHalfAwayFromZero(BigInt(value) * BigInt(input.taxRate), BigInt(10000 + input.taxRate)),
      );
      if (tax !== 0) {
        lines.push({
          accountId: input.taxAccountId,
          ...(tax > 0 ? { credit: tax } : { debit: -tax }),
          description: 'Tax',
        });
        value -= tax;
      }
    }
    if (value === 0) return;
    lines.push({
      accountId: part.accountId,
      // Money in (positive) is credited to the category; money out debited.
      ...(value > 0 ? { credit: value } : { debit: -value }),
      description: (part.description ?? input.description).slice(0, 500),
    });
  });
  return lines;
};
