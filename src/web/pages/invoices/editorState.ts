import {
  type DocumentTotals,
  type Invoice,
  type InvoiceLineInput,
  type TaxRate,
  calculateInvoice,
  parseDecimal,
} from '../../../shared/invoices.ts';
import { currencyExponent, minorToDecimalString, parseMoney } from '../../../shared/money.ts';

// The invoice editor's lines as typed, and their live totals through the very function the
// server posts with (src/shared/invoices.ts), so what the editor shows is what is sent.

export type EditorLine = {
  key: string;
  itemId: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discountPercent: string;
  /** Up to two taxes, in the order they apply (a compound one goes second). */
  taxRateIds: string[];
};

let counter = 0;
export const newLine = (partial: Partial<EditorLine> = {}): EditorLine => {
  counter += 1;
  return {
    key: `l${counter}`,
    itemId: '',
    description: '',
    quantity: '1',
    unitPrice: '',
    discountPercent: '',
    taxRateIds: [],
    ...partial,
  };
};

export const priceText = (minor: number, currency: string) =>
  minorToDecimalString(minor, currencyExponent(currency));

export type LineCheck = {
  quantity?: string;
  unitPrice?: string;
  discountPercent?: string;
  description?: string;
  taxes?: string;
};

const isDecimal = (text: string, places: number) =>
  new RegExp(`^\\d{1,12}(\\.\\d{1,${places}})?$`).test(text.trim());

/** What is wrong with a line as typed, field by field (empty when it can be saved). */
export const checkLine = (line: EditorLine, currency: string, taxRates: TaxRate[] = []): LineCheck => {
  const problems: LineCheck = {};
  if (new Set(line.taxRateIds).size !== line.taxRateIds.length)
    problems.taxes = 'The same tax is chosen twice.';
  const chosen = taxRates.filter((t) => line.taxRateIds.includes(t.id));
  if (chosen.some((t) => t.inclusive) && chosen.some((t) => !t.inclusive)) {
    problems.taxes = 'A line cannot mix tax-inclusive and tax-exclusive rates.';
  }
  if (!isDecimal(line.quantity, 6) || parseDecimal(line.quantity.trim()).n === 0n) {
    problems.quantity = 'Enter a quantity greater than zero (up to 6 decimals).';
  }
  try {
    if (line.unitPrice.trim() === '') throw new Error();
    parseMoney(line.unitPrice, currency);
  } catch {
    problems.unitPrice = `Enter a price in ${currency}, e.g. 125.00.`;
  }
  const discount = line.discountPercent.trim();
  if (
    discount !== '' &&
    (!isDecimal(discount, 4) || parseDecimal(discount).n > 100n * parseDecimal(discount).d)
  ) {
    problems.discountPercent = 'Discount is a percentage from 0 to 100.';
  }
  if (!line.description.trim() && !line.itemId) problems.description = 'Describe the line or choose an item.';
  return problems;
};

/** Live totals: lines that cannot be computed yet count as zero. */
export const editorTotals = (lines: EditorLine[], taxRates: TaxRate[], currency: string): DocumentTotals => {
  const rates = new Map(taxRates.map((t) => [t.id, t]));
  return calculateInvoice(
    lines.map((line) => {
      const problems = checkLine(line, currency);
      if (problems.quantity || problems.unitPrice || problems.discountPercent)
        return { quantity: '1', unitPrice: 0 };
      if (problems.taxes) return { quantity: '1', unitPrice: 0 };
      const taxes = line.taxRateIds.map((id) => rates.get(id)).filter((t): t is TaxRate => Boolean(t));
      if (taxes.some((t) => t.inclusive) && taxes.some((t) => !t.inclusive))
        return { quantity: '1', unitPrice: 0 };
      return {
        quantity: line.quantity.trim(),
        unitPrice: parseMoney(line.unitPrice, currency),
        discountPercent: line.discountPercent.trim() || '0',
        taxes: taxes.map((t) => ({
          id: t.id,
          percent: t.percent,
          compound: t.compound,
          inclusive: t.inclusive,
        })),
      };
    }),
  );
};

export const toApiLines = (lines: EditorLine[], currency: string): InvoiceLineInput[] =>
  lines.map((line) => ({
    itemId: line.itemId || null,
    description: line.description.trim(),
    quantity: line.quantity.trim(),
    unitPrice: parseMoney(line.unitPrice, currency),
    discountPercent: line.discountPercent.trim() || '0',
    taxRateIds: line.taxRateIds,
  }));

/** The fields of a stored invoice line (src/shared/invoices.ts) that the editor fills in again. */
type StoredLine = Pick<
  Invoice['lines'][number],
  'itemId' | 'description' | 'quantity' | 'unitPrice' | 'discountPercent' | 'taxRateIds'
>;

export const fromInvoiceLines = (lines: StoredLine[], currency: string): EditorLine[] =>
  lines.map((l) =>
    newLine({
      itemId: l.itemId ?? '',
      description: l.description,
      quantity: l.quantity,
      unitPrice: priceText(l.unitPrice, currency),
      discountPercent: l.discountPercent === '0' ? '' : l.discountPercent,
      taxRateIds: l.taxRateIds,
    }),
  );
