import { Fragment, type ReactNode, useState } from 'react';
import { comparisonPeriod, periodName } from '../../../shared/dates.ts';
import {
  type IncomeCompare,
  type IncomeFigure,
  type IncomeStatement,
  changePercent,
} from '../../../shared/ledger.ts';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useBalanceSheet, useCashFlow, useIncomeStatement } from './ledgerApi.ts';
import { DateInput, ExportLinks, PeriodInputs, QueryView, Toolbar, useReportPeriod } from './parts.tsx';

// The financial statements of the Reports tab, laid out as accountants read them: sections
// with their lines, subtotals, and a strong total; amounts in accounting style.

type Line = { accountId: string; code: string; name: string; amount: number };

const SectionHeading = ({ children, span }: { children: string; span: number }) => (
  <tr>
    <th
      scope="colgroup"
      colSpan={span}
      className="px-4 pt-5 pb-1.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400"
    >
      {children}
    </th>
  </tr>
);

/** A heading inside a section (the cash flow's "Changes in working capital"). */
const SubHeading = ({ children }: { children: string }) => (
  <tr>
    <th
      scope="rowgroup"
      colSpan={2}
      className="px-4 pt-2 pb-1 pl-8 text-left text-sm font-medium text-slate-600 italic dark:text-slate-300"
    >
      {children}
    </th>
  </tr>
);

const GRAND = 'border-t-2 border-t-slate-300 dark:border-t-slate-600';

const Amount = ({
  minor,
  strong = false,
  grand = false,
}: {
  minor: number;
  strong?: boolean;
  grand?: boolean;
}) => {
  const { company } = useCompany();
  return (
    <Td
      numeric
      className={`${strong ? 'font-semibold text-slate-900 dark:text-white' : ''} ${grand ? GRAND : ''}`}
    >
      <Money minor={minor} currency={company.baseCurrency} accounting />
    </Td>
  );
};

const TotalRow = ({ label, values, grand = false }: { label: string; values: number[]; grand?: boolean }) => (
  <tr className={grand ? 'bg-slate-50 dark:bg-slate-900/60' : ''}>
    <RowTh
      className={`font-semibold text-slate-900 dark:text-white ${grand ? 'border-t-2 border-slate-300 dark:border-slate-600' : ''}`}
    >
      {label}
    </RowTh>
    {values.map((v, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed (current, previous, change)
      <Amount key={i} minor={v} strong grand={grand} />
    ))}
  </tr>
);

/** A line of a statement that is no account: its label (indented under its section) and amount. */
const LabelRow = ({ label, minor, indent = true }: { label: ReactNode; minor: number; indent?: boolean }) => (
  <tr>
    <RowTh className={`${indent ? 'pl-8 ' : ''}text-slate-700 dark:text-slate-200`}>{label}</RowTh>
    <Amount minor={minor} />
  </tr>
);

const LineRows = ({ lines }: { lines: Line[] }) => (
  <>
    {lines.map((l) => (
      <tr key={l.accountId}>
        <AccountTh line={l} />
        <Amount minor={l.amount} />
      </tr>
    ))}
  </>
);

const AccountTh = ({ line }: { line: Pick<Line, 'code' | 'name'> }) => (
  <RowTh className="pl-8 text-slate-700 dark:text-slate-200">
    <span className="tabular-nums text-slate-500 dark:text-slate-400">{line.code}</span> {line.name}
  </RowTh>
);

/** A change in percent ("+25.0%"), or a dash when there is nothing to compare with. */
const PercentCell = ({
  current,
  previous,
  strong = false,
  grand = false,
}: {
  current: number;
  previous: number;
  strong?: boolean;
  grand?: boolean;
}) => {
  const p = changePercent(current, previous);
  return (
    <Td
      numeric
      className={`${strong ? 'font-semibold text-slate-900 dark:text-white' : ''} ${grand ? GRAND : ''}`}
    >
      {p === null ? (
        <>
          <span aria-hidden="true">–</span>
          <span className="sr-only">no comparison</span>
        </>
      ) : (
        `${p > 0 ? '+' : ''}${p.toFixed(1)}%`
      )}
    </Td>
  );
};

type Comparison = IncomeStatement['comparisons'][number];
type IncomeLine = IncomeStatement['income'][number];

/** The figure a comparison compares with, for a line. */
const comparedAmount = (l: IncomeLine, c: Comparison) =>
  (c.kind === 'previous' ? l.previousAmount : l.lastYearAmount) ?? 0;

/** The figure a comparison compares with, for a total. */
const comparedTotal = (t: IncomeStatement['totals'], figure: IncomeFigure, c: Comparison) =>
  t[`${c.kind}${figure.charAt(0).toUpperCase()}${figure.slice(1)}` as keyof IncomeStatement['totals']];

