import { useEffect, useId, useRef, useState } from 'react';
import {
  CSV_DATE_FORMATS,
  type CsvMapping,
  type CsvSniff,
  type StatementPreview,
} from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { ApiError } from '../../lib/api.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge } from '../../components/ui/Card.tsx';
import { Label, inputClass } from './Controls.tsx';

// The CSV mapping step of the import wizard: where the table is in the file (preamble,
// header, summary rows), which column holds what, how amounts are laid out, and the date and
// number formats — each detected by the server from the whole file, shown, and changeable.
// When the file cannot tell (every date fits day-first and month-first; "1,234" reads two
// ways), nothing is preselected and the preview waits for the user's choice.

type Layout = 'signed' | 'split' | 'indicator';
const layoutOf = (m: CsvMapping): Layout =>
  m.amountColumn === null ? 'split' : m.indicatorColumn !== null ? 'indicator' : 'signed';

const DATE_EXAMPLES: Record<CsvMapping['dateFormat'], string> = {
  'YYYY-MM-DD': '2026-11-30',
  'DD/MM/YYYY': '30/11/2026',
  'MM/DD/YYYY': '11/30/2026',
  'DD.MM.YYYY': '30.11.2026',
  'DD-MM-YYYY': '30-11-2026',
  'YYYY/MM/DD': '2026/11/30',
  YYYYMMDD: '20261130',
  'YYYY.MM.DD': '2026.11.30',
  'DD.MM.YY': '30.11.26',
  'DD/MM/YY': '30/11/26',
  'MM/DD/YY': '11/30/26',
  'MM-DD-YYYY': '11-30-2026',
  'DD-MM-YY': '30-11-26',
  'DD-MMM-YYYY': '30-Nov-2026, 30 Nov 2026',
  'DD-MMM-YY': '30-Nov-26',
  'MMM DD, YYYY': 'Nov 30, 2026',
};

const listText = (values: string[]) => values.filter((v) => v !== '').join(', ');
const listOf = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

type Trial =
  | { state: 'idle' }
  | { state: 'reading' }
  | { state: 'read'; preview: StatementPreview }
  | { state: 'refused'; errors: { line: number; reason: string }[]; message: string };

