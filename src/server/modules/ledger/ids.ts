import { randomBytes } from 'node:crypto';

// Journal entry ids are UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random
// bits. They sort by creation time, so a million new entries append near the right edge of
// the primary-key indexes of journal_entries and journal_lines instead of landing on random
// pages; with random v4 ids, bulk loads slowed down as those indexes outgrew memory.

let lastMs = 0;
let counter = 0;

export const newEntryId = (now = Date.now()): string => {
  // Within one millisecond a 12-bit counter keeps ids increasing (RFC 9562 method 1).
  if (now <= lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = 0;
  }
  const bytes = randomBytes(16);
  const ms = BigInt(lastMs);
  for (let i = 0; i < 6; i += 1) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
