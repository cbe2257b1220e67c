import { randomFillSync } from 'node:crypto';

// Journal entry ids are UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random
// bits. They sort by creation time, so a million new entries append near the right edge of
// the primary-key indexes of journal_entries and journal_lines instead of landing on random
// pages; with random v4 ids, bulk loads slowed down as those indexes outgrew memory.

let lastMs = 0;
const POOL = Buffer.allocUnsafe(8192);
let poolAt = POOL.length;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
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
  // Random bits come from a pooled buffer refilled 8 KB at a time (as crypto.randomUUID does):
  // one randomBytes call and Buffer per id was most of the id's cost in a 100,000-line import.
  if (poolAt + 8 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const r = poolAt;
  poolAt += 8;
  const ms = lastMs.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-${HEX[0x70 | ((counter >> 8) & 0x0f)]}${HEX[counter & 0xff]}-${
    HEX[0x80 | (POOL[r]! & 0x3f)]
  }${HEX[POOL[r + 1]!]}-${HEX[POOL[r + 2]!]}${HEX[POOL[r + 3]!]}${HEX[POOL[r + 4]!]}${HEX[POOL[r + 5]!]}${
    HEX[POOL[r + 6]!]
  }${HEX[POOL[r + 7]!]}`;
};
