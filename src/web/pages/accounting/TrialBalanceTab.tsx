import { CheckCircle2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { Table, TableHead, Td, TotalsFoot } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useTrialBalance } from './ledgerApi.ts';
import { AccountCells, DateInput, DebitCreditCells, ExportLinks, QueryView, Toolbar } from './parts.tsx';
import { ACCOUNT_TYPE_LABELS } from '../../../shared/ledger.ts';

// Trial balance: every account's closing balance on one side, debits and credits totalled.
// With a start date, the period's movements show as well.

export const TrialBalanceTab = ({
  today,
  onOpenAccount,
}: {
  today: string;
  onOpenAccount: (accountId: string) => void;
}) => {
  const { company } = useCompany();
  const currency = company.baseCurrency;
  const [to, setTo] = useState(today);
  const [from, setFrom] = useState('');
  const query = { from: from || undefined, to };
  const tb = useTrialBalance(query);
  const data = tb.data;
  const withPeriod = Boolean(from);
  const balanced = data ? data.totals.closingDebit === data.totals.closingCredit : true;

  return (
    <Card>
      <CardHeader
        title="Trial balance"
        description={`As of ${formatDate(to)}${from ? `, movements from ${formatDate(from)}` : ''}`}
        actions={<ExportLinks label="trial balance" report="trial-balance" query={query} />}
      />
      <Toolbar>
        <DateInput label="Movements from (optional)" value={from} onChange={setFrom} max={to} />
        <DateInput label="As of" value={to} onChange={(v) => v && setTo(v)} required />
        {data ? (
          <p
            className={`ml-auto inline-flex min-h-11 items-center gap-2 text-sm font-medium ${balanced ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}
          >
            {balanced ? (
              <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
            ) : (
              <TriangleAlert className="h-4 w-4" aria-hidden="true" />
            )}
            {balanced ? 'Debits equal credits' : 'Debits and credits differ'}
          </p>
        ) : null}
      </Toolbar>
      <QueryView
        query={tb}
        what="the trial balance"
        isEmpty={(d) => d.rows.length === 0}
        empty={
          <EmptyState
            title="Nothing posted up to this date"
            description="The trial balance lists every account with a balance. Post a journal entry, or pick a later date."
          />
        }
      >
        {(data) => (
          <Table caption={`Trial balance as of ${formatDate(to)}, in ${currency}`} captionHidden>
            <TableHead
              columns={[
                { label: 'Code', className: 'w-24' },
                'Account',
                { label: 'Type', className: 'w-28' },
                ...(withPeriod
                  ? [
                      { label: 'Opening', numeric: true },
                      { label: 'Period debits', numeric: true },
                      { label: 'Period credits', numeric: true },
                    ]
                  : []),
                { label: 'Debit', numeric: true, className: 'w-40' },
                { label: 'Credit', numeric: true, className: 'w-40' },
              ]}
            />
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.accountId} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                  <AccountCells
                    code={r.code}
                    name={r.name}
                    onOpen={() => onOpenAccount(r.accountId)}
                    title="Open in the general ledger"
                  />
                  <Td className="text-slate-500 dark:text-slate-400">{ACCOUNT_TYPE_LABELS[r.type]}</Td>
                  {withPeriod ? (
                    <>
                      <Td numeric>
                        <Money minor={r.openingBalance} currency={currency} blankZero />
                      </Td>
                      <DebitCreditCells debit={r.debit} credit={r.credit} currency={currency} />
                    </>
                  ) : null}
                  <DebitCreditCells
                    debit={Math.max(r.closingBalance, 0)}
                    credit={Math.max(-r.closingBalance, 0)}
                    currency={currency}
                  />
                </tr>
              ))}
            </tbody>
            <TotalsFoot label="Total" span={3}>
              {withPeriod ? (
                <>
                  <Td />
                  <Td numeric>
                    <Money minor={data.totals.debit} currency={currency} />
                  </Td>
                  <Td numeric>
                    <Money minor={data.totals.credit} currency={currency} />
                  </Td>
                </>
              ) : null}
              <Td numeric data-testid="tb-total-debit">
                <Money minor={data.totals.closingDebit} currency={currency} />
              </Td>
              <Td numeric data-testid="tb-total-credit">
                <Money minor={data.totals.closingCredit} currency={currency} />
              </Td>
            </TotalsFoot>
          </Table>
        )}
      </QueryView>
    </Card>
  );
};
