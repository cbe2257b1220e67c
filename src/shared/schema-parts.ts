import { z } from 'zod';
import { isoDate } from './input.ts';

// Pieces the request and response schemas of several modules are built from, where they
// really are one concept: a page of results and the query that asks for it, the search box
// of a list, a set of named amounts (a report's totals) and the head of a report over dates.
// Each piece keeps its fields in the order the schemas list them, so the JSON Schema (and the
// OpenAPI document) of a schema built from it is the one it had when written out in full.

/**
 * The kinds a labels table names, in its order: what a `z.enum` accepts and a picker lists, so
 * each kind is written once, with its label.
 */
export const kindsOf = <K extends string>(labels: Record<K, string>) =>
  Object.keys(labels) as unknown as readonly [K, ...K[]];

/** Where a keyset-paginated list goes on: the cursor of the next page, or null on the last. */
const nextCursor = z.string().nullable();

/** The fields of a page of results under `key`, then `nextCursor`, to spread into a larger object. */
export const cursorPageShape = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  ({ [key]: z.array(item), nextCursor }) as { [P in K]: z.ZodArray<T> } & { nextCursor: typeof nextCursor };

/** A page of results: `{ [key]: items, nextCursor }` (see `encodeCursor` in src/server/db/cursor.ts). */
export const cursorPage = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.object(cursorPageShape(key, item));

/** The query fields that ask for such a page: how many (1 to `max`, default `byDefault`) and from where. */
export const cursorQuery = (max: number, byDefault: number) => ({
  limit: z.coerce.number().int().min(1).max(max).default(byDefault),
  cursor: z.string().optional(),
});

/** The query fields of a numbered page (1-based) of up to `maxPageSize` rows. */
export const numberedPageQuery = (maxPageSize: number, defaultPageSize: number) => ({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
});

/** The search box of a list: trimmed text, at most 100 characters. */
export const searchText = z.string().trim().max(100).optional();

/** The dates a list may be narrowed to: from and to (ISO dates), each optional. */
export const optionalDateRange = { from: isoDate.optional(), to: isoDate.optional() };

/** An amount in minor units of its currency. */
export const amountInCurrency = { amount: z.number(), currency: z.string() };

/** Amounts in minor units under the given names, in that order (a report's totals, a row's figures). */
export const namedAmounts = <const K extends string>(names: readonly K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.number()])) as { [P in K]: z.ZodNumber });

/** What a report over dates says first: its currency and the dates it covers. */
export const reportRange = { currency: z.string(), from: z.string(), to: z.string() };
/** The same for a report that may run from the beginning of the books (`from` null). */
export const reportSince = { ...reportRange, from: z.string().nullable() };
