import { describe, expect, it } from 'vitest';
import { buildConfig, plaidWebhookUrl, validateConfig } from './config.ts';

const valid = { API_URL: 'http://localhost:3000', PLAID_ENV: 'sandbox', ENVIRONMENT: 'development' };

describe('configuration validation (SPEC section 5)', () => {
  it('accepts a complete configuration', () => {
    expect(() => validateConfig(valid)).not.toThrow();
  });

  it.each(['API_URL', 'PLAID_ENV', 'ENVIRONMENT'] as const)('names a missing %s', (key) => {
    expect(() => validateConfig({ ...valid, [key]: undefined })).toThrow(
      `Missing required configuration: ${key}`,
    );
  });

  it('names every missing field at once', () => {
    expect(() => validateConfig({})).toThrow(
      'Missing required configuration: API_URL, PLAID_ENV, ENVIRONMENT',
    );
  });

  it('refuses an API_URL that is not a URL', () => {
    expect(() => validateConfig({ ...valid, API_URL: 'not a url' })).toThrow(
      'Invalid API_URL format: not a url',
    );
    expect(() => validateConfig({ ...valid, API_URL: 'ftp://x.org' })).toThrow(
      'Invalid API_URL format: ftp://x.org',
    );
  });

  it('refuses an unknown PLAID_ENV and lists the allowed ones', () => {
    expect(() => validateConfig({ ...valid, PLAID_ENV: 'live' })).toThrow(
      'Invalid PLAID_ENV: live. Must be one of: sandbox, development, production',
    );
  });
});

describe('buildConfig', () => {
  it('fills every field of the configuration object', () => {
    const config = buildConfig('production', { apiUrl: 'https://books.acme.org' });
    expect(Object.keys(config).sort()).toEqual(
      [
        'API_URL',
        'PLAID_ENV',
        'ENVIRONMENT',
        'DEBUG_MODE',
        'LOGGING_ENABLED',
        'TIMEOUT',
        'RETRY_ATTEMPTS',
        'ENABLE_DEV_TOOLS',
        'MOCK_DATA',
        'PERFORMANCE_MONITORING',
        'CORS_ORIGINS',
        'SECURE_COOKIES',
        'APP_NAME',
        'APP_VERSION',
        'ENVIRONMENT_BADGE',
      ].sort(),
    );
    expect(config).toMatchObject({
      TIMEOUT: 10000,
      RETRY_ATTEMPTS: 3,
      SECURE_COOKIES: true,
      APP_VERSION: '1.0.0',
    });
  });

  it('falls back to the development configuration for an unknown environment', () => {
    const config = buildConfig('qa', { apiUrl: 'http://localhost:3000' });
    expect(config.ENVIRONMENT).toBe('development');
    expect(config.TIMEOUT).toBe(3000);
  });

  it('derives the bank-linking webhook from the API URL', () => {
    expect(plaidWebhookUrl({ API_URL: 'http://localhost:3000' })).toBe(
      'http://localhost:3000/api/plaid/webhook',
    );
  });
});
