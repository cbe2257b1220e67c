import { describe, expect, it } from 'vitest';
import { authErrorCode, authErrorMessage, untrustedOriginMessage } from './errors.ts';

// Issue 11 §4: a request refused for its origin is explained, not "Authentication failed".
describe('refused origins in the auth error catalogue', () => {
  it("maps the auth library's and the API's refusals to untrusted-origin", () => {
    expect(authErrorCode(403, 'INVALID_ORIGIN')).toBe('untrusted-origin');
    expect(authErrorCode(403, 'MISSING_OR_NULL_ORIGIN')).toBe('untrusted-origin');
    expect(authErrorCode(403, 'untrusted_origin')).toBe('untrusted-origin');
    expect(authErrorMessage('untrusted-origin')).not.toMatch(/Authentication failed/);
  });

  it('names the address the page was opened at and what to do', () => {
    expect(untrustedOriginMessage('http://192.168.1.20:3000')).toBe(
      'This page was opened at http://192.168.1.20:3000, an address the server does not trust, so it refused the request. Open Kontor at the address it is configured with (PUBLIC_URL), or add http://192.168.1.20:3000 to CORS_ORIGINS.',
    );
  });
});
