import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiWalk } from './testing/openapi-walk.ts';

// Bad input never makes the API answer 5xx (issue 11), and every answer is what the OpenAPI
// document says (issue 22): the walk over every operation of /api/openapi.json with the
// bad-input catalogue (src/server/testing/openapi-walk.ts; FUZZ_SEED, FUZZ_FULL, FUZZ_ONLY,
// FUZZ_SAMPLE and FUZZ_OUT are read there). src/server/contract.test.ts walks the same
// operations with fewer values, plus the sign-in operations and the document itself.

describe('bad input never answers 5xx (OpenAPI fuzz)', () => {
  const walk = createOpenApiWalk();
  beforeAll(walk.setUp, 120_000);
  afterAll(walk.close);

  it('walks every operation with the bad-input catalogue', { timeout: 600_000 }, async () => {
    expect(await walk.walk('fuzz')).toEqual([]);
  });
});
