import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import type { RecentEntry } from '../../../shared/dashboard.ts';
import { SOURCE_LABELS, StatusBadge } from '../accounting/parts.tsx';

// The dashboard's latest posted journal entries, with a way to all of them.

export const RecentEntries = ({ entries, currency }: { entries: RecentEntry[]; currency: string }) => {
  return (
    <Card>
      <CardHeader
        title="Recent journal entries"
        description="The latest posted entries"
        actions={
          <Link
            to="/accounting?tab=journal"
            className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            All entries <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        }
      />
      {entries.length === 0 ? (
        <EmptyState
          title="Nothing posted yet"
          description={
            <>
              Entries from{' '}
              <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/transactions">
                transactions
              </Link>
              ,{' '}
              <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/invoices">
                invoices
              </Link>{' '}
              and{' '}
              <Link
                className="font-medium text-brand-700 underline dark:text-brand-300"
                to="/accounting?tab=journal"
              >
                accounting
              </Link>{' '}
              show up here.
            </>
          }
        />
      ) : (
        <Table caption="Recent posted journal entries" captionHidden>
          <TableHead
            columns={[
              { label: 'No.', className: 'w-20' },
              { label: 'Date', className: 'w-32' },
              'Memo',
              { label: 'Source', className: 'w-32' },
              { label: 'Status', className: 'w-32' },
              { label: 'Amount', numeric: true, className: 'w-40' },
            ]}
          />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <Td className="tabular-nums text-slate-500 dark:text-slate-400">{e.number}</Td>
                <Td className="whitespace-nowrap">{formatDate(e.date)}</Td>
                <RowTh className="text-slate-900 dark:text-white">
                  <Link
                    to={`/accounting?entry=${encodeURIComponent(e.id)}`}
                    className="inline-flex min-h-11 items-center hover:underline"
                  >
                    {e.memo || 'No memo'}
                  </Link>
                </RowTh>
                <Td className="text-slate-600 dark:text-slate-300">{SOURCE_LABELS[e.source] ?? e.source}</Td>
                <Td>
                  <StatusBadge entry={e} />
                </Td>
                <Td numeric>
                  <Money minor={e.totalDebit} currency={currency} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
};
