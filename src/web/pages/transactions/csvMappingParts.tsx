import type { ReactNode } from 'react';
import type { CsvMapping, CsvSniff } from '../../../shared/transactions.ts';
import { SelectField } from '../../components/ui/Field.tsx';

// Pieces of the CSV mapping step: how the amounts are laid out, an example of each date
// format, the lists of indicator values as text, and a format only the person can confirm.

export type Layout = 'signed' | 'split' | 'indicator';
export const layoutOf = (m: CsvMapping): Layout =>
  m.amountColumn === null ? 'split' : m.indicatorColumn !== null ? 'indicator' : 'signed';

export const DATE_EXAMPLES: Record<CsvMapping['dateFormat'], string> = {
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

export const listText = (values: string[]) => values.filter((v) => v !== '').join(', ');
export const listOf = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** A format only the person can confirm: marked invalid, offering "Choose …", until chosen. */
export const ChosenSelect = ({
  id,
  label,
  chosen,
  value,
  placeholder,
  options,
  onChoose,
  hint,
}: {
  id: string;
  label: string;
  chosen: boolean;
  value: string;
  placeholder: string;
  options: { value: string; label: string }[];
  onChoose: (value: string) => void;
  hint: ReactNode;
}) => (
  <SelectField
    id={id}
    label={label}
    hint={hint}
    value={chosen ? value : ''}
    onChange={(e) => onChoose(e.target.value)}
    aria-invalid={!chosen}
    emptyOption={chosen ? undefined : placeholder}
    options={options}
  />
);

/** A line of the file offered as the header row or the first transaction. */
export const recordChoice = (r: CsvSniff['records'][number]) => ({
  value: String(r.index),
  label: `Line ${r.line}: ${r.fields.join(', ').slice(0, 40)}`,
});
