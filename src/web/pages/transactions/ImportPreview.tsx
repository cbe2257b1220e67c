import type { StatementPreview } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { MoneyAccountField } from './fields.tsx';
import { StepButtons } from './Controls.tsx';

// The import's preview step: what is new, what is a duplicate, what rules categorise, the
// statements of a multi-statement file with the account each goes into, and the rows.

export const ImportPreview = ({
  preview,
  account,
  accounts: live,
  assign,
  onAssign,
  categoryName,
  onBack,
  onImport,
}: {
  preview: StatementPreview;
  account: MoneyAccount;
  accounts: MoneyAccount[];
  assign: Record<number, string>;
  onAssign: (index: number, moneyAccountId: string) => void;
  categoryName: (id: string | null) => string | null;
  onBack: () => void;
  onImport: () => void;
}) => (
  <div className="space-y-4">
    <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
      <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
        <dt className="text-slate-500 dark:text-slate-400">New</dt>
        <dd className="text-lg font-semibold" data-testid="preview-new">
          {preview.newRows}
        </dd>
      </div>
      <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
        <dt className="text-slate-500 dark:text-slate-400">Duplicates skipped</dt>
        <dd className="text-lg font-semibold" data-testid="preview-duplicates">
          {preview.duplicateRows}
        </dd>
      </div>
      <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
        <dt className="text-slate-500 dark:text-slate-400">Categorised by rules</dt>
        <dd className="text-lg font-semibold">{preview.categorizedByRules}</dd>
      </div>
      <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
        <dt className="text-slate-500 dark:text-slate-400">In / out</dt>
        <dd className="font-semibold">
          <Money minor={preview.moneyIn} currency={account.currency} /> /{' '}
          <Money minor={preview.moneyOut} currency={account.currency} tintNegative={false} />
        </dd>
      </div>
    </dl>
    {preview.firstDate ? (
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {preview.totalRows} rows from {formatDate(preview.firstDate)} to {formatDate(preview.lastDate!)}
        {preview.closingBalance && preview.statements.length <= 1 ? (
          <>
            {' '}
            · statement balance <Money minor={preview.closingBalance.amount} currency={account.currency} /> on{' '}
            {formatDate(preview.closingBalance.date)}
          </>
        ) : null}
      </p>
    ) : null}
    {preview.encoding && preview.encoding !== 'utf-8' ? (
      <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="preview-encoding">
        Characters read as {preview.encoding}.
      </p>
    ) : null}
    {preview.unreadable ? (
      <p
        className="text-sm text-amber-800 dark:text-amber-300"
        role="status"
        data-testid="preview-unreadable"
      >
        {preview.unreadable.bytes === 1 ? '1 byte' : `${preview.unreadable.bytes} bytes`} of the file could
        not be read as {preview.encoding ?? 'text'} and {preview.unreadable.bytes === 1 ? 'shows' : 'show'} as
        “�” on line
        {preview.unreadable.lines.length === 1 ? '' : 's'} {preview.unreadable.lines.join(', ')}
        {preview.unreadable.lines.length >= 20 ? ' and later' : ''}. Amounts and dates were read; check those
        descriptions, or export the file again from your bank.
      </p>
    ) : null}
    {preview.csvLayout ? (
      <div className="text-xs text-slate-500 dark:text-slate-400" data-testid="preview-csv-layout">
        <p>
          Transactions read from lines {preview.csvLayout.firstLine} to {preview.csvLayout.lastLine}
          {preview.csvLayout.headerLine !== null ? ` (header on line ${preview.csvLayout.headerLine})` : ''}
          {preview.csvLayout.linesAbove.length + preview.csvLayout.linesBelow.length > 0
            ? `; ${preview.csvLayout.linesAbove.length} line${preview.csvLayout.linesAbove.length === 1 ? '' : 's'} above and ${preview.csvLayout.linesBelow.length} below are not transactions`
            : ''}
          .
        </p>
        {preview.csvLayout.joined && preview.csvLayout.joined.length > 0 ? (
          <p className="mt-1">
            Added to the description above:{' '}
            {preview.csvLayout.joined.map((r) => `line ${r.line} → line ${r.to}`).join(', ')}.
          </p>
        ) : null}
        {preview.csvLayout.leftOut.length > 0 ? (
          <ul className="mt-1 list-disc pl-4" aria-label="Rows left out of the import">
            {preview.csvLayout.leftOut.map((r) => (
              <li key={r.line}>
                Line {r.line} has no date and no amount and is left out: “{r.text}”
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    ) : null}
    {preview.statements.length > 1 ? (
      <fieldset className="space-y-2" data-testid="preview-statements">
        <legend className="mb-1 text-sm font-medium">
          This file holds {preview.statements.length} statements. Choose the account for each.
        </legend>
        {preview.statements.map((st) => {
          const target = live.find((a) => a.id === st.moneyAccountId);
          return (
            <div
              key={st.index}
              className="grid gap-2 rounded-lg border border-slate-200 p-3 text-sm sm:grid-cols-2 dark:border-slate-800"
              data-testid="preview-statement"
            >
              <div>
                <div className="font-medium">
                  {st.kind}
                  {st.accountNumber ? ` · ${st.accountNumber}` : ''}
                  {st.currency ? ` · ${st.currency}` : ''}
                </div>
                <div className="text-xs text-slate-500 dark:text-slate-400">
                  {st.totalRows} row{st.totalRows === 1 ? '' : 's'}
                  {st.periodStart && st.periodEnd
                    ? ` · ${formatDate(st.periodStart)} – ${formatDate(st.periodEnd)}`
                    : st.firstDate
                      ? ` · ${formatDate(st.firstDate)} – ${formatDate(st.lastDate!)}`
                      : ''}
                  {st.closingBalance ? (
                    <>
                      {' '}
                      · closing balance{' '}
                      <Money
                        minor={st.closingBalance.amount}
                        currency={st.currency ?? target?.currency ?? account.currency}
                      />{' '}
                      on {formatDate(st.closingBalance.date)}
                    </>
                  ) : null}
                </div>
              </div>
              <MoneyAccountField
                id={`imp-statement-${st.index}`}
                label="Import into"
                value={assign[st.index] ?? st.moneyAccountId ?? ''}
                onChange={(id) => onAssign(st.index, id)}
                accounts={live}
                empty="— leave this statement out —"
              />
              {st.notices.length > 0 ? (
                <ul className="text-xs text-amber-700 sm:col-span-2 dark:text-amber-400">
                  {st.notices.map((n) => (
                    <li key={n}>{n}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          );
        })}
      </fieldset>
    ) : preview.statements[0]?.notices.length ? (
      <ul className="text-xs text-amber-700 dark:text-amber-400" data-testid="preview-notices">
        {preview.statements[0].notices.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    ) : null}
    <Table
      caption="Preview of the statement rows"
      captionHidden
      dense
      className="max-h-72 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
    >
      <TableHead
        className="sticky top-0"
        columns={['Date', 'Description', 'Category', { label: 'Amount', numeric: true }]}
      />
      <tbody>
        {preview.rows.map((r) => (
          <tr
            key={`${r.statement ?? 0}-${r.line}`}
            className={
              r.duplicate ? 'bg-slate-50 text-slate-400 dark:bg-slate-900/60 dark:text-slate-500' : ''
            }
            data-testid={r.duplicate ? 'preview-duplicate' : 'preview-row'}
          >
            <Td className="whitespace-nowrap">{formatDate(r.date)}</Td>
            <Td>
              {r.description} {r.duplicate ? <Badge tone="slate">Duplicate — skipped</Badge> : null}
            </Td>
            <Td>
              {r.categoryAccountId ? (
                <Badge tone="violet">Rule: {categoryName(r.categoryAccountId)}</Badge>
              ) : r.duplicate ? (
                ''
              ) : (
                <span className="text-slate-500 dark:text-slate-400">Uncategorised</span>
              )}
            </Td>
            <Td numeric>
              <Money
                minor={r.amount}
                currency={
                  live.find((a) => a.id === preview.statements[r.statement ?? 0]?.moneyAccountId)?.currency ??
                  account.currency
                }
              />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
    {preview.totalRows > preview.rows.length ? (
      <p className="text-xs text-slate-500">
        Showing the first {preview.rows.length} of {preview.totalRows} rows.
      </p>
    ) : null}
    <StepButtons onBack={onBack}>
      <Button onClick={onImport} disabled={preview.newRows === 0}>
        {preview.newRows === 0
          ? 'Nothing new to import'
          : `Import ${preview.newRows} transaction${preview.newRows === 1 ? '' : 's'}`}
      </Button>
    </StepButtons>
  </div>
);
