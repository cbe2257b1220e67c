import { describe, expect, it } from 'vitest';
import type { TaxRate } from '../../../shared/invoices.ts';
import {
  applySupplierDefaults,
  checkBillLine,
  dueFromTerms,
  newBillLine,
  serverFieldProblems,
  toApiBillLines,
} from './billEditorState.ts';

// The bill editor's pure rules: supplier defaults on new and untouched lines, line checks
// (an account is required), the due date from terms, and where server problems belong.

const supplierA = { defaultAccountId: 'acc-rent', defaultTaxRateId: 'tax-20', paymentTermsDays: 30 };
const supplierB = { defaultAccountId: 'acc-software', defaultTaxRateId: null, paymentTermsDays: 14 };
const vat: TaxRate = {
  id: 'tax-20',
  name: 'VAT',
  percent: '20',
  compound: false,
  inclusive: false,
  archived: false,
} as TaxRate;

describe('bill editor lines', () => {
  it('a new line starts on the supplier defaults', () => {
    const line = newBillLine(supplierA);
    expect(line.accountId).toBe('acc-rent');
    expect(line.taxRateIds).toEqual(['tax-20']);
    expect(newBillLine().accountId).toBe('');
  });

  it('requires an account, a description, a quantity and a price', () => {
    const empty = { ...newBillLine(), quantity: '0' };
    expect(Object.keys(checkBillLine(empty, 'EUR')).sort()).toEqual(
      ['accountId', 'description', 'quantity', 'unitPrice'].sort(),
    );
    const ok = { ...newBillLine(supplierA), description: 'Rent', unitPrice: '1200.00' };
    expect(checkBillLine(ok, 'EUR', [vat])).toEqual({});
    expect(checkBillLine({ ...ok, unitPrice: '12.345' }, 'EUR').unitPrice).toMatch(/EUR/);
  });

  it('sends minor units and the account', () => {
    const line = { ...newBillLine(supplierA), description: ' Rent ', unitPrice: '1,200.50' };
    expect(toApiBillLines([line], 'EUR')).toEqual([
      {
        itemId: null,
        description: 'Rent',
        quantity: '1',
        unitPrice: 120050,
        discountPercent: '0',
        taxRateIds: ['tax-20'],
        accountId: 'acc-rent',
      },
    ]);
    expect(() => toApiBillLines([line], 'JPY')).toThrow();
  });

  it("a new supplier's defaults replace only what was left on the old supplier's", () => {
    const untouched = newBillLine(supplierA);
    const changed = { ...newBillLine(supplierA), accountId: 'acc-travel', taxRateIds: ['tax-5'] };
    const [a, b] = applySupplierDefaults([untouched, changed], supplierA, supplierB);
    expect(a?.accountId).toBe('acc-software');
    // B has no default tax: the line keeps what it had.
    expect(a?.taxRateIds).toEqual(['tax-20']);
    expect(b?.accountId).toBe('acc-travel');
    expect(b?.taxRateIds).toEqual(['tax-5']);
    const [fresh] = applySupplierDefaults([newBillLine()], undefined, supplierA);
    expect(fresh?.accountId).toBe('acc-rent');
    expect(fresh?.taxRateIds).toEqual(['tax-20']);
  });
});

describe('due date and server problems', () => {
  it('is the issue date plus the terms', () => {
    expect(dueFromTerms('2026-11-20', supplierA)).toBe('2026-12-20');
    expect(dueFromTerms('2026-02-20', supplierB)).toBe('2026-03-06');
    expect(dueFromTerms('', supplierA)).toBe('');
    expect(dueFromTerms('2026-11-20', undefined)).toBe('');
  });

  it('puts line problems on their line and field problems on their field', () => {
    const found = serverFieldProblems([
      { field: 'lines.1.unitPrice', message: 'Too large' },
      { field: 'lines.0.taxRateIds', message: 'At most three' },
      { field: 'dueDate', message: 'Must be after the issue date' },
      { nonsense: true },
    ]);
    expect(found.lines).toEqual({ 1: { unitPrice: 'Too large' }, 0: { taxes: 'At most three' } });
    expect(found.fields).toEqual({ dueDate: 'Must be after the issue date' });
    expect(serverFieldProblems('no')).toEqual({ fields: {}, lines: {} });
  });
});
