import { useEffect, useRef, useState } from 'react';
import type { CsvMapping, StatementPreview } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { ApiError } from '../../lib/api.ts';

// The CSV mapping step's live reading: the server reads the whole file with the mapping as it
// stands (half a second after the last change, the latest answer wins) and the step shows the
// first rows it reads, or the lines it refuses.

export type Trial =
  | { state: 'idle' }
  | { state: 'reading' }
  | { state: 'read'; preview: StatementPreview }
  | { state: 'refused'; errors: { line: number; reason: string }[]; message: string };

export const useMappingTrial = (
  tryMapping: ((m: CsvMapping) => Promise<StatementPreview>) | undefined,
  mapping: CsvMapping,
  ready: boolean,
) => {
  const [trial, setTrial] = useState<Trial>({ state: 'idle' });
  const asked = useRef(0);
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
  return trial;
};

export const MappingTrial = ({ id, trial, currency }: { id: string; trial: Trial; currency: string }) => (
  <section aria-labelledby={id} className="space-y-2">
    <h3 id={id} className="text-sm font-semibold">
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
          <p className="px-2 py-1 text-xs text-slate-500">{trial.preview.totalRows} transactions in all.</p>
        </div>
      )}
    </div>
  </section>
);
