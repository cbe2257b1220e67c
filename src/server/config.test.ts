import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_SECRET_EXAMPLE, loadServerConfig } from './config.ts';

describe('server configuration from environment variables', () => {
  it('has working defaults', () => {
    const config = loadServerConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.app.ENVIRONMENT).toBe('development');
    expect(config.app.API_URL).toBe('http://localhost:3000');
    expect(config.host).toBe('127.0.0.1');
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
    expect(loadServerConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET }).app.ENVIRONMENT).toBe(
      'production',
    );
  });
});

const SECRET = 'k2vQ8mW4zR7tY1uN6pL3sD9fG5hJ0aXc';

describe('listening address (issue 11 §3)', () => {
  it('listens on loopback only unless HOST says otherwise', () => {
    expect(loadServerConfig({}).host).toBe('127.0.0.1');
    expect(loadServerConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});

describe('AUTH_SECRET in production (issue 11 §3)', () => {
  it('refuses to start without it, naming the setting in one line', () => {
    for (const env of [{ APP_ENV: 'production' }, { NODE_ENV: 'production' }]) {
      expect(() => loadServerConfig(env)).toThrow(
        /^Invalid configuration: AUTH_SECRET must be set in production: set it to a long random string, e\.g\. the output of `openssl rand -base64 32` \(APP_ENV=production\)$/,
      );
    }
    expect(() => loadServerConfig({ APP_ENV: 'staging' })).toThrow(/AUTH_SECRET must be set in staging/);
    expect(() => loadServerConfig({ APP_ENV: 'production', AUTH_SECRET: '   ' })).toThrow(
      /AUTH_SECRET must be set in production/,
    );
  });

  it('refuses the example value from .env.example', () => {
    const example = /^#?\s*AUTH_SECRET=(.+)$/m.exec(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../.env.example'), 'utf8'),
    )?.[1];
    expect(example).toBe(AUTH_SECRET_EXAMPLE);
    expect(() => loadServerConfig({ APP_ENV: 'production', AUTH_SECRET: example })).toThrow(
      /^Invalid configuration: AUTH_SECRET is still the example value from \.env\.example/,
    );
    // The development fallback in auth.ts is public too.
    expect(() =>
      loadServerConfig({
        APP_ENV: 'production',
        AUTH_SECRET: 'kontor-development-secret-change-me-in-production-0123456789',
      }),
    ).toThrow(/AUTH_SECRET is still the example value/);
  });

  it('refuses a short one and accepts a long random one', () => {
    expect(() => loadServerConfig({ APP_ENV: 'production', AUTH_SECRET: 'hunter2hunter2' })).toThrow(
      /^Invalid configuration: AUTH_SECRET is too short \(14 characters, at least 32\)/,
    );
    expect(loadServerConfig({ APP_ENV: 'production', AUTH_SECRET: SECRET }).authSecret).toBe(SECRET);
  });

  it('is optional in development and test', () => {
    expect(loadServerConfig({}).authSecret).toBeNull();
    expect(loadServerConfig({ APP_ENV: 'test' }).authSecret).toBeNull();
  });
});

describe('trusted origins (issue 11 §4)', () => {
  it('trusts only PUBLIC_URL and CORS_ORIGINS in production', () => {
    const config = loadServerConfig({
      APP_ENV: 'production',
      AUTH_SECRET: SECRET,
      PUBLIC_URL: 'https://books.acme.org/',
      CORS_ORIGINS: 'https://admin.acme.org, https://x.acme.org/path',
      HOST: '0.0.0.0',
    });
    expect(config.trustedOrigins.sort()).toEqual(
      ['https://books.acme.org', 'https://admin.acme.org', 'https://x.acme.org'].sort(),
    );
  });

  it('trusts the loopback addresses on the port and on the Vite port in development', () => {
    const config = loadServerConfig({ PORT: '4100' });
    for (const origin of [
      'http://localhost:4100',
      'http://127.0.0.1:4100',
      'http://[::1]:4100',
      'http://localhost:5173',
      'http://127.0.0.1:5173',
    ]) {
      expect(config.trustedOrigins).toContain(origin);
    }
    expect(config.trustedOrigins.some((o) => o.endsWith(':3000'))).toBe(false);
  });

  it("adds the machine's network addresses only when HOST exposes it", () => {
    const lan = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    const local = loadServerConfig({ PORT: '4100' });
    const exposed = loadServerConfig({ PORT: '4100', HOST: '0.0.0.0' });
    expect(exposed.trustedOrigins).toContain(`http://${os.hostname().toLowerCase()}:4100`);
    expect(local.trustedOrigins).not.toContain(`http://${os.hostname().toLowerCase()}:4100`);
    if (lan) {
      expect(exposed.trustedOrigins).toContain(`http://${lan.address}:4100`);
      expect(local.trustedOrigins).not.toContain(`http://${lan.address}:4100`);
    }
    expect(loadServerConfig({ PORT: '4100', HOST: '192.168.7.7' }).trustedOrigins).toContain(
      'http://192.168.7.7:4100',
    );
  });
});

describe('global API rate limit settings', () => {
  it('keeps SPEC section 9 cap per address and gives signed-in sessions more', () => {
    expect(loadServerConfig({ APP_ENV: 'production', AUTH_SECRET: SECRET }).apiRateLimit).toEqual({
      perSession: 1200,
      perAddress: 100,
    });
    expect(loadServerConfig({ APP_ENV: 'test' }).apiRateLimit).toBeNull();
    expect(
      loadServerConfig({ APP_ENV: 'test', API_LIMIT_PER_MINUTE: '5', API_ANONYMOUS_LIMIT_PER_MINUTE: '3' })
        .apiRateLimit,
    ).toEqual({ perSession: 5, perAddress: 3 });
    expect(() => loadServerConfig({ API_LIMIT_PER_MINUTE: '0' })).toThrow(
      'Invalid configuration: API_LIMIT_PER_MINUTE must be a whole number from 1 to 1000000 (got "0")',
    );
  });
});

describe('Plaid settings (issue 18)', () => {
  const keys = { PLAID_CLIENT_ID: 'client-id-1', PLAID_SECRET: 'secret-1' };

  it('is off (the Demo Bank) without keys, on with both', () => {
    expect(loadServerConfig({}).plaid).toBeNull();
    expect(loadServerConfig({ APP_ENV: 'test', ...keys }).plaid).toEqual({
      clientId: 'client-id-1',
      secret: 'secret-1',
      env: 'sandbox',
      basePath: null,
      countryCodes: ['US'],
      warning: null,
    });
  });

  it('refuses one key without the other, naming both', () => {
    for (const env of [{ PLAID_CLIENT_ID: 'x' }, { PLAID_SECRET: 'y' }])
      expect(() => loadServerConfig(env)).toThrow(
        /^Invalid configuration: PLAID_CLIENT_ID and PLAID_SECRET go together/,
      );
  });

  it('calls the environment PLAID_ENV names; development (retired by Plaid) is sandbox with a warning', () => {
    expect(loadServerConfig({ ...keys, PLAID_ENV: 'sandbox' }).plaid?.env).toBe('sandbox');
    expect(
      loadServerConfig({ ...keys, PLAID_ENV: 'production', APP_ENV: 'production', AUTH_SECRET: SECRET }).plaid
        ?.env,
    ).toBe('production');
    const retired = loadServerConfig({ ...keys, PLAID_ENV: 'development' });
    expect(retired.plaid?.env).toBe('sandbox');
    expect(retired.plaid?.warning).toMatch(/retired its Development environment.*Sandbox/);
    // The SPEC's value stays what the health answer reports.
    expect(retired.app.PLAID_ENV).toBe('development');
  });

  it('takes Link countries from PLAID_COUNTRY_CODES and refuses anything else', () => {
    expect(loadServerConfig({ ...keys, PLAID_COUNTRY_CODES: 'us, ca ,GB' }).plaid?.countryCodes).toEqual([
      'US',
      'CA',
      'GB',
    ]);
    expect(() => loadServerConfig({ ...keys, PLAID_COUNTRY_CODES: 'USA' })).toThrow(
      'Invalid configuration: PLAID_COUNTRY_CODES must be two-letter country codes separated by commas, e.g. US,CA (got "USA")',
    );
  });

  it('takes PLAID_BASE_URL for tests and refuses it in production', () => {
    expect(
      loadServerConfig({ ...keys, APP_ENV: 'test', PLAID_BASE_URL: 'http://127.0.0.1:4010/' }).plaid
        ?.basePath,
    ).toBe('http://127.0.0.1:4010');
    expect(() =>
      loadServerConfig({ ...keys, APP_ENV: 'production', AUTH_SECRET: SECRET, PLAID_BASE_URL: 'http://x:1' }),
    ).toThrow(/^Invalid configuration: PLAID_BASE_URL is for tests only and is refused in production/);
    expect(() =>
      loadServerConfig({ ...keys, APP_ENV: 'test', PLAID_ENV: 'production', PLAID_BASE_URL: 'http://x:1' }),
    ).toThrow(/PLAID_BASE_URL is for tests only/);
    expect(() => loadServerConfig({ ...keys, PLAID_BASE_URL: 'not a url' })).toThrow(
      /^Invalid configuration: PLAID_BASE_URL must be a URL/,
    );
  });
});
