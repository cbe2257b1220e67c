import type {
  BalanceSheet,
  CashFlow,
  DateFormat,
  GeneralLedger,
  IncomeFigure,
  IncomeStatement,
  TrialBalance,
} from '../../../shared/ledger.ts';
import { changePercent } from '../../../shared/ledger.ts';
import { comparisonPeriod, periodName } from '../../../shared/dates.ts';
import { type Formatter, formatterFor } from '../../../shared/format.ts';
import { formatMoney } from '../../../shared/money.ts';
import { type CsvCell, csvAmount, csvDecimal, csvRows } from '../../http/csv.ts';
import type { accountTransactions, journalReport } from './reports.ts';

// Reports as tables, then as CSV (ISO dates and plain decimal amounts, for spreadsheets) or
// PDF (amounts and dates formatted for people, in the user's chosen style). A table's cells
// say what they hold (text, an amount, a date, a percentage); `formatCell` is the one place
// that writes them for people, so the PDF follows the one formatter.

export type FormatPreferences = {
  dateFormat: DateFormat;
  locale: string;
  currencyDisplay: 'symbol' | 'code';
};

// Dates go through the app's one formatter (src/shared/format.ts), one per date format.
const formatters = new Map<DateFormat, Formatter>();
const formatterOf = (dateFormat: DateFormat) => {
  let f = formatters.get(dateFormat);
  if (!f) {
    f = formatterFor({ dateFormat });
    formatters.set(dateFormat, f);
  }
  return f;
};

/** An ISO date in the chosen layout ("03/31/2026" for MM/DD/YYYY), by the one formatter. */
export const formatDate = (iso: string, format: DateFormat) => formatterOf(format).date(iso);

/** A cell: text, an amount in minor units, an ISO date, or a change in percent (null: none). */
export type Cell = string | { amount: number } | { date: string } | { percent: number | null } | null;
export type ReportTable = {
  title: string;
  subtitle: string;
  currency: string;
  /** `amount` columns are right-aligned numbers (amounts and percentages). */
  columns: { label: string; amount?: boolean }[];
  rows: { cells: Cell[]; bold?: boolean }[];
};

/** A cell as a spreadsheet reads it: ISO dates, plain decimal amounts and percentages. */
const csvCell = (cell: Cell, currency: string): CsvCell => {
  if (cell === null || typeof cell === 'string') return cell;
  if ('amount' in cell) return csvAmount(cell.amount, currency);
  if ('date' in cell) return cell.date;
  return cell.percent === null ? '' : csvDecimal(cell.percent.toFixed(1));
};

/** A cell as people read it, in the user's date and number style: the one formatting function of report PDFs. */
export const formatCell = (cell: Cell, currency: string, prefs: FormatPreferences): string => {
  if (cell === null) return '';
  if (typeof cell === 'string') return cell;
  if ('amount' in cell)
    return formatMoney(cell.amount, currency, {
      locale: prefs.locale,
      display: prefs.currencyDisplay,
      accounting: true,
    });
  if ('date' in cell) return formatDate(cell.date, prefs.dateFormat);
  return cell.percent === null
    ? '–'
    : `${new Intl.NumberFormat(prefs.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(cell.percent)}%`;
};

export const tableToCsv = (table: ReportTable) =>
  csvRows([
    table.columns.map((c) => c.label),
    ...table.rows.map((row) => row.cells.map((cell) => csvCell(cell, table.currency))),
  ]);

