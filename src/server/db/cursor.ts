import { sql } from 'kysely';
import { badRequest } from '../../shared/errors.ts';

// Keyset-page cursors shared by every cursor-paginated list (journal entries, the ledger
// reports, bank transactions). A cursor is the sort key of the last row of a page, as JSON in
// base64url. Every field of it must be exact: a key that is rounded (a timestamp cut to
// milliseconds while the database keeps microseconds) compares wrongly with the rows that
// share its rounded value, and the next page silently skips them (decision 0013, issue 11 §8).
// Each field is checked before it reaches SQL, so a forged cursor is a 400, never a 500.

const INVALID_MESSAGE = 'The page cursor is not valid; start again from the first page.';

export const invalidCursor = () => badRequest('invalid_cursor', INVALID_MESSAGE);

export type CursorField = 'date' | 'timestamp' | 'integer' | 'string';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A timestamp as `exactTimestamp` writes it: UTC with microseconds. */
const EXACT_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const isRealDate = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
};

const fieldOk = (kind: CursorField, value: unknown) => {
  switch (kind) {
    case 'date':
      return typeof value === 'string' && ISO_DATE.test(value) && isRealDate(value);
    case 'timestamp':
      return typeof value === 'string' && EXACT_TIMESTAMP.test(value) && isRealDate(value.slice(0, 10));
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'string':
      return typeof value === 'string' && value.length <= 1000 && !value.includes('\u0000');
  }
};

type FieldValue<K extends CursorField> = K extends 'integer' ? number : string;

export const encodeCursor = (value: Record<string, string | number>) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Reads a cursor with the given fields, or null without one; anything else is 400
 * `invalid_cursor`.
 */
export const decodeCursor = <S extends Record<string, CursorField>>(
  text: string | undefined | null,
  shape: S,
): { [K in keyof S]: FieldValue<S[K]> } | null => {
  if (text === undefined || text === null || text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidCursor();
  const record = value as Record<string, unknown>;
  for (const [key, kind] of Object.entries(shape)) {
    if (!fieldOk(kind, record[key])) throw invalidCursor();
  }
  return Object.fromEntries(Object.keys(shape).map((k) => [k, record[k]])) as {
    [K in keyof S]: FieldValue<S[K]>;
  };
};

/**
 * A timestamptz column as exact text (UTC, microseconds), for a cursor: select it beside the
 * row and compare with `${text}::timestamptz`, which reads back the very same instant.
 */
export const exactTimestamp = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
