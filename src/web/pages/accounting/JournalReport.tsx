import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useJournalReport } from './ledgerApi.ts';
import { Pager, useCursorPages } from './Pager.tsx';
import {
  DEBIT_CREDIT_COLUMNS,
  DebitCreditCells,
  EntryLink,
  ExportLinks,
  PeriodInputs,
  QueryView,
  SOURCE_LABELS,
  SubLine,
  Toolbar,
  useReportPeriod,
} from './parts.tsx';

// The Journal report: every posted entry of a period with its lines, a page at a time.

export const JournalReportView = ({
  defaultFrom,
  today,
  onOpenEntry,
}: {
  defaultFrom: string;
  today: string;
  onOpenEntry: (id: string) => void;
}) => {
  const { company } = useCompany();
  const currency = company.baseCurrency;
  const period = useReportPeriod(defaultFrom, today);
  const { from, to, query } = period;
  const pages = useCursorPages();
  const report = useJournalReport({ ...query, limit: 25, cursor: pages.cursor });
  return (
    <Card>
      <CardHeader
        title="Journal"
        description="Posted entries in date order with every line"
        actions={<ExportLinks label="journal" report="journal" query={query} />}
      />
      <Toolbar>
        <PeriodInputs period={period} onChange={pages.reset} />
      </Toolbar>
      <QueryView
        query={report}
        what="the journal"
        isEmpty={(d) => d.entries.length === 0}
        empty={
          <EmptyState
            title="No posted entries in this period"
            description="Choose other dates, or post an entry from the Journal Entries tab."
          />
        }
      >
        {(d) => (
          <>
            <Table
              caption={`Journal, ${from ? formatDate(from) : 'start'} to ${formatDate(to)}, in ${currency}`}
              captionHidden
            >
              <TableHead
                columns={[
                  { label: 'Date', className: 'w-32' },
                  { label: 'No.', className: 'w-20' },
                  'Account / memo',
                  ...DEBIT_CREDIT_COLUMNS,
                ]}
              />
              {d.entries.map((e) => (
                <tbody key={e.id} className="border-b-2 border-slate-200 dark:border-slate-700">
                  <tr className="bg-slate-50/70 dark:bg-slate-900/40">
                    <Td className="whitespace-nowrap font-medium">{formatDate(e.date)}</Td>
                    <Td>
                      <EntryLink number={e.number} onOpen={() => onOpenEntry(e.id)} />
                    </Td>
                    <RowTh colSpan={3} className="font-medium text-slate-900 dark:text-white">
                      {e.memo || 'No memo'}{' '}
                      <span className="text-xs font-normal text-slate-500 dark:text-slate-400">
                        {SOURCE_LABELS[e.source] ?? e.source}
                        {e.reference ? ` · Ref ${e.reference}` : ''}
                      </span>
                    </RowTh>
                  </tr>
                  {e.lines.map((l) => (
                    <tr key={l.lineNo}>
                      <Td />
                      <Td />
                      <Td className={l.credit > 0 ? 'pl-10' : ''}>
                        <span className="tabular-nums text-slate-500 dark:text-slate-400">
                          {l.accountCode}
                        </span>{' '}
                        {l.accountName}
                        <SubLine text={l.description} />
                      </Td>
                      <DebitCreditCells debit={l.debit} credit={l.credit} currency={currency} />
                    </tr>
                  ))}
                </tbody>
              ))}
            </Table>
            <Pager label="Journal" pages={pages} nextCursor={d.nextCursor} />
          </>
        )}
      </QueryView>
    </Card>
  );
};