export const tableToPdf = async (
  table: ReportTable,
  prefs: FormatPreferences,
  companyName: string,
): Promise<Buffer> => {
  // pdfkit (and its fonts) is imported when the first PDF is drawn, not at start (issue 20 §6).
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    // Wide tables (the income statement with both comparisons) go landscape.
    const landscape = table.columns.length > 7;
    const doc = new PDFDocument({
      size: 'A4',
      layout: landscape ? 'landscape' : 'portrait',
      margin: 40,
      info: { Title: table.title },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const width = doc.page.width - 80;
    const amountCols = table.columns.filter((c) => c.amount).length;
    const amountWidth = amountCols > 0 ? Math.min(95, (width * (landscape ? 0.7 : 0.55)) / amountCols) : 0;
    const textCols = table.columns.length - amountCols;
    const textWidth = textCols > 0 ? (width - amountWidth * amountCols) / textCols : 0;
    const widths = table.columns.map((c) => (c.amount ? amountWidth : textWidth));
    doc.font('Helvetica-Bold').fontSize(14).text(companyName);
    doc.fontSize(12).text(table.title);
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#555555')
      .text(table.subtitle)
      .fillColor('#000000')
      .moveDown(0.8);
    const drawRow = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
      const heights = cells.map((c, i) => doc.heightOfString(c, { width: widths[i]! - 4 }));
      const h = Math.max(12, ...heights) + 2;
      if (doc.y + h > doc.page.height - 50) doc.addPage();
      const y = doc.y;
      let x = 40;
      cells.forEach((c, i) => {
        doc.text(c, x + 2, y, { width: widths[i]! - 4, align: table.columns[i]!.amount ? 'right' : 'left' });
        x += widths[i]!;
      });
      doc.x = 40;
      doc.y = y + h;
    };
    drawRow(
      table.columns.map((c) => c.label),
      true,
    );
    doc
      .moveTo(40, doc.y)
      .lineTo(40 + width, doc.y)
      .strokeColor('#999999')
      .stroke();
    doc.y += 3;
    for (const row of table.rows) {
      drawRow(
        row.cells.map((c) => formatCell(c, table.currency, prefs)),
        row.bold ?? false,
      );
    }
    doc.end();
  });
};

const amt = (n: number): Cell => ({ amount: n });
const acct = (r: { code: string; name: string }) => `${r.code} ${r.name}`;

/** "Jan 1 to Mar 31 · USD", or "Through Mar 31 · USD" when the range is open at the start. */
const rangeSubtitle = (r: { from: string | null; to: string; currency: string }, prefs: FormatPreferences) =>
  `${r.from ? `${formatDate(r.from, prefs.dateFormat)} to ` : 'Through '}${formatDate(r.to, prefs.dateFormat)} · ${r.currency}`;

/** The columns every line-by-line report starts with. */
const ENTRY_COLUMNS = [{ label: 'Date' }, { label: 'Entry' }, { label: 'Account' }, { label: 'Memo' }];

export const trialBalanceTable = (r: TrialBalance, prefs: FormatPreferences): ReportTable => ({
  title: 'Trial balance',
  subtitle: r.from
    ? `${formatDate(r.from, prefs.dateFormat)} to ${formatDate(r.to, prefs.dateFormat)} · ${r.currency}`
    : `As of ${formatDate(r.to, prefs.dateFormat)} · ${r.currency}`,
  currency: r.currency,
  columns: [
    { label: 'Account' },
    { label: 'Type' },
    { label: 'Opening', amount: true },
    { label: 'Debit', amount: true },
    { label: 'Credit', amount: true },
    { label: 'Closing debit', amount: true },
    { label: 'Closing credit', amount: true },
  ],
  rows: [
    ...r.rows.map((row) => ({
      cells: [
        acct(row),
        row.type,
        amt(row.openingBalance),
        amt(row.debit),
        amt(row.credit),
        row.closingBalance > 0 ? amt(row.closingBalance) : null,
        row.closingBalance < 0 ? amt(-row.closingBalance) : null,
      ],
    })),
    {
      cells: [
        'Total',
        '',
        null,
        amt(r.totals.debit),
        amt(r.totals.credit),
        amt(r.totals.closingDebit),
        amt(r.totals.closingCredit),
      ],
      bold: true,
    },
  ],
});

