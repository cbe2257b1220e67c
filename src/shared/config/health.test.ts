import { describe, expect, it } from 'vitest';
import { checkHealth } from './health.ts';

const config = {
  API_URL: 'http://localhost:3000',
  ENVIRONMENT: 'test' as const,
  PLAID_ENV: 'sandbox' as const,
  TIMEOUT: 50,
};

describe('client health check (SPEC section 7)', () => {
  it('merges the answer into a healthy result', async () => {
    const fetchOk = async () =>
      new Response(JSON.stringify({ version: '1.0.0', database: { ok: true } }), { status: 200 });
    expect(await checkHealth(config, fetchOk as typeof fetch)).toEqual({
      version: '1.0.0',
      database: { ok: true },
      healthy: true,
      environment: 'test',
      apiUrl: 'http://localhost:3000',
      plaidEnv: 'sandbox',
    });
  });

  it("reports 'Health check failed: status' for a non-OK answer", async () => {
    const fetch503 = async () => new Response('{}', { status: 503 });
    expect(await checkHealth(config, fetch503 as typeof fetch)).toEqual({
      healthy: false,
      environment: 'test',
      error: 'Health check failed: 503',
    });
  });

  it('aborts after the TIMEOUT', async () => {
    const never = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const result = await checkHealth(config, never as typeof fetch);
    expect(result).toEqual({
      healthy: false,
      environment: 'test',
      error: 'Health check failed: timed out after 50 ms',
    });
  });
});
