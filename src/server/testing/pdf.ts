import { inflateSync } from 'node:zlib';
import { extractPdfText } from './invoices.ts';

/** The text of a pdfkit file whose page streams are compressed: each stream inflated, then read. */
export const compressedPdfText = (pdf: Buffer) => {
  const source = pdf.toString('latin1');
  const parts: string[] = [];
  for (const m of source.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = source.indexOf('endstream', start);
    try {
      parts.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a compressed stream (fonts and the like)
    }
  }
  return extractPdfText(Buffer.from(parts.join('\n'), 'latin1'));
};
