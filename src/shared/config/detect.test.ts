import { describe, expect, it, vi } from 'vitest';
import { createEnvironmentDetector, detectEnvironmentUncached, environmentSwitchUrl } from './detect.ts';

const detect = (hostname: string | null, search = '') =>
  detectEnvironmentUncached({ hostname, productionDomain: 'kontor.example.com', search });

describe('environment detection from the host name', () => {
  it.each([
    ['localhost', 'development'],
    ['127.0.0.1', 'development'],
    ['192.168.1.20', 'development'],
    ['[::1]', 'development'],
    ['kontor.example.com', 'production'],
    ['www.kontor.example.com', 'production'],
    ['staging.kontor.io', 'staging'],
    ['kontor-dev.internal', 'staging'],
    ['test-env.acme.org', 'staging'],
    ['kontor.vercel.app', 'production'],
    ['kontor.netlify.app', 'production'],
    ['kontor.fly.dev', 'production'],
    ['kontor-staging.vercel.app', 'staging'],
    ['books.acme.org', 'production'],
  ])('%s means %s', (host, env) => {
    expect(detect(host)).toBe(env);
  });

  it('means production outside a browser', () => {
    expect(detect(null)).toBe('production');
  });

  it('takes an env query parameter naming one of the four environments', () => {
    expect(detect('localhost', '?env=staging')).toBe('staging');
    expect(detect('kontor.example.com', '?env=test')).toBe('test');
    expect(detect('localhost', '?env=nonsense')).toBe('development');
  });
});

describe('detection cache', () => {
  it('keeps a result for 60 s, then detects again', () => {
    let t = 0;
    const detector = createEnvironmentDetector(() => t);
    const input = { hostname: 'localhost' };
    expect(detector.detect(input)).toBe('development');
    // Same input within the window answers from the cache, even when detection would now differ.
    const spy = vi.fn();
    t = 59_999;
    expect(detector.detect(input)).toBe('development');
    t = 60_000;
    expect(detector.detect({ hostname: 'localhost' })).toBe('development');
    expect(spy).not.toHaveBeenCalled();
  });

  /** A localhost input that records each read of its hostname in `calls`. */
  const countedLocalhost = () => {
    const calls: string[] = [];
    const input = {
      get hostname() {
        calls.push('read');
        return 'localhost';
      },
    };
    return { calls, input };
  };

  it('answers from the cache inside the window and re-detects after it', () => {
    let t = 1000;
    const detector = createEnvironmentDetector(() => t);
    const { calls, input: hostInput } = countedLocalhost();
    detector.detect(hostInput);
    const readsAfterFirst = calls.length;
    t += 30_000;
    detector.detect(hostInput);
    // The key is built from the input, but detection itself must not run again.
    const readsAfterSecond = calls.length;
    t += 31_000;
    detector.detect(hostInput);
    expect(readsAfterSecond - readsAfterFirst).toBe(1); // key only
    expect(calls.length - readsAfterSecond).toBe(2); // key + detection
  });

  it('force-refresh and clearCache drop the cached result', () => {
    const t = 0;
    const detector = createEnvironmentDetector(() => t);
    const { calls, input } = countedLocalhost();
    detector.detect(input);
    const before = calls.length;
    detector.forceRefresh(input);
    expect(calls.length - before).toBe(2);
    detector.clearCache();
    const beforeClear = calls.length;
    detector.detect(input);
    expect(calls.length - beforeClear).toBe(2);
  });
});

describe('switching environment', () => {
  it('reloads with the env query parameter', () => {
    expect(environmentSwitchUrl('http://localhost:3000/dashboard?x=1', 'staging')).toBe(
      'http://localhost:3000/dashboard?x=1&env=staging',
    );
  });

  it("logs 'Invalid environment' for an unknown name and does not switch", () => {
    const log = vi.fn();
    expect(environmentSwitchUrl('http://localhost:3000/', 'qa', log)).toBeNull();
    expect(log).toHaveBeenCalledWith('Invalid environment');
  });
});
