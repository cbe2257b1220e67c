import type { StatementImportProgress } from '../../../shared/transactions.ts';
import { formatCount } from '../../lib/format.ts';
import { ApiError } from '../../lib/api.ts';

// The import wizard's plain logic: its steps, telling CSV from OFX/CAMT by name and first bytes,
// what the importing step shows, and the line errors of a refused file.

export type Step = 'file' | 'mapping' | 'preview' | 'importing' | 'done';

export type LineError = { line: number; reason: string };

export const isCsv = (name: string, content: string) => {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'ofx' || ext === 'qfx' || ext === 'xml') return false;
  return !/OFXHEADER|<OFX|BkToCstmr|urn:iso:std:iso:20022:tech:xsd:camt/.test(content.slice(0, 4096));
};

/**
 * What the importing step shows: the upload's bytes, then the server's rows posted. Without
 * an answer from the server (the poll landed on another node, or the import has not started
 * reporting) it says "Working…" rather than guess.
 */
export const importingView = (
  upload: number,
  server: StatementImportProgress | null,
): { label: string; value: number | null; detail?: string } => {
  if (upload < 1) return { label: 'Uploading…', value: upload };
  if (!server || server.phase === 'failed') return { label: 'Working…', value: null };
  if (server.phase === 'reading') return { label: 'Reading the statement…', value: null };
  if (server.phase === 'posting')
    return {
      label: 'Posting rows…',
      value: server.total > 0 ? server.done / server.total : null,
      detail: `${formatCount(server.done)} of ${formatCount(server.total)}`,
    };
  return {
    label: 'Finishing…',
    value: 1,
    detail: `${formatCount(server.total)} of ${formatCount(server.total)}`,
  };
};

export const lineErrorsOf = (error: unknown): LineError[] => {
  if (error instanceof ApiError && error.code === 'statement_invalid') {
    const details = error.details as { errors?: LineError[] } | undefined;
    return details?.errors ?? [];
  }
  return [];
};
