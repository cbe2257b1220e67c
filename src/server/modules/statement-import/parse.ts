import type { CsvMapping, StatementFormat } from '../../../shared/transactions.ts';
import { looksLikeCamt053, parseCamt053Statement } from './camt.ts';
import { parseCsvStatement } from './csv.ts';
import { looksLikeOfx, parseOfxStatement } from './ofx.ts';
import { type ParsedStatement, StatementParseError } from './types.ts';

// One entry point for every statement format: the format from the name or the content.

export const detectStatementFormat = (fileName: string, content: string): StatementFormat => {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'ofx' || ext === 'qfx' || looksLikeOfx(content)) return 'ofx';
  if (looksLikeCamt053(content)) return 'camt053';
  if (ext === 'xml') return 'camt053';
  return 'csv';
};

export const parseStatement = (input: {
  fileName: string;
  content: string;
  format?: StatementFormat;
  mapping?: CsvMapping | null;
  exponent: number;
}): ParsedStatement => {
  const format = input.format ?? detectStatementFormat(input.fileName, input.content);
  if (format === 'ofx') return parseOfxStatement(input.content, input.exponent);
  if (format === 'camt053') return parseCamt053Statement(input.content, input.exponent);
  if (!input.mapping) {
    throw new StatementParseError([
      { line: 1, reason: 'choose which columns hold the date, description and amount' },
    ]);
  }
  return parseCsvStatement(input.content, input.mapping, input.exponent);
};
