import { Badge } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { recordChoice } from './csvMappingParts.tsx';
import type { CsvMappingState } from './useCsvMapping.ts';
import { CheckboxField } from '../../components/ui/Form.tsx';

// The CSV mapping step's "Where the transactions are": the file's lines and how each is read,
// the header row, the first transaction, the summary rows at the end and continuation rows.

const RecordsTable = ({ m }: { m: CsvMappingState }) => (
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
        {m.records.map((r, i) => {
          const role = m.roleOf(r.index);
          const gap = i > 0 && m.records[i - 1]!.index + 1 !== r.index;
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
);

export const CsvRowsFieldset = ({ m }: { m: CsvMappingState }) => {
  const { id, sniff, mapping, set, records, first, end, firstLine, lastLine } = m;
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-sm font-semibold">Where the transactions are</legend>
      <RecordsTable m={m} />
      {sniff.totalRecords > records.length ? (
        <p className="text-xs text-slate-500">
          Showing the first and last lines of {sniff.totalRecords} rows; the dashed line marks the gap.
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField
          id={`${id}-header`}
          label="Header row"
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
          emptyOption="No header row"
          options={records.slice(0, 40).map(recordChoice)}
        />
        <SelectField
          id={`${id}-first`}
          label="First transaction"
          value={String(first)}
          onChange={(e) => set({ firstDataRow: Number(e.target.value) })}
          options={records
            .filter((r) => !(mapping.hasHeader && r.index <= mapping.headerRow))
            .slice(0, 40)
            .map(recordChoice)}
        />
        <TextField
          id={`${id}-footer`}
          label="Summary rows at the end (not transactions)"
          type="number"
          min={0}
          max={Math.max(0, sniff.totalRecords - first - 1)}
          value={mapping.footerRows}
          onChange={(e) =>
            set({ footerRows: Math.max(0, Math.min(999, Math.floor(Number(e.target.value) || 0))) })
          }
          aria-describedby={`${id}-range`}
        />
      </div>
      <CheckboxField
        label="Rows with neither a date nor an amount continue the description of the row above"
        checked={mapping.continuationRows === 'append'}
        onChange={(append) => set({ continuationRows: append ? 'append' : 'leave_out' })}
      />
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
  );
};
