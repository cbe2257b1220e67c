import type { CsvMapping, CsvSniff, StatementPreview } from '../../../shared/transactions.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { StepButtons } from './Controls.tsx';
import { AmountsFieldset, ColumnsFieldset, FormatsFieldset } from './CsvColumnsFieldsets.tsx';
import { CsvRowsFieldset } from './CsvRowsFieldset.tsx';
import { MappingTrial } from './MappingTrial.tsx';
import { useCsvMapping } from './useCsvMapping.ts';

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
  const m = useCsvMapping({ sniff, mapping, onChange, tryMapping });
  const { id, fromSaved, missing, trial } = m;

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

      <CsvRowsFieldset m={m} />

      <ColumnsFieldset m={m} />

      <AmountsFieldset m={m} />

      <FormatsFieldset m={m} />

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