export const CsvMappingStep = ({
  sniff,
  mapping,
  onChange,
  onBack,
  onPreview,
  tryMapping,
  currency,
  busy,
}: {
  sniff: CsvSniff;
  mapping: CsvMapping;
  onChange: (m: CsvMapping) => void;
  onBack: () => void;
  onPreview: (m: CsvMapping) => void;
  /** Reads the whole file with a mapping on the server (the preview call; writes nothing). */
  tryMapping?: (m: CsvMapping) => Promise<StatementPreview>;
  currency: string;
  busy: boolean;
}) => {
  const id = useId();
  const fromSaved = sniff.savedMapping !== null && mapping === sniff.savedMapping;
  // Choices the file leaves open must be made by the user before the preview (a remembered
  // mapping already holds the user's choice).
  const [dateChosen, setDateChosen] = useState(
    sniff.savedMapping !== null || sniff.dateFormatChoices.length < 2,
  );
  const [markChosen, setMarkChosen] = useState(
    sniff.savedMapping !== null || sniff.ambiguousAmounts.length === 0,
  );
  const set = (patch: Partial<CsvMapping>) => onChange({ ...mapping, ...patch });
  const records = sniff.records;
  const byIndex = new Map(records.map((r) => [r.index, r]));
  const headerRecord = mapping.hasHeader ? byIndex.get(mapping.headerRow) : undefined;
  const first = mapping.firstDataRow ?? (mapping.hasHeader ? mapping.headerRow + 1 : 0);
  const end = Math.max(first, sniff.totalRecords - mapping.footerRows);
  const width = Math.max(
    1,
    ...records.filter((r) => r.index >= first && r.index < end).map((r) => r.fields.length),
  );
  const dataSample = records.filter((r) => r.index >= first && r.index < end).slice(0, 3);
  const columnName = (i: number) => {
    const h = headerRecord?.fields[i]?.trim();
    const sample = dataSample[0]?.fields[i]?.trim();
    return `${i + 1}. ${h || `Column ${i + 1}`}${sample ? ` — e.g. ${sample.slice(0, 24)}` : ''}`;
  };
  const columns = Array.from({ length: width }, (_, i) => i);
  const roleOf = (index: number) =>
    mapping.hasHeader && index === mapping.headerRow
      ? 'Header'
      : index < first
        ? 'Above the table'
        : index >= end
          ? 'Summary'
          : 'Transaction';
  const layout = layoutOf(mapping);
  const lineOf = (index: number) => byIndex.get(index)?.line;
  const firstLine = lineOf(first);
  const lastLine = lineOf(end - 1);
  const blank = mapping.debitIndicators.includes('')
    ? 'debit'
    : mapping.creditIndicators.includes('')
      ? 'credit'
      : 'none';
  const indicatorValues =
    mapping.indicatorColumn === null
      ? []
      : [
          ...new Set(
            records
              .filter((r) => r.index >= first && r.index < end)
              .map((r) => (r.fields[mapping.indicatorColumn!] ?? '').trim()),
          ),
        ];
  const missing = [
    ...(dateChosen ? [] : ['the date format']),
    ...(markChosen ? [] : ['the decimal mark']),
    ...(layout === 'indicator' && mapping.debitIndicators.length + mapping.creditIndicators.length === 0
      ? ['the indicator values']
      : []),
  ];

  // The resulting preview: the server reads the whole file with the mapping as it stands
  // (a moment after the last change) and shows the first rows or the lines it refuses.
  const [trial, setTrial] = useState<Trial>({ state: 'idle' });
  const asked = useRef(0);
  const ready = missing.length === 0;
  useEffect(() => {
    if (!tryMapping || !ready) {
      setTrial({ state: 'idle' });
      return;
    }
    const ticket = ++asked.current;
    setTrial({ state: 'reading' });
    const timer = setTimeout(() => {
      tryMapping(mapping).then(
        (preview) => ticket === asked.current && setTrial({ state: 'read', preview }),
        (error: unknown) => {
          if (ticket !== asked.current) return;
          const details =
            error instanceof ApiError
              ? (error.details as { errors?: { line: number; reason: string }[] })
              : undefined;
          setTrial({
            state: 'refused',
            errors: details?.errors ?? [],
            message:
              error instanceof Error ? error.message : 'The file could not be read with these settings.',
          });
        },
      );
    }, 500);
    return () => clearTimeout(timer);
  }, [tryMapping, mapping, ready]);

  const columnSelect = (key: keyof CsvMapping, label: string, allowNone: boolean) => (
    <div key={key}>
      <Label htmlFor={`${id}-${key}`}>{label}</Label>
      <select
        id={`${id}-${key}`}
        value={mapping[key] === null ? '' : String(mapping[key])}
        onChange={(e) =>
          set({ [key]: e.target.value === '' ? null : Number(e.target.value) } as Partial<CsvMapping>)
        }
        className={inputClass}
      >
        {allowNone ? <option value="">— none —</option> : null}
        {columns.map((i) => (
          <option key={i} value={String(i)}>
            {columnName(i)}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {fromSaved
          ? 'This is the mapping you confirmed last time for this account. Check it against this file.'
          : 'We read the whole file and guessed where the transactions are and which column holds what. Check it.'}{' '}
        {sniff.savedMapping && sniff.suggestedMapping && !fromSaved ? (
          <button
            type="button"
            className="font-medium text-brand-700 underline dark:text-brand-300"
            onClick={() => onChange(sniff.savedMapping!)}
          >
            Use last time’s mapping
          </button>
        ) : null}
        {fromSaved && sniff.suggestedMapping ? (
          <button
            type="button"
            className="font-medium text-brand-700 underline dark:text-brand-300"
            onClick={() => onChange(sniff.suggestedMapping!)}
          >
            Use the mapping detected in this file
          </button>
        ) : null}
      </p>
      {sniff.notes.length > 0 ? (
        <Alert tone="info">
          <ul className="list-disc space-y-1 pl-4" aria-label="What we found in the file">
            {sniff.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <fieldset className="min-w-0 space-y-3">
        <legend className="text-sm font-semibold">Where the transactions are</legend>
        <div className="max-h-64 overflow-auto rounded-lg border border-slate-200 dark:border-slate-800">
          <table className="w-full text-xs">
            <caption className="sr-only">The file's lines and how they are read</caption>
            <thead className="sticky top-0 bg-slate-50 text-left dark:bg-slate-900">
              <tr>
                <th scope="col" className="px-2 py-1.5">
                  Line
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Read as
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Content
                </th>
              </tr>
            </thead>
            <tbody>
              {records.map((r, i) => {
                const role = roleOf(r.index);
                const gap = i > 0 && records[i - 1]!.index + 1 !== r.index;
                return (
                  <tr
                    key={r.index}
                    className={`${role === 'Transaction' ? '' : 'text-slate-500 dark:text-slate-400'} ${gap ? 'border-t-4 border-dashed border-slate-200 dark:border-slate-700' : ''}`}
                  >
                    <td className="border-t border-slate-100 px-2 py-1 tabular-nums dark:border-slate-800">
                      {r.line}
                    </td>
                    <td className="border-t border-slate-100 px-2 py-1 whitespace-nowrap dark:border-slate-800">
                      <Badge tone={role === 'Transaction' ? 'green' : role === 'Header' ? 'blue' : 'slate'}>
                        {role}
                      </Badge>
                    </td>
                    <td className="border-t border-slate-100 px-2 py-1 dark:border-slate-800">
                      <div className="max-w-[28rem] truncate font-mono" title={r.fields.join(' │ ')}>
                        {r.fields.join(' │ ')}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {sniff.totalRecords > records.length ? (
          <p className="text-xs text-slate-500">
            Showing the first and last lines of {sniff.totalRecords} rows; the dashed line marks the gap.
          </p>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <Label htmlFor={`${id}-header`}>Header row</Label>
            <select
              id={`${id}-header`}
              value={mapping.hasHeader ? String(mapping.headerRow) : ''}
              onChange={(e) =>
                e.target.value === ''
                  ? set({ hasHeader: false, headerRow: 0 })
                  : set({
                      hasHeader: true,
                      headerRow: Number(e.target.value),
                      firstDataRow: Number(e.target.value) + 1,
                    })
              }
              className={inputClass}
            >
              <option value="">No header row</option>
              {records.slice(0, 40).map((r) => (
                <option key={r.index} value={String(r.index)}>
                  Line {r.line}: {r.fields.join(', ').slice(0, 40)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Label htmlFor={`${id}-first`}>First transaction</Label>
            <select
              id={`${id}-first`}
              value={String(first)}
              onChange={(e) => set({ firstDataRow: Number(e.target.value) })}
              className={inputClass}
            >
              {records
                .filter((r) => !(mapping.hasHeader && r.index <= mapping.headerRow))
                .slice(0, 40)
                .map((r) => (
                  <option key={r.index} value={String(r.index)}>
                    Line {r.line}: {r.fields.join(', ').slice(0, 40)}
                  </option>
                ))}
            </select>
          </div>
          <div>
            <Label htmlFor={`${id}-footer`}>Summary rows at the end (not transactions)</Label>
            <input
              id={`${id}-footer`}
              type="number"
              min={0}
              max={Math.max(0, sniff.totalRecords - first - 1)}
              value={mapping.footerRows}
              onChange={(e) =>
                set({ footerRows: Math.max(0, Math.min(999, Math.floor(Number(e.target.value) || 0))) })
              }
              className={inputClass}
              aria-describedby={`${id}-range`}
            />
          </div>
        </div>
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={mapping.continuationRows === 'append'}
            onChange={(e) => set({ continuationRows: e.target.checked ? 'append' : 'leave_out' })}
            className="h-5 w-5"
          />
          Rows with neither a date nor an amount continue the description of the row above
        </label>
        <p id={`${id}-range`} className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {firstLine !== undefined && lastLine !== undefined
            ? `Lines ${firstLine} to ${lastLine} are read as transactions (${end - first} rows).`
            : `${end - first} rows are read as transactions.`}{' '}
          {mapping.continuationRows === 'append'
            ? 'Rows with neither a date nor an amount are added to the description above them and listed in the preview;'
            : 'Rows with neither a date nor an amount are left out and listed in the preview;'}{' '}
          any other row that cannot be read stops the import with its line number.
        </p>
      </fieldset>

      <fieldset className="min-w-0 grid gap-3 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold">Columns</legend>
        {columnSelect('dateColumn', 'Date', false)}
        {columnSelect('descriptionColumn', 'Description', false)}
        {columnSelect('payeeColumn', 'Payee / counterparty', true)}
        {columnSelect('referenceColumn', 'Reference (when the description is empty)', true)}
        {columnSelect('externalIdColumn', 'Bank transaction id', true)}
        {columnSelect('currencyColumn', 'Currency (rows in another currency are refused)', true)}
      </fieldset>

      <fieldset className="min-w-0 space-y-3">
        <legend className="text-sm font-semibold">Amounts are in</legend>
        <div className="flex flex-wrap gap-x-5 text-sm">
          {(
            [
              ['signed', 'one signed column'],
              ['split', 'separate money-out and money-in columns'],
              ['indicator', 'an amount and a debit/credit column (D/C, S/H, DR/CR…)'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name={`${id}-layout`}
                checked={layout === value}
                onChange={() => {
                  const amount = mapping.amountColumn ?? mapping.debitColumn ?? 0;
                  if (value === 'split')
                    set({
                      amountColumn: null,
                      indicatorColumn: null,
                      debitColumn: mapping.debitColumn ?? amount,
                      creditColumn: mapping.creditColumn ?? Math.min(amount + 1, width - 1),
                    });
                  else
                    set({
                      amountColumn: amount,
                      debitColumn: null,
                      creditColumn: null,
                      indicatorColumn:
                        value === 'indicator'
                          ? (mapping.indicatorColumn ?? Math.min(amount + 1, width - 1))
                          : null,
                    });
                }}
              />
              {label}
            </label>
          ))}
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          {layout === 'split' ? (
            <>
              {columnSelect('debitColumn', 'Money out', false)}
              {columnSelect('creditColumn', 'Money in', false)}
            </>
          ) : (
            columnSelect('amountColumn', 'Amount', false)
          )}
          {layout === 'indicator' ? (
            <>
              {columnSelect('indicatorColumn', 'Debit/credit column', false)}
              <div>
                <Label htmlFor={`${id}-debit-values`}>Values meaning money out</Label>
                <input
                  id={`${id}-debit-values`}
                  className={inputClass}
                  value={listText(mapping.debitIndicators)}
                  onChange={(e) =>
                    set({ debitIndicators: [...listOf(e.target.value), ...(blank === 'debit' ? [''] : [])] })
                  }
                  aria-describedby={`${id}-values-hint`}
                />
              </div>
              <div>
                <Label htmlFor={`${id}-credit-values`}>Values meaning money in</Label>
                <input
                  id={`${id}-credit-values`}
                  className={inputClass}
                  value={listText(mapping.creditIndicators)}
                  onChange={(e) =>
                    set({
                      creditIndicators: [...listOf(e.target.value), ...(blank === 'credit' ? [''] : [])],
                    })
                  }
                  aria-describedby={`${id}-values-hint`}
                />
              </div>
              <div>
                <Label htmlFor={`${id}-blank`}>A blank cell means</Label>
                <select
                  id={`${id}-blank`}
                  className={inputClass}
                  value={blank}
                  onChange={(e) => {
                    const debit = mapping.debitIndicators.filter((v) => v !== '');
                    const credit = mapping.creditIndicators.filter((v) => v !== '');
                    set({
                      debitIndicators: e.target.value === 'debit' ? [...debit, ''] : debit,
                      creditIndicators: e.target.value === 'credit' ? [...credit, ''] : credit,
                    });
                  }}
                >
                  <option value="none">Nothing: refuse the row</option>
                  <option value="debit">Money out</option>
                  <option value="credit">Money in</option>
                </select>
              </div>
              <p id={`${id}-values-hint`} className="text-xs text-slate-500 sm:col-span-3">
                Separate values with commas; case does not matter. This column holds:{' '}
                {indicatorValues.map((v) => (v === '' ? '(blank)' : v)).join(', ') || 'nothing yet'}. The
                amount’s own sign is ignored: the indicator decides.
              </p>
            </>
          ) : null}
        </div>
        <label className="flex min-h-11 items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={mapping.invertAmounts}
            onChange={(e) => set({ invertAmounts: e.target.checked })}
            className="h-5 w-5"
          />
          Money out is shown as positive (card statements): turn every sign round
        </label>
      </fieldset>

      <fieldset className="min-w-0 grid gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">Formats</legend>
        <div>
          <Label htmlFor={`${id}-date-format`}>Date format</Label>
          <select
            id={`${id}-date-format`}
            value={dateChosen ? mapping.dateFormat : ''}
            onChange={(e) => {
              setDateChosen(true);
              set({ dateFormat: e.target.value as CsvMapping['dateFormat'] });
            }}
            className={inputClass}
            aria-invalid={!dateChosen}
            aria-describedby={`${id}-date-hint`}
          >
            {dateChosen ? null : <option value="">Choose the date format…</option>}
            {[
              ...sniff.dateFormatChoices,
              ...CSV_DATE_FORMATS.filter((f) => !sniff.dateFormatChoices.includes(f)),
            ].map((f) => (
              <option key={f} value={f}>
                {f} ({DATE_EXAMPLES[f]})
              </option>
            ))}
          </select>
          <p id={`${id}-date-hint`} className="mt-1 text-xs text-slate-500">
            {sniff.dateFormatChoices.length > 1
              ? `Every date in this file fits ${sniff.dateFormatChoices.join(' and ')}: only you can tell which one your bank means.`
              : 'Detected from every date in the column.'}{' '}
            First dates: {dataSample.map((r) => r.fields[mapping.dateColumn] ?? '').join(', ')}
          </p>
        </div>
        <div>
          <Label htmlFor={`${id}-decimal`}>Decimal mark</Label>
          <select
            id={`${id}-decimal`}
            value={markChosen ? mapping.decimalSeparator : ''}
            onChange={(e) => {
              setMarkChosen(true);
              set({ decimalSeparator: e.target.value as CsvMapping['decimalSeparator'] });
            }}
            className={inputClass}
            aria-invalid={!markChosen}
            aria-describedby={`${id}-decimal-hint`}
          >
            {markChosen ? null : <option value="">Choose the decimal mark…</option>}
            <option value=".">Point: 1,234.56</option>
            <option value=",">Comma: 1.234,56</option>
          </select>
          <p id={`${id}-decimal-hint`} className="mt-1 text-xs text-slate-500">
            {sniff.ambiguousAmounts.length > 0
              ? `${sniff.ambiguousAmounts.join(', ')} read differently with a point and a comma.`
              : 'Detected from every amount in the column.'}{' '}
            Thousands separators (point, comma, space, apostrophe) and currency signs are understood.
          </p>
        </div>
      </fieldset>

      {tryMapping ? (
        <section aria-labelledby={`${id}-trial`} className="space-y-2">
          <h3 id={`${id}-trial`} className="text-sm font-semibold">
            How the file reads with these settings
          </h3>
          <div aria-live="polite" aria-busy={trial.state === 'reading'} className="text-sm">
            {trial.state === 'idle' ? (
              <p className="text-slate-500">Make the choices above to see the first transactions.</p>
            ) : trial.state === 'reading' ? (
              <p className="text-slate-500">Reading the whole file…</p>
            ) : trial.state === 'refused' ? (
              <div className="space-y-1">
                <p className="font-medium text-red-700 dark:text-red-300">
                  {trial.errors.length > 0
                    ? 'These lines cannot be read with these settings; change them, or fix the file:'
                    : trial.message}
                </p>
                <ul className="max-h-32 overflow-y-auto text-red-800 dark:text-red-200">
                  {trial.errors.slice(0, 8).map((e) => (
                    <li key={`${e.line}-${e.reason}`}>
                      <span className="font-semibold">Line {e.line}:</span> {e.reason}
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <div
                className="rounded-lg border border-slate-200 text-xs dark:border-slate-800"
                data-testid="mapping-trial"
              >
                <Table caption="The first transactions as they will be imported" captionHidden dense>
                  <TableHead
                    columns={['Line', 'Date', 'Description', 'Payee', { label: 'Amount', numeric: true }]}
                  />
                  <tbody>
                    {trial.preview.rows.slice(0, 5).map((r) => (
                      <tr key={r.line}>
                        <Td className="tabular-nums">{r.line}</Td>
                        <Td className="whitespace-nowrap">{r.date}</Td>
                        <Td>{r.description}</Td>
                        <Td>{r.payee ?? ''}</Td>
                        <Td numeric>
                          <Money minor={r.amount} currency={currency} />
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
                <p className="px-2 py-1 text-xs text-slate-500">
                  {trial.preview.totalRows} transactions in all.
                </p>
              </div>
            )}
          </div>
        </section>
      ) : null}

      {missing.length > 0 ? (
        <p className="text-sm font-medium text-amber-800 dark:text-amber-300" role="status">
          Choose {missing.join(' and ')} to see the preview.
        </p>
      ) : null}
      <div className="flex justify-between gap-2">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button onClick={() => onPreview(mapping)} busy={busy} disabled={missing.length > 0}>
          Preview
        </Button>
      </div>
    </div>
  );
};
