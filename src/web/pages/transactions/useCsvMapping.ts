import { useId, useState } from 'react';
import type { CsvMapping, CsvSniff, StatementPreview } from '../../../shared/transactions.ts';
import { layoutOf } from './csvMappingParts.tsx';
import { useMappingTrial } from './MappingTrial.tsx';

// The CSV mapping step's state: the choices the file leaves open, where the table starts and
// ends, the columns offered, how the amounts are laid out, what is still missing before the
// preview, and the trial read of the whole file with the mapping as it stands.

export const useCsvMapping = ({
  sniff,
  mapping,
  onChange,
  tryMapping,
}: {
  sniff: CsvSniff;
  mapping: CsvMapping;
  onChange: (m: CsvMapping) => void;
  tryMapping?: (m: CsvMapping) => Promise<StatementPreview>;
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

  return {
    id,
    sniff,
    mapping,
    fromSaved,
    dateChosen,
    setDateChosen,
    markChosen,
    setMarkChosen,
    set,
    records,
    first,
    end,
    width,
    dataSample,
    columnName,
    columns,
    roleOf,
    layout,
    firstLine,
    lastLine,
    blank,
    indicatorValues,
    missing,
    trial,
  };
};

export type CsvMappingState = ReturnType<typeof useCsvMapping>;
