import { describe, expect, it } from 'vitest';
import type { TaxRate } from '../../../shared/invoices.ts';
import { checkLine, editorTotals, newLine, toApiLines } from './editorState.ts';

const vat: TaxRate = {
  id: 'vat',
  name: 'VAT',
  percent: '20',
  accountId: 'a',
  inclusive: false,
  compound: false,
  archived: false,
};

describe('invoice editor state', () => {
  it('shows the same totals the server computes, from what was typed', () => {
    const lines = [
      newLine({ description: 'Consulting', quantity: '2', unitPrice: '125.00', taxRateIds: ['vat'] }),
      newLine({ description: 'Travel', quantity: '1', unitPrice: '33.33', discountPercent: '10' }),
    ];
    const totals = editorTotals(lines, [vat], 'USD');
    expect(totals.subtotal).toBe(28_000);
    expect(totals.taxTotal).toBe(5_000);
    expect(totals.total).toBe(33_000);
    expect(toApiLines(lines, 'USD')[1]).toMatchObject({
      unitPrice: 3333,
      discountPercent: '10',
      taxRateIds: [],
    });
  });

  it('counts unfinished lines as zero and says what is wrong', () => {
    const line = newLine({ description: '', quantity: '0', unitPrice: 'abc', discountPercent: '120' });
    expect(editorTotals([line], [], 'USD').total).toBe(0);
    const problems = checkLine(line, 'USD');
    expect(Object.keys(problems).sort()).toEqual(['description', 'discountPercent', 'quantity', 'unitPrice']);
    expect(checkLine(newLine({ description: 'x', quantity: '1.5', unitPrice: '10' }), 'USD')).toEqual({});
    expect(
      checkLine(newLine({ description: 'x', quantity: '1', unitPrice: '10.5' }), 'JPY').unitPrice,
    ).toBeTruthy();
    const incl: TaxRate = { ...vat, id: 'incl', inclusive: true };
    const mixed = newLine({ description: 'x', unitPrice: '1', taxRateIds: ['vat', 'incl'] });
    expect(checkLine(mixed, 'USD', [vat, incl]).taxes).toMatch(/mix/);
  });

  it('stacks a compound tax as the second tax of a line', () => {
    const qst: TaxRate = { ...vat, id: 'qst', percent: '9.975', compound: true };
    const gst: TaxRate = { ...vat, id: 'gst', percent: '5' };
    const line = newLine({ description: 'x', unitPrice: '100.00', taxRateIds: ['gst', 'qst'] });
    const totals = editorTotals([line], [gst, qst], 'USD');
    expect(totals.taxes.map((t) => t.amount)).toEqual([500, 1047]);
    expect(totals.total).toBe(11_547);
  });
});
