import PDFDocument from 'pdfkit';
import type {
  BalanceSheet,
  CashFlow,
  DateFormat,
  GeneralLedger,
  IncomeStatement,
  TrialBalance,
} from '../../../shared/ledger.ts';
import { formatMoney } from '../../../shared/money.ts';
import { csvAmount, csvRows } from '../../http/csv.ts';
import type { accountTransactions, journalReport } from './reports.ts';

// Reports as tables, then as CSV (plain decimal amounts, for spreadsheets) or PDF (amounts
// and dates formatted for people, in the user's chosen style).

export type FormatPreferences = {
  dateFormat: DateFormat;
  locale: string;
  currencyDisplay: 'symbol' | 'code';
};

export const formatDate = (iso: string, format: DateFormat) => {
  const [y, m, d] = iso.split('-');
  switch (format) {
    case 'MM/DD/YYYY':
      return `${m}/${d}/${y}`;
    case 'DD/MM/YYYY':
      return `${d}/${m}/${y}`;
    case 'DD.MM.YYYY':
      return `${d}.${m}.${y}`;
    default:
      return iso;
  }
};

type Cell = string | { amount: number } | null;
export type ReportTable = {
  title: string;
  subtitle: string;
  currency: string;
  columns: { label: string; amount?: boolean }[];
  rows: { cells: Cell[]; bold?: boolean }[];
};

export const tableToCsv = (table: ReportTable) =>
  csvRows([
    table.columns.map((c) => c.label),
    ...table.rows.map((row) =>
      row.cells.map((cell) =>
        cell === null || typeof cell === 'string' ? cell : csvAmount(cell.amount, table.currency),
      ),
    ),
  ]);

export const tableToPdf = (
  table: ReportTable,
  prefs: FormatPreferences,
  companyName: string,
): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: table.title } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const width = doc.page.width - 80;
    const amountCols = table.columns.filter((c) => c.amount).length;
    const amountWidth = amountCols > 0 ? Math.min(95, (width * 0.55) / amountCols) : 0;
    const textCols = table.columns.length - amountCols;
    const textWidth = textCols > 0 ? (width - amountWidth * amountCols) / textCols : 0;
    const widths = table.columns.map((c) => (c.amount ? amountWidth : textWidth));
    const money = (n: number) =>
      formatMoney(n, table.currency, {
        locale: prefs.locale,
        display: prefs.currencyDisplay,
        accounting: true,
      });
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
        row.cells.map((c) => (c === null ? '' : typeof c === 'string' ? c : money(c.amount))),
        row.bold ?? false,
      );
    }
    doc.end();
  });

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
  const section = (label: string, lines: IncomeStatement['income'], total: number, previous: number) => [
    { cells: [label, null, null], bold: true },
    ...lines.map((l) => ({ cells: [`  ${acct(l)}`, amt(l.amount), amt(l.previousAmount ?? 0)] })),
    { cells: [`Total ${label.toLowerCase()}`, amt(total), amt(previous)], bold: true },
  ];
  const t = r.totals;
  return {
    title: 'Income statement',
    subtitle: `${f(r.from)} to ${f(r.to)}, compared with ${f(r.previousFrom)} to ${f(r.previousTo)} · ${r.currency}`,
    currency: r.currency,
    columns: [
      { label: 'Account' },
      { label: 'This period', amount: true },
      { label: 'Previous period', amount: true },
    ],
    rows: [
      ...section('Income', r.income, t.income, t.previousIncome),
      ...section('Cost of sales', r.costOfSales, t.costOfSales, t.previousCostOfSales),
      { cells: ['Gross profit', amt(t.grossProfit), amt(t.previousGrossProfit)], bold: true },
      ...section('Expenses', r.expenses, t.expenses, t.previousExpenses),
      { cells: ['Net income', amt(t.netIncome), amt(t.previousNetIncome)], bold: true },
    ],
  };
};

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
  const section = (label: string, lines: CashFlow['operating'], total: number) => [
    { cells: [label, null], bold: true },
    ...lines.map((l) => ({ cells: [`  Change in ${acct(l)}`, amt(l.amount)] })),
    { cells: [`Net cash from ${label.toLowerCase()}`, amt(total)], bold: true },
  ];
  return {
    title: 'Cash flow statement',
    subtitle: `${formatDate(r.from, prefs.dateFormat)} to ${formatDate(r.to, prefs.dateFormat)} · indirect method · ${r.currency}`,
    currency: r.currency,
    columns: [{ label: 'Item' }, { label: 'Amount', amount: true }],
    rows: [
      { cells: ['Net income', amt(r.netIncome)] },
      ...section('Operating activities', r.operating, r.totals.operating),
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
        formatDate(row.date, prefs.dateFormat),
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
        i === 0 ? formatDate(e.date, prefs.dateFormat) : '',
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
      formatDate(row.date, prefs.dateFormat),
      String(row.entryNumber),
      row.account,
      row.description || row.memo,
      row.split,
      row.debit ? amt(row.debit) : null,
      row.credit ? amt(row.credit) : null,
    ],
  })),
});
