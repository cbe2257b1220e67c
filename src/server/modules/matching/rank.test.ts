import { describe, expect, it } from 'vitest';
import type { OpenInvoiceForMatching } from '../invoices/bank-payments.ts';
import {
  type LineForMatching,
  type RecordedPaymentForMatching,
  buildIndex,
  rankLine,
  tokenKey,
} from './rank.ts';

// The ranking on its own, without a database.

const inv = (over: Partial<OpenInvoiceForMatching> & { id: string }): OpenInvoiceForMatching => ({
  number: `INV-${over.id}`,
  reference: '',
  customer_id: 'c1',
  customer_name: 'Northwind Traders',
  currency: 'USD',
  amount_due: 10_000,
  issue_date: '2026-03-01',
  due_date: '2026-03-31',
  ...over,
});
const line = (over: Partial<LineForMatching> = {}): LineForMatching => ({
  id: 'l1',
  date: '2026-03-10',
  amount: 10_000,
  description: 'Incoming',
  payee: null,
  ledgerAccountId: 'bank',
  ...over,
});

describe('rankLine', () => {
  it('puts the exact open amount first and leaves out what only fits the date', () => {
    const index = buildIndex(
      [
        inv({ id: '1', amount_due: 10_000, customer_id: 'c2', customer_name: 'Globex' }),
        inv({ id: '2', amount_due: 12_000 }),
      ],
      [],
    );
    const ranked = rankLine(index, line(), 5);
    expect(ranked.map((s) => s.invoiceId)).toEqual(['1']);
    expect(ranked[0]!.reasons).toEqual(expect.arrayContaining(['exact_amount', 'date_window']));
  });

  it('finds an invoice number written with a space or in lower case', () => {
    const index = buildIndex(
      [inv({ id: '0042', amount_due: 50_000, customer_id: 'c9', customer_name: 'Zeta' })],
      [],
    );
    for (const description of ['Payment inv 0042', 'PAYMENT INV-0042 THANKS', 'ref:INV0042']) {
      const ranked = rankLine(index, line({ description, amount: 20_000 }), 5);
      expect(ranked[0], description).toMatchObject({ invoiceId: '0042', amount: 20_000 });
      expect(ranked[0]!.reasons).toContain('number_in_text');
    }
    expect(tokenKey('INV-0042')).toBe('INV0042');
  });

  it('finds a customer by the distinctive word of the name, not by a short common one', () => {
    const index = buildIndex(
      [
        inv({ id: '1', amount_due: 70_000 }),
        inv({ id: '2', amount_due: 70_000, customer_id: 'c2', customer_name: 'Blue Sky Co' }),
      ],
      [],
    );
    expect(
      rankLine(index, line({ description: 'SEPA NORTHWIND', amount: 1_000 }), 5).map((s) => s.invoiceId),
    ).toEqual(['1']);
    // "blue" is too short to name Blue Sky Co alone; all of its words are needed.
    expect(rankLine(index, line({ description: 'BLUE PAYMENT', amount: 1_000 }), 5)).toEqual([]);
    expect(
      rankLine(index, line({ description: 'BLUE SKY CO', amount: 1_000 }), 5).map((s) => s.invoiceId),
    ).toEqual(['2']);
  });

  it('never suggests an invoice issued after the line, nor anything for money out', () => {
    const index = buildIndex([inv({ id: '1', issue_date: '2026-04-01' })], []);
    expect(rankLine(index, line(), 5)).toEqual([]);
    expect(rankLine(buildIndex([inv({ id: '1' })], []), line({ amount: -10_000 }), 5)).toEqual([]);
  });

  it('prefers a payment already recorded into the same account, near the date, over the invoice', () => {
    const payment: RecordedPaymentForMatching = {
      id: 'p1',
      invoice_id: '9',
      date: '2026-03-09',
      amount: 10_000,
      deposit_account_id: 'bank',
      number: 'INV-9',
      reference: '',
      customer_id: 'c1',
      customer_name: 'Northwind Traders',
      currency: 'USD',
      amount_due: 0,
      issue_date: '2026-03-01',
      due_date: '2026-03-31',
    };
    const index = buildIndex(
      [inv({ id: '1' })],
      [payment, { ...payment, id: 'p2', deposit_account_id: 'other' }],
    );
    const ranked = rankLine(index, line(), 5);
    expect(ranked.map((s) => s.paymentId ?? s.invoiceId)).toEqual(['p1', '1']);
    // Outside the window it is not suggested.
    expect(rankLine(index, line({ date: '2026-05-01' }), 5).some((s) => s.paymentId)).toBe(false);
  });
});
