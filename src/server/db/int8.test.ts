import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind } from '../testing/db.ts';
import { type DatabaseHandle, parseInt8 } from './client.ts';

// Decision 0013: int8 is read exactly (never through a rounding Number), numeric stays text.

describe('parseInt8', () => {
  it('is exact within ±(2^53 − 1) and refuses anything beyond, never rounding', () => {
    expect(parseInt8('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8('-9007199254740991')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(parseInt8('0')).toBe(0);
    expect(() => parseInt8('9007199254740992')).toThrow(/exact integer range/);
    expect(() => parseInt8('9223372036854775807')).toThrow(/exact integer range/);
  });
});

describe(`driver type parsers (${testDatabaseKind()})`, () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('reads int8 as exact numbers and numeric (what sum() returns) as exact text', async () => {
    const { rows } = await sql<{ small: number; total: string; date: string }>`
      select 999999999999::bigint as small,
             sum(v) as total,
             '2026-03-01'::date as date
        from (values (9007199254740991::bigint), (9007199254740991::bigint)) t(v)`.execute(database.db);
    expect(rows[0]!.small).toBe(999_999_999_999);
    expect(rows[0]!.total).toBe('18014398509481982');
    expect(BigInt(rows[0]!.total)).toBe(2n * BigInt(Number.MAX_SAFE_INTEGER));
    expect(rows[0]!.date).toBe('2026-03-01');
  });
});