/** One row of the income statement: this period, then per comparison its figure, the change and the change in percent. */
const ComparedCells = ({
  current,
  others,
  strong = false,
  grand = false,
}: {
  current: number;
  others: number[];
  strong?: boolean;
  grand?: boolean;
}) => (
  <>
    <Amount minor={current} strong={strong} grand={grand} />
    {others.map((o, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: the comparisons are in a fixed order
      <Fragment key={i}>
        <Amount minor={o} strong={strong} grand={grand} />
        <Amount minor={current - o} strong={strong} grand={grand} />
        <PercentCell current={current} previous={o} strong={strong} grand={grand} />
      </Fragment>
    ))}
  </>
);

const COMPARE_OPTIONS: { value: IncomeCompare; label: string }[] = [
  { value: 'both', label: 'Previous period and same period last year' },
  { value: 'previous', label: 'Previous period' },
  { value: 'lastYear', label: 'Same period last year' },
  { value: 'none', label: 'No comparison' },
];

export const IncomeStatementReport = ({ defaultFrom, today }: { defaultFrom: string; today: string }) => {
  const period = useReportPeriod(defaultFrom, today);
  const [compare, setCompare] = useState<IncomeCompare>('both');
  const query = { ...period.query, compare };
  const report = useIncomeStatement(query);
  const d = report.data;
  // Labelled with their dates in the user's style: "Jan–Mar 2025 (same period last year)".
  const label = (c: Comparison) =>
    comparisonPeriod(c.kind, d?.from ?? c.from, d?.to ?? c.to, formatDate).label;
  return (
    <Card>
      <CardHeader
        title="Income statement"
        description={
          d
            ? `${formatDate(d.from)} – ${formatDate(d.to)}${d.comparisons.length ? `, compared with ${d.comparisons.map(label).join(' and ')}` : ''}`
            : 'Profit and loss'
        }
        actions={<ExportLinks label="income statement" report="income-statement" query={query} />}
      />
      <Toolbar>
        <PeriodInputs period={period} />
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
          Compare with
          <select
            value={compare}
            onChange={(e) => setCompare(e.target.value as IncomeCompare)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          >
            {COMPARE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      </Toolbar>
      <QueryView query={report} what="the income statement">
        {(d) => {
          const span = 2 + d.comparisons.length * 3;
          const lineRows = (lines: IncomeLine[]) =>
            lines.map((l) => (
              <tr key={l.accountId}>
                <AccountTh line={l} />
                <ComparedCells current={l.amount} others={d.comparisons.map((c) => comparedAmount(l, c))} />
              </tr>
            ));
          const total = (text: string, figure: IncomeFigure, grand = false) => (
            <tr className={grand ? 'bg-slate-50 dark:bg-slate-900/60' : ''}>
              <RowTh
                className={`font-semibold text-slate-900 dark:text-white ${grand ? 'border-t-2 border-slate-300 dark:border-slate-600' : ''}`}
              >
                {text}
              </RowTh>
              <ComparedCells
                strong
                grand={grand}
                current={d.totals[figure]}
                others={d.comparisons.map((c) => comparedTotal(d.totals, figure, c))}
              />
            </tr>
          );
          return d.income.length + d.costOfSales.length + d.expenses.length === 0 ? (
            <EmptyState
              title="No income or expenses in these periods"
              description="Post entries to income and expense accounts, or choose other dates."
            />
          ) : (
            <Table
              caption={`Income statement, ${formatDate(d.from)} to ${formatDate(d.to)}, in ${d.currency}`}
              captionHidden
            >
              <TableHead
                columns={[
                  { label: 'Account', className: 'min-w-44' },
                  { label: periodName(d.from, d.to, formatDate), numeric: true, className: 'min-w-32' },
                  ...d.comparisons.flatMap((c) => [
                    { label: label(c), numeric: true, className: 'min-w-36' },
                    { label: 'Change', numeric: true, className: 'min-w-28' },
                    { label: 'Change %', numeric: true, className: 'min-w-20' },
                  ]),
                ]}
              />
              <tbody>
                <SectionHeading span={span}>Income</SectionHeading>
                {lineRows(d.income)}
                {total('Total income', 'income')}
                {d.costOfSales.length > 0 ? (
                  <>
                    <SectionHeading span={span}>Cost of sales</SectionHeading>
                    {lineRows(d.costOfSales)}
                    {total('Total cost of sales', 'costOfSales')}
                    {total('Gross profit', 'grossProfit')}
                  </>
                ) : null}
                <SectionHeading span={span}>Expenses</SectionHeading>
                {lineRows(d.expenses)}
                {total('Total expenses', 'expenses')}
                {total(d.totals.netIncome < 0 ? 'Net loss' : 'Net income', 'netIncome', true)}
              </tbody>
            </Table>
          );
        }}
      </QueryView>
    </Card>
  );
};

export const BalanceSheetReport = ({ today }: { today: string }) => {
  const [asOf, setAsOf] = useState(today);
  const report = useBalanceSheet({ asOf });
  const d = report.data;
  return (
    <Card>
      <CardHeader
        title="Balance sheet"
        description={`As of ${formatDate(asOf)}`}
        actions={<ExportLinks label="balance sheet" report="balance-sheet" query={{ asOf }} />}
      />
      <Toolbar>
        <DateInput label="As of" value={asOf} onChange={(v) => v && setAsOf(v)} required />
        {d ? (
          <p
            className={`ml-auto min-h-11 content-center text-sm font-medium ${d.balanced ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}
          >
            {d.balanced
              ? 'Assets equal liabilities plus equity'
              : 'Out of balance: assets differ from liabilities plus equity'}
          </p>
        ) : null}
      </Toolbar>
      <QueryView query={report} what="the balance sheet">
        {(d) => (
          <Table caption={`Balance sheet as of ${formatDate(d.asOf)}, in ${d.currency}`} captionHidden>
            <TableHead columns={['Account', { label: 'Balance', numeric: true, className: 'w-44' }]} />
            <tbody>
              <SectionHeading span={2}>Assets</SectionHeading>
              <LineRows lines={d.assets} />
              <TotalRow label="Total assets" values={[d.totals.assets]} grand />
              <SectionHeading span={2}>Liabilities</SectionHeading>
              <LineRows lines={d.liabilities} />
              <TotalRow label="Total liabilities" values={[d.totals.liabilities]} />
              <SectionHeading span={2}>Equity</SectionHeading>
              <LineRows lines={d.equity} />
              {d.priorYearsUnclosedEarnings !== 0 ? (
                <LabelRow
                  label="Earnings of earlier years not yet closed"
                  minor={d.priorYearsUnclosedEarnings}
                />
              ) : null}
              <LabelRow
                label={`Current year earnings (since ${formatDate(d.fiscalYearStart)})`}
                minor={d.currentYearEarnings}
              />
              <TotalRow label="Total equity" values={[d.totals.equity]} />
              <TotalRow label="Total liabilities and equity" values={[d.totals.liabilitiesAndEquity]} grand />
            </tbody>
          </Table>
        )}
      </QueryView>
    </Card>
  );
};

export const CashFlowReport = ({ defaultFrom, today }: { defaultFrom: string; today: string }) => {
  const period = useReportPeriod(defaultFrom, today);
  const { query } = period;
  const report = useCashFlow(query);
  const d = report.data;
  return (
    <Card>
      <CardHeader
        title="Cash flow statement"
        description={d ? `${formatDate(d.from)} – ${formatDate(d.to)}, indirect method` : 'Indirect method'}
        actions={<ExportLinks label="cash flow statement" report="cash-flow" query={query} />}
      />
      <Toolbar>
        <PeriodInputs period={period} />
      </Toolbar>
      <QueryView query={report} what="the cash flow statement">
        {(d) => (
          <Table
            caption={`Cash flow statement, ${formatDate(d.from)} to ${formatDate(d.to)}, in ${d.currency}`}
            captionHidden
          >
            <TableHead columns={['Activity', { label: 'Amount', numeric: true, className: 'w-44' }]} />
            <tbody>
              <SectionHeading span={2}>Operating activities</SectionHeading>
              <LabelRow label="Net income" minor={d.netIncome} />
              {d.adjustments.length > 0 ? (
                <>
                  <SubHeading>Adjustments for non-cash items</SubHeading>
                  <LineRows lines={d.adjustments} />
                </>
              ) : null}
              {d.workingCapital.length > 0 ? (
                <>
                  <SubHeading>Changes in working capital</SubHeading>
                  <LineRows lines={d.workingCapital} />
                </>
              ) : null}
              <TotalRow label="Net cash from operating activities" values={[d.totals.operating]} />
              <SectionHeading span={2}>Investing activities</SectionHeading>
              <LineRows lines={d.investing} />
              <TotalRow label="Net cash from investing activities" values={[d.totals.investing]} />
              <SectionHeading span={2}>Financing activities</SectionHeading>
              <LineRows lines={d.financing} />
              <TotalRow label="Net cash from financing activities" values={[d.totals.financing]} />
              <TotalRow label="Net change in cash" values={[d.totals.netChange]} grand />
              <LabelRow label="Cash at the start of the period" minor={d.totals.openingCash} indent={false} />
              <TotalRow label="Cash at the end of the period" values={[d.totals.closingCash]} grand />
            </tbody>
          </Table>
        )}
      </QueryView>
    </Card>
  );
};
