import { useId, useState } from 'react';
import {
  CSV_DATE_FORMATS,
  type CsvMapping,
  type CsvSniff,
  type StatementPreview,
} from '../../../shared/transactions.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge } from '../../components/ui/Card.tsx';
import { Label, StepButtons, inputClass } from './Controls.tsx';
import { ChosenSelect, DATE_EXAMPLES, layoutOf, listOf, listText, recordOption } from './csvMappingParts.tsx';
import { MappingTrial, useMappingTrial } from './MappingTrial.tsx';

// The CSV mapping step of the import wizard: where the table is in the file (preamble,
// header, summary rows), which column holds what, how amounts are laid out, and the date and
// number formats — each detected by the server from the whole file, shown, and changeable.
// When the file cannot tell (every date fits day-first and month-first; "1,234" reads two
// ways), nothing is preselected and the preview waits for the user's choice.

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
  const ready = missing.length === 0;
  const trial = useMappingTrial(tryMapping, mapping, ready);

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
              {records.slice(0, 40).map(recordOption)}
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
                .map(recordOption)}
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
        <ChosenSelect
          id={`${id}-date-format`}
          label="Date format"
          chosen={dateChosen}
          value={mapping.dateFormat}
          placeholder="Choose the date format…"
          options={[
            ...sniff.dateFormatChoices,
            ...CSV_DATE_FORMATS.filter((f) => !sniff.dateFormatChoices.includes(f)),
          ].map((f) => ({ value: f, label: `${f} (${DATE_EXAMPLES[f]})` }))}
          onChoose={(value) => {
            setDateChosen(true);
            set({ dateFormat: value as CsvMapping['dateFormat'] });
          }}
          hint={
            <>
              {sniff.dateFormatChoices.length > 1
                ? `Every date in this file fits ${sniff.dateFormatChoices.join(' and ')}: only you can tell which one your bank means.`
                : 'Detected from every date in the column.'}{' '}
              First dates: {dataSample.map((r) => r.fields[mapping.dateColumn] ?? '').join(', ')}
            </>
          }
        />
        <ChosenSelect
          id={`${id}-decimal`}
          label="Decimal mark"
          chosen={markChosen}
          value={mapping.decimalSeparator}
          placeholder="Choose the decimal mark…"
          options={[
            { value: '.', label: 'Point: 1,234.56' },
            { value: ',', label: 'Comma: 1.234,56' },
          ]}
          onChoose={(value) => {
            setMarkChosen(true);
            set({ decimalSeparator: value as CsvMapping['decimalSeparator'] });
          }}
          hint={
            <>
              {sniff.ambiguousAmounts.length > 0
                ? `${sniff.ambiguousAmounts.join(', ')} read differently with a point and a comma.`
                : 'Detected from every amount in the column.'}{' '}
              Thousands separators (point, comma, space, apostrophe) and currency signs are understood.
            </>
          }
        />
      </fieldset>

      {tryMapping ? <MappingTrial id={`${id}-trial`} trial={trial} currency={currency} /> : null}

      {missing.length > 0 ? (
        <p className="text-sm font-medium text-amber-800 dark:text-amber-300" role="status">
          Choose {missing.join(' and ')} to see the preview.
        </p>
      ) : null}
      <StepButtons onBack={onBack}>
        <Button onClick={() => onPreview(mapping)} busy={busy} disabled={missing.length > 0}>
          Preview
        </Button>
      </StepButtons>
    </div>
  );
};