export const incomeStatementTable = (r: IncomeStatement, prefs: FormatPreferences): ReportTable => {
  const f = (d: string) => formatDate(d, prefs.dateFormat);
  const t = r.totals;
  // Per comparison: its amount, the change and the change in percent.
  const pick = {
    previous: (l: Line) => l.previousAmount ?? 0,
    lastYear: (l: Line) => l.lastYearAmount ?? 0,
  };
  const totalOf = {
    previous: (k: IncomeFigure) => t[`previous${k.charAt(0).toUpperCase()}${k.slice(1)}` as keyof typeof t],
    lastYear: (k: IncomeFigure) => t[`lastYear${k.charAt(0).toUpperCase()}${k.slice(1)}` as keyof typeof t],
  };
  const compared = (current: number, other: (c: IncomeStatement['comparisons'][number]) => number): Cell[] =>
    r.comparisons.flatMap((c) => {
      const was = other(c);
      return [amt(was), amt(current - was), { percent: changePercent(current, was) }];
    });
  const blank = (): Cell[] => [null, ...r.comparisons.flatMap(() => [null, null, null])];
  const lineRow = (l: Line) => ({
    cells: [`  ${acct(l)}`, amt(l.amount), ...compared(l.amount, (c) => pick[c.kind](l))],
  });
  const totalRow = (label: string, k: IncomeFigure) => ({
    cells: [label, amt(t[k]), ...compared(t[k], (c) => totalOf[c.kind](k))],
    bold: true,
  });
  const section = (label: string, lines: Line[], k: IncomeFigure) => [
    { cells: [label, ...blank()], bold: true },
    ...lines.map(lineRow),
    totalRow(`Total ${label.toLowerCase()}`, k),
  ];
  const labels = r.comparisons.map((c) => comparisonPeriod(c.kind, r.from, r.to, f).label);
  return {
    title: 'Income statement',
    subtitle: `${f(r.from)} to ${f(r.to)}${labels.length ? `, compared with ${labels.join(' and ')}` : ''} · ${r.currency}`,
    currency: r.currency,
    columns: [
      { label: 'Account' },
      { label: periodName(r.from, r.to, f), amount: true },
      ...labels.flatMap((label) => [
        { label, amount: true },
        { label: 'Change', amount: true },
        { label: 'Change %', amount: true },
      ]),
    ],
    rows: [
      ...section('Income', r.income, 'income'),
      ...section('Cost of sales', r.costOfSales, 'costOfSales'),
      totalRow('Gross profit', 'grossProfit'),
      ...section('Expenses', r.expenses, 'expenses'),
      totalRow('Net income', 'netIncome'),
    ],
  };
};
type Line = IncomeStatement['income'][number];

export const balanceSheetTable = (r: BalanceSheet, prefs: FormatPreferences): ReportTable => {
  const section = (label: string, lines: BalanceSheet['assets']) => [
    { cells: [label, null], bold: true },
    ...lines.map((l) => ({ cells: [`  ${acct(l)}`, amt(l.amount)] })),
  ];
  return {
    title: 'Balance sheet',
    subtitle: `As of ${formatDate(r.asOf, prefs.dateFormat)} · ${r.currency}`,
    currency: r.currency,
    columns: [{ label: 'Account' }, { label: 'Amount', amount: true }],
    rows: [
      ...section('Assets', r.assets),
      { cells: ['Total assets', amt(r.totals.assets)], bold: true },
      ...section('Liabilities', r.liabilities),
      { cells: ['Total liabilities', amt(r.totals.liabilities)], bold: true },
      ...section('Equity', r.equity),
      ...(r.priorYearsUnclosedEarnings !== 0
        ? [{ cells: ['  Retained earnings (years not closed)', amt(r.priorYearsUnclosedEarnings)] }]
        : []),
      { cells: ['  Current year earnings', amt(r.currentYearEarnings)] },
      { cells: ['Total equity', amt(r.totals.equity)], bold: true },
      { cells: ['Total liabilities and equity', amt(r.totals.liabilitiesAndEquity)], bold: true },
    ],
  };
};

