import { type ReactNode, useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useBalanceSheet, useCashFlow, useIncomeStatement } from './ledgerApi.ts';
import { DateInput, ExportLinks, PeriodInputs, QueryView, Toolbar, useReportPeriod } from './parts.tsx';

// The financial statements of the Reports tab, laid out as accountants read them: sections
// with their lines, subtotals, and a strong total; amounts in accounting style.

type Line = { accountId: string; code: string; name: string; amount: number; previousAmount?: number };

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

const LineRows = ({ lines, compare }: { lines: Line[]; compare: boolean }) => (
  <>
    {lines.map((l) => (
      <tr key={l.accountId}>
        <RowTh className="pl-8 text-slate-700 dark:text-slate-200">
          <span className="tabular-nums text-slate-500 dark:text-slate-400">{l.code}</span> {l.name}
        </RowTh>
        <Amount minor={l.amount} />
        {compare ? (
          <>
            <Amount minor={l.previousAmount ?? 0} />
            <Amount minor={l.amount - (l.previousAmount ?? 0)} />
          </>
        ) : null}
      </tr>
    ))}
  </>
);

/** This period, the one compared with, and the change between them. */
const withChange = (current: number, previous: number) => [current, previous, current - previous];

export const IncomeStatementReport = ({ defaultFrom, today }: { defaultFrom: string; today: string }) => {
  const period = useReportPeriod(defaultFrom, today);
  const { query } = period;
  const report = useIncomeStatement(query);
  const d = report.data;
  return (
    <Card>
      <CardHeader
        title="Income statement"
        description={
          d
            ? `${formatDate(d.from)} – ${formatDate(d.to)}, compared with ${formatDate(d.previousFrom)} – ${formatDate(d.previousTo)}`
            : 'Profit and loss'
        }
        actions={<ExportLinks label="income statement" report="income-statement" query={query} />}
      />
      <Toolbar>
        <PeriodInputs period={period} />
      </Toolbar>
      <QueryView query={report} what="the income statement">
        {(d) =>
          d.income.length + d.costOfSales.length + d.expenses.length === 0 ? (
            <EmptyState
              title="No income or expenses in this period"
              description="Post entries to income and expense accounts, or choose other dates."
            />
          ) : (
            <Table
              caption={`Income statement, ${formatDate(d.from)} to ${formatDate(d.to)}, in ${d.currency}`}
              captionHidden
            >
              <TableHead
                columns={[
                  'Account',
                  { label: 'This period', numeric: true, className: 'w-40' },
                  { label: 'Previous period', numeric: true, className: 'w-40' },
                  { label: 'Change', numeric: true, className: 'w-40' },
                ]}
              />
              <tbody>
                <SectionHeading span={4}>Income</SectionHeading>
                <LineRows lines={d.income} compare />
                <TotalRow
                  label="Total income"
                  values={withChange(d.totals.income, d.totals.previousIncome)}
                />
                {d.costOfSales.length > 0 ? (
                  <>
                    <SectionHeading span={4}>Cost of sales</SectionHeading>
                    <LineRows lines={d.costOfSales} compare />
                    <TotalRow
                      label="Total cost of sales"
                      values={withChange(d.totals.costOfSales, d.totals.previousCostOfSales)}
                    />
                    <TotalRow
                      label="Gross profit"
                      values={withChange(d.totals.grossProfit, d.totals.previousGrossProfit)}
                    />
                  </>
                ) : null}
                <SectionHeading span={4}>Expenses</SectionHeading>
                <LineRows lines={d.expenses} compare />
                <TotalRow
                  label="Total expenses"
                  values={withChange(d.totals.expenses, d.totals.previousExpenses)}
                />
                <TotalRow
                  grand
                  label={d.totals.netIncome < 0 ? 'Net loss' : 'Net income'}
                  values={withChange(d.totals.netIncome, d.totals.previousNetIncome)}
                />
              </tbody>
            </Table>
          )
        }
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
              <LineRows lines={d.assets} compare={false} />
              <TotalRow label="Total assets" values={[d.totals.assets]} grand />
              <SectionHeading span={2}>Liabilities</SectionHeading>
              <LineRows lines={d.liabilities} compare={false} />
              <TotalRow label="Total liabilities" values={[d.totals.liabilities]} />
              <SectionHeading span={2}>Equity</SectionHeading>
              <LineRows lines={d.equity} compare={false} />
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
              <LineRows lines={d.operating} compare={false} />
              <TotalRow label="Net cash from operating activities" values={[d.totals.operating]} />
              <SectionHeading span={2}>Investing activities</SectionHeading>
              <LineRows lines={d.investing} compare={false} />
              <TotalRow label="Net cash from investing activities" values={[d.totals.investing]} />
              <SectionHeading span={2}>Financing activities</SectionHeading>
              <LineRows lines={d.financing} compare={false} />
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
