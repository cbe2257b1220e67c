import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
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

/** A sort key column of a keyset page, with the SQL type its cursor value is cast to (if any). */
export type KeysetKey = readonly [column: string, type?: string];

/**
 * The rows after a cursor, in the order of the key columns: `(k1, k2, …) > (v1, v2, …)`
 * (`<` when descending), then ordered by each key column in that direction. `after` holds the
 * cursor's values in the key columns' order, or null on the first page.
 */
export const afterKey = <DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  keys: readonly KeysetKey[],
  after: readonly (string | number)[] | null,
  direction: 'asc' | 'desc' = 'asc',
) => {
  let q = query;
  if (after) {
    const columns = sql.join(keys.map(([column]) => sql.ref(column)));
    const values = sql.join(
      keys.map(([, type], i) => (type ? sql`${after[i]}::${sql.raw(type)}` : sql`${after[i]}`)),
    );
    q = q.where(sql<SqlBool>`(${columns}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${values})`);
  }
  for (const [column] of keys) q = q.orderBy(sql.ref(column), direction);
  return q;
};

/**
 * One keyset page: `afterKey`, then `limit` rows, reading one more to know whether there is a
 * next page. `nextCursor(cursorOf)` encodes the cursor of the page after from the page's last
 * row (null on the last page).
 */
export const keysetPage = async <DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  page: {
    keys: readonly KeysetKey[];
    after: readonly (string | number)[] | null;
    limit: number;
    direction?: 'asc' | 'desc';
  },
) => {
  const rows = await afterKey(query, page.keys, page.after, page.direction)
    .limit(page.limit + 1)
    .execute();
  const first = rows.slice(0, page.limit);
  return {
    page: first,
    nextCursor: (cursorOf: (last: Row) => Record<string, string | number>) => {
      const last = first.at(-1);
      return rows.length > page.limit && last ? encodeCursor(cursorOf(last)) : null;
    },
  };
};
