import { describe, expect, it } from 'vitest';
import { PAYABLES_EXAMPLES } from './payables.ts';

// The OpenAPI document's payables examples are requests the server accepts: each parses with
// the schema it is registered on.

describe('payables OpenAPI examples', () => {
  it.each(PAYABLES_EXAMPLES.map(([schema, example], i) => [i, schema, example] as const))(
    'example %i parses with its schema',
    (_i, schema, example) => {
      const parsed = schema.safeParse(example);
      expect(parsed.error?.issues ?? []).toEqual([]);
    },
  );
});
