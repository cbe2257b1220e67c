import { describe, expect, it } from 'vitest';
import { loadServerConfig } from './config.ts';

describe('server configuration from environment variables', () => {
  it('has working defaults', () => {
    const config = loadServerConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.app.ENVIRONMENT).toBe('development');
    expect(config.app.API_URL).toBe('http://localhost:3000');
  });

  it('refuses a non-numeric PORT with one line naming it', () => {
    expect(() => loadServerConfig({ PORT: 'abc' })).toThrow(
      'Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")',
    );
  });

  it('refuses a malformed DATABASE_URL', () => {
    expect(() => loadServerConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /^Invalid configuration: DATABASE_URL must be a postgres:\/\//,
    );
    expect(() => loadServerConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });

  it('refuses an invalid PLAID_ENV', () => {
    expect(() => loadServerConfig({ PLAID_ENV: 'live' })).toThrow(
      'Invalid configuration: PLAID_ENV must be one of: sandbox, development, production (got "live")',
    );
  });

  it('refuses an invalid PUBLIC_URL with SPEC message', () => {
    expect(() => loadServerConfig({ PUBLIC_URL: 'nope' })).toThrow('Invalid API_URL format: nope');
  });

  it('uses production settings when NODE_ENV is production', () => {
    expect(loadServerConfig({ NODE_ENV: 'production' }).app.ENVIRONMENT).toBe('production');
  });
});
