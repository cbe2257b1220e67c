import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS, ENVIRONMENT_SETTINGS } from './environments.ts';

// Every row of SPEC section 9's environment settings table.
describe('environment settings (SPEC section 9)', () => {
  it.each([
    ['development', 3000, 2, 1000, 'production', true, true, false, false],
    ['staging', 3000, 2, 500, 'sandbox', true, true, false, true],
    ['production', 10000, 3, 100, 'production', false, false, false, true],
    ['test', 5000, 1, null, 'sandbox', false, false, true, false],
  ] as const)('%s', (env, timeout, retries, cap, plaid, debug, logging, mock, secure) => {
    const s = ENVIRONMENT_SETTINGS[env];
    expect(s.timeoutMs).toBe(timeout);
    expect(s.retryAttempts).toBe(retries);
    expect(s.securityRequestCap).toBe(cap);
    expect(s.plaidEnv).toBe(plaid);
    expect(s.debugMode).toBe(debug);
    expect(s.devTools).toBe(debug);
    expect(s.logging).toBe(logging);
    expect(s.mockData).toBe(mock);
    expect(s.secureCookies).toBe(secure);
  });

  it('has exactly the four environments', () => {
    expect(Object.keys(ENVIRONMENT_SETTINGS).sort()).toEqual([...ENVIRONMENTS].sort());
  });
});
