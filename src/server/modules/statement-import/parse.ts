import type { CsvMapping, StatementFormat } from '../../../shared/transactions.ts';
import { looksLikeCamt, parseCamtFile } from './camt.ts';
import { parseCsvStatement } from './csv.ts';
import { decodeStatementBytes } from './decode.ts';
import { looksLikeOfx, parseOfxFile } from './ofx.ts';
import { type ParsedStatementFile, StatementParseError } from './types.ts';

// One entry point for every statement format. The content decides (an ISO 20022 Document or
// an OFX header/element, whatever the file is called); the extension only breaks the tie for
// files that look like neither, so a broken .ofx or .xml is refused as what it claims to be.

export const detectStatementFormat = (fileName: string, content: string): StatementFormat => {
  if (looksLikeCamt(content)) return 'camt053';
  if (looksLikeOfx(content)) return 'ofx';
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'ofx' || ext === 'qfx') return 'ofx';
  if (ext === 'xml' || /^\s*<(\?xml|Document[\s>])/.test(content.slice(0, 1024))) return 'camt053';
  return 'csv';
};

/** Decodes the bytes (decode.ts) and parses them: the path the API takes for an upload. */
export const parseStatementBytes = (input: {
  fileName: string;
  bytes: Uint8Array;
  format?: StatementFormat;
  mapping?: CsvMapping | null;
  exponent: number;
  currency?: string | null;
}) => parseStatementFile({ ...input, content: decodeStatementBytes(input.bytes).text });

export const parseStatementFile = (input: {
  fileName: string;
  content: string;
  format?: StatementFormat;
  mapping?: CsvMapping | null;
  /** The money account's currency and its exponent, for statements that state none. */
  exponent: number;
  currency?: string | null;
}): ParsedStatementFile => {
  const format = input.format ?? detectStatementFormat(input.fileName, input.content);
  if (format === 'ofx') return parseOfxFile(input.content, input.exponent, input.currency ?? null);
  if (format === 'camt053') return parseCamtFile(input.content, input.exponent, input.currency ?? null);
  if (!input.mapping) {
    throw new StatementParseError([
      { line: 1, reason: 'choose which columns hold the date, description and amount' },
    ]);
  }
  const statement = parseCsvStatement(input.content, input.mapping, {
    exponent: input.exponent,
    currency: input.currency ?? null,
  });
  return { format: 'csv', statements: [statement] };
};