export const cashFlowTable = (r: CashFlow, prefs: FormatPreferences): ReportTable => {
  const lines = (xs: CashFlow['investing'], prefix: string) =>
    xs.map((l) => ({ cells: [`  ${prefix}${acct(l)}`, amt(l.amount)] }));
  const section = (label: string, xs: CashFlow['investing'], total: number) => [
    { cells: [label, null], bold: true },
    ...lines(xs, 'Change in '),
    { cells: [`Net cash from ${label.toLowerCase()}`, amt(total)], bold: true },
  ];
  return {
    title: 'Cash flow statement',
    subtitle: `${formatDate(r.from, prefs.dateFormat)} to ${formatDate(r.to, prefs.dateFormat)} · indirect method · ${r.currency}`,
    currency: r.currency,
    columns: [{ label: 'Item' }, { label: 'Amount', amount: true }],
    rows: [
      { cells: ['Operating activities', null], bold: true },
      { cells: ['  Net income', amt(r.netIncome)] },
      ...(r.adjustments.length
        ? [{ cells: ['  Adjustments for non-cash items', null] }, ...lines(r.adjustments, '  Change in ')]
        : []),
      ...(r.workingCapital.length
        ? [{ cells: ['  Changes in working capital', null] }, ...lines(r.workingCapital, '  Change in ')]
        : []),
      { cells: ['Net cash from operating activities', amt(r.totals.operating)], bold: true },
      ...section('Investing activities', r.investing, r.totals.investing),
      ...section('Financing activities', r.financing, r.totals.financing),
      { cells: ['Net change in cash', amt(r.totals.netChange)], bold: true },
      { cells: ['Cash at start', amt(r.totals.openingCash)] },
      { cells: ['Cash at end', amt(r.totals.closingCash)], bold: true },
    ],
  };
};

export const generalLedgerTable = (r: GeneralLedger, prefs: FormatPreferences): ReportTable => ({
  title: `General ledger: ${acct(r.account)}`,
  subtitle: rangeSubtitle(r, prefs),
  currency: r.currency,
  columns: [
    { label: 'Date' },
    { label: 'Entry' },
    { label: 'Description' },
    { label: 'Debit', amount: true },
    { label: 'Credit', amount: true },
    { label: 'Balance', amount: true },
  ],
  rows: [
    { cells: ['', '', 'Opening balance', null, null, amt(r.openingBalance)], bold: true },
    ...r.rows.map((row) => ({
      cells: [
        { date: row.date },
        String(row.entryNumber),
        row.description || row.memo,
        row.debit ? amt(row.debit) : null,
        row.credit ? amt(row.credit) : null,
        amt(row.balance),
      ],
    })),
  ],
});

export const journalTable = (
  r: Awaited<ReturnType<typeof journalReport>>,
  prefs: FormatPreferences,
): ReportTable => ({
  title: 'Journal',
  subtitle: rangeSubtitle(r, prefs),
  currency: r.currency,
  columns: [...ENTRY_COLUMNS, { label: 'Debit', amount: true }, { label: 'Credit', amount: true }],
  rows: r.entries.flatMap((e) =>
    e.lines.map((l, i) => ({
      cells: [
        i === 0 ? { date: e.date } : '',
        i === 0 ? String(e.number) : '',
        `${l.accountCode} ${l.accountName}`,
        i === 0 ? e.memo : (l.description ?? ''),
        l.debit ? amt(l.debit) : null,
        l.credit ? amt(l.credit) : null,
      ],
    })),
  ),
});

export const accountTransactionsTable = (
  r: Awaited<ReturnType<typeof accountTransactions>>,
  prefs: FormatPreferences,
): ReportTable => ({
  title: 'Account transactions',
  subtitle: rangeSubtitle(r, prefs),
  currency: r.currency,
  columns: [
    ...ENTRY_COLUMNS,
    { label: 'Split' },
    { label: 'Debit', amount: true },
    { label: 'Credit', amount: true },
  ],
  rows: r.rows.map((row) => ({
    cells: [
      { date: row.date },
      String(row.entryNumber),
      row.account,
      row.description || row.memo,
      row.split,
      row.debit ? amt(row.debit) : null,
      row.credit ? amt(row.credit) : null,
    ],
  })),
});
