import { CSV_DATE_FORMATS, type CsvMapping } from '../../../shared/transactions.ts';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { ChosenSelect, DATE_EXAMPLES, listOf, listText } from './csvMappingParts.tsx';
import type { CsvMappingState } from './useCsvMapping.ts';
import { CheckboxField } from '../../components/ui/Form.tsx';

// The CSV mapping step's column choices: which column holds what, how the amounts are laid
// out (signed, split, or amount plus debit/credit indicator), and the date and number formats.

const ColumnSelect = ({
  m,
  field,
  label,
  allowNone,
}: {
  m: CsvMappingState;
  field: keyof CsvMapping;
  label: string;
  allowNone: boolean;
}) => (
  <SelectField
    id={`${m.id}-${field}`}
    label={label}
    value={m.mapping[field] === null ? '' : String(m.mapping[field])}
    onChange={(e) =>
      m.set({ [field]: e.target.value === '' ? null : Number(e.target.value) } as Partial<CsvMapping>)
    }
    emptyOption={allowNone ? '— none —' : undefined}
    options={m.columns.map((i) => ({ value: String(i), label: m.columnName(i) }))}
  />
);

export const ColumnsFieldset = ({ m }: { m: CsvMappingState }) => (
  <fieldset className="min-w-0 grid gap-3 sm:grid-cols-3">
    <legend className="mb-2 text-sm font-semibold">Columns</legend>
    <ColumnSelect m={m} field="dateColumn" label="Date" allowNone={false} />
    <ColumnSelect m={m} field="descriptionColumn" label="Description" allowNone={false} />
    <ColumnSelect m={m} field="payeeColumn" label="Payee / counterparty" allowNone />
    <ColumnSelect m={m} field="referenceColumn" label="Reference (when the description is empty)" allowNone />
    <ColumnSelect m={m} field="externalIdColumn" label="Bank transaction id" allowNone />
    <ColumnSelect
      m={m}
      field="currencyColumn"
      label="Currency (rows in another currency are refused)"
      allowNone
    />
  </fieldset>
);

const LAYOUTS = [
  ['signed', 'one signed column'],
  ['split', 'separate money-out and money-in columns'],
  ['indicator', 'an amount and a debit/credit column (D/C, S/H, DR/CR…)'],
] as const;

const IndicatorFields = ({ m }: { m: CsvMappingState }) => {
  const { id, mapping, set, blank } = m;
  return (
    <>
      <ColumnSelect m={m} field="indicatorColumn" label="Debit/credit column" allowNone={false} />
      <TextField
        id={`${id}-debit-values`}
        label="Values meaning money out"
        value={listText(mapping.debitIndicators)}
        onChange={(e) =>
          set({ debitIndicators: [...listOf(e.target.value), ...(blank === 'debit' ? [''] : [])] })
        }
        aria-describedby={`${id}-values-hint`}
      />
      <TextField
        id={`${id}-credit-values`}
        label="Values meaning money in"
        value={listText(mapping.creditIndicators)}
        onChange={(e) =>
          set({
            creditIndicators: [...listOf(e.target.value), ...(blank === 'credit' ? [''] : [])],
          })
        }
        aria-describedby={`${id}-values-hint`}
      />
      <SelectField
        id={`${id}-blank`}
        label="A blank cell means"
        value={blank}
        onChange={(e) => {
          const debit = mapping.debitIndicators.filter((v) => v !== '');
          const credit = mapping.creditIndicators.filter((v) => v !== '');
          set({
            debitIndicators: e.target.value === 'debit' ? [...debit, ''] : debit,
            creditIndicators: e.target.value === 'credit' ? [...credit, ''] : credit,
          });
        }}
        options={[
          { value: 'none', label: 'Nothing: refuse the row' },
          { value: 'debit', label: 'Money out' },
          { value: 'credit', label: 'Money in' },
        ]}
      />
      <p id={`${id}-values-hint`} className="text-xs text-slate-500 sm:col-span-3">
        Separate values with commas; case does not matter. This column holds:{' '}
        {m.indicatorValues.map((v) => (v === '' ? '(blank)' : v)).join(', ') || 'nothing yet'}. The amount’s
        own sign is ignored: the indicator decides.
      </p>
    </>
  );
};

export const AmountsFieldset = ({ m }: { m: CsvMappingState }) => {
  const { id, mapping, set, layout, width } = m;
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-sm font-semibold">Amounts are in</legend>
      <div className="flex flex-wrap gap-x-5 text-sm">
        {LAYOUTS.map(([value, label]) => (
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
            <ColumnSelect m={m} field="debitColumn" label="Money out" allowNone={false} />
            <ColumnSelect m={m} field="creditColumn" label="Money in" allowNone={false} />
          </>
        ) : (
          <ColumnSelect m={m} field="amountColumn" label="Amount" allowNone={false} />
        )}
        {layout === 'indicator' ? <IndicatorFields m={m} /> : null}
      </div>
      <CheckboxField
        label="Money out is shown as positive (card statements): turn every sign round"
        checked={mapping.invertAmounts}
        onChange={(invertAmounts) => set({ invertAmounts })}
      />
    </fieldset>
  );
};

export const FormatsFieldset = ({ m }: { m: CsvMappingState }) => {
  const { id, sniff, mapping, set } = m;
  return (
    <fieldset className="min-w-0 grid gap-3 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-semibold">Formats</legend>
      <ChosenSelect
        id={`${id}-date-format`}
        label="Date format"
        chosen={m.dateChosen}
        value={mapping.dateFormat}
        placeholder="Choose the date format…"
        options={[
          ...sniff.dateFormatChoices,
          ...CSV_DATE_FORMATS.filter((f) => !sniff.dateFormatChoices.includes(f)),
        ].map((f) => ({ value: f, label: `${f} (${DATE_EXAMPLES[f]})` }))}
        onChoose={(value) => {
          m.setDateChosen(true);
          set({ dateFormat: value as CsvMapping['dateFormat'] });
        }}
        hint={
          <>
            {sniff.dateFormatChoices.length > 1
              ? `Every date in this file fits ${sniff.dateFormatChoices.join(' and ')}: only you can tell which one your bank means.`
              : 'Detected from every date in the column.'}{' '}
            First dates: {m.dataSample.map((r) => r.fields[mapping.dateColumn] ?? '').join(', ')}
          </>
        }
      />
      <ChosenSelect
        id={`${id}-decimal`}
        label="Decimal mark"
        chosen={m.markChosen}
        value={mapping.decimalSeparator}
        placeholder="Choose the decimal mark…"
        options={[
          { value: '.', label: 'Point: 1,234.56' },
          { value: ',', label: 'Comma: 1.234,56' },
        ]}
        onChoose={(value) => {
          m.setMarkChosen(true);
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
  );
};
