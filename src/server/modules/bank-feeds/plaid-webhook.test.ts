import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePlaid, startFakePlaid } from '../../testing/fake-plaid.ts';
import { fetchPlaidWebhookKey } from './plaid-provider.ts';
import { MAX_WEBHOOK_AGE_SECONDS, createPlaidKeyCache, verifyPlaidWebhook } from './plaid-webhook.ts';

// The Plaid-Verification check (issue 18 §3) on its own: webhooks the fake Plaid signs as Plaid
// does pass; every forgery is refused with its own code — a missing or malformed header, alg
// none or HS256, a forged signature, a key Plaid never published or has retired, a stale or
// future iat, a body other than the one signed. The key cache asks Plaid once per key id.

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('verifyPlaidWebhook', () => {
  let plaid: FakePlaid;
  let cache: ReturnType<typeof createPlaidKeyCache>;
  const now = new Date('2026-11-28T10:00:00Z');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const body = { webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: 'item-1' };

  beforeAll(async () => {
    plaid = await startFakePlaid({ now: () => now });
    cache = createPlaidKeyCache(
      (kid) => fetchPlaidWebhookKey(plaid.settings, kid),
      () => now,
    );
  });
  afterAll(async () => {
    await plaid?.close();
  });

  const verify = (payload: string | Buffer, header: string | string[] | undefined) =>
    verifyPlaidWebhook({
      rawBody: Buffer.isBuffer(payload) ? payload : Buffer.from(payload),
      header,
      getKey: cache.getKey,
      now,
    });

  const refusal = async (payload: string, header: string | string[] | undefined) => {
    const error = (await verify(payload, header).then(
      () => null,
      (e: unknown) => e,
    )) as { status: number; code: string } | null;
    expect(error, 'the webhook was accepted').not.toBeNull();
    return { status: error!.status, code: error!.code };
  };

  it('accepts a webhook Plaid signed, the body byte for byte (JSON indented by two spaces)', async () => {
    const hook = await plaid.signedWebhook(body);
    expect(hook.payload).toContain('\n  "webhook_type"');
    await expect(verify(hook.payload, hook.headers['plaid-verification'])).resolves.toBeUndefined();
    // iat exactly 5 minutes old is still inside the window.
    const edge = await plaid.signedWebhook(body, { iat: nowSeconds - MAX_WEBHOOK_AGE_SECONDS });
    await expect(verify(edge.payload, edge.headers['plaid-verification'])).resolves.toBeUndefined();
  });

  it('refuses a missing or malformed header with 400', async () => {
    const hook = await plaid.signedWebhook(body);
    const jwt = hook.headers['plaid-verification']!;
    expect(await refusal(hook.payload, undefined)).toEqual({
      status: 400,
      code: 'plaid_verification_missing',
    });
    expect(await refusal(hook.payload, '')).toEqual({ status: 400, code: 'plaid_verification_missing' });
    expect(await refusal(hook.payload, [jwt, jwt])).toEqual({
      status: 400,
      code: 'plaid_verification_missing',
    });
    expect(await refusal(hook.payload, 'not-a-jwt')).toEqual({
      status: 400,
      code: 'plaid_verification_malformed',
    });
    expect(
      await refusal(hook.payload, `${base64url({ alg: 'ES256' })}.${jwt.split('.')[1]}.${jwt.split('.')[2]}`),
    ).toEqual({
      status: 400,
      code: 'plaid_verification_malformed',
    });
  });

  it('refuses alg none and HS256 before fetching any key', async () => {
    const hook = await plaid.signedWebhook(body);
    const [, claims] = hook.headers['plaid-verification']!.split('.');
    const fetched = plaid.requestsTo('/webhook_verification_key/get').length;
    const none = `${base64url({ alg: 'none', kid: plaid.currentKeyId(), typ: 'JWT' })}.${claims}.`;
    expect(await refusal(hook.payload, none)).toEqual({ status: 401, code: 'plaid_verification_algorithm' });
    const hs256 = `${base64url({ alg: 'HS256', kid: plaid.currentKeyId(), typ: 'JWT' })}.${claims}.c2lnbmF0dXJl`;
    expect(await refusal(hook.payload, hs256)).toEqual({ status: 401, code: 'plaid_verification_algorithm' });
    expect(plaid.requestsTo('/webhook_verification_key/get').length).toBe(fetched);
  });

  it('refuses a forged signature: altered bytes, or a key Plaid never published under its key id', async () => {
    const hook = await plaid.signedWebhook(body);
    const [head, claims, signature] = hook.headers['plaid-verification']!.split('.');
    const bytes = Buffer.from(signature!, 'base64url');
    bytes[5] = bytes[5]! ^ 0xff;
    expect(await refusal(hook.payload, `${head}.${claims}.${bytes.toString('base64url')}`)).toEqual({
      status: 401,
      code: 'plaid_verification_signature',
    });
    // Claims swapped for others (a body hash of the forger's choosing) under the genuine signature.
    const forgedClaims = base64url({ iat: nowSeconds, request_body_sha256: 'a'.repeat(64) });
    expect(await refusal(hook.payload, `${head}.${forgedClaims}.${signature}`)).toEqual({
      status: 401,
      code: 'plaid_verification_signature',
    });
    const foreign = await plaid.signedWebhook(body, { foreignKey: true });
    expect(await refusal(foreign.payload, foreign.headers['plaid-verification'])).toEqual({
      status: 401,
      code: 'plaid_verification_signature',
    });
  });

  it('refuses a key id Plaid does not know', async () => {
    const hook = await plaid.signedWebhook(body, { kid: 'made-up-key' });
    expect(await refusal(hook.payload, hook.headers['plaid-verification'])).toEqual({
      status: 401,
      code: 'plaid_verification_key',
    });
  });

  it('refuses an iat more than 5 minutes old or ahead', async () => {
    for (const iat of [
      nowSeconds - MAX_WEBHOOK_AGE_SECONDS - 1,
      nowSeconds - 3600,
      nowSeconds + MAX_WEBHOOK_AGE_SECONDS + 1,
    ]) {
      const hook = await plaid.signedWebhook(body, { iat });
      expect(await refusal(hook.payload, hook.headers['plaid-verification'])).toEqual({
        status: 401,
        code: 'plaid_verification_stale',
      });
    }
  });

  it('refuses a body other than the one signed, by a single byte or by whitespace', async () => {
    const hook = await plaid.signedWebhook(body);
    const jwt = hook.headers['plaid-verification'];
    expect(await refusal(hook.payload.replace('item-1', 'item-2'), jwt)).toEqual({
      status: 401,
      code: 'plaid_verification_body',
    });
    expect(await refusal(JSON.stringify(body), jwt)).toEqual({
      status: 401,
      code: 'plaid_verification_body',
    });
    const junkHash = await plaid.signedWebhook(body, { bodyHash: 'not-hex' });
    expect(await refusal(junkHash.payload, junkHash.headers['plaid-verification'])).toEqual({
      status: 401,
      code: 'plaid_verification_body',
    });
  });
});

describe('the key cache', () => {
  let plaid: FakePlaid;
  let clock = new Date('2026-11-28T10:00:00Z');

  beforeAll(async () => {
    plaid = await startFakePlaid({ now: () => clock });
  });
  afterAll(async () => {
    await plaid?.close();
  });

  const fetches = () => plaid.requestsTo('/webhook_verification_key/get').length;

  it('asks Plaid once per key id, and once a minute at most for an id Plaid does not know', async () => {
    const cache = createPlaidKeyCache(
      (kid) => fetchPlaidWebhookKey(plaid.settings, kid),
      () => clock,
    );
    const start = fetches();
    const kid = plaid.currentKeyId();
    const [a, b] = await Promise.all([cache.getKey(kid), cache.getKey(kid)]);
    expect(a).toEqual(b);
    await cache.getKey(kid);
    expect(fetches() - start).toBe(1);
    expect(await cache.getKey('bogus')).toBeNull();
    expect(await cache.getKey('bogus')).toBeNull();
    expect(fetches() - start).toBe(2);
    clock = new Date(clock.getTime() + 61_000);
    expect(await cache.getKey('bogus')).toBeNull();
    expect(fetches() - start).toBe(3);
  });

  it('learns a rotation: the new key is fetched, the old one fetched again and refused once expired', async () => {
    const cache = createPlaidKeyCache(
      (kid) => fetchPlaidWebhookKey(plaid.settings, kid),
      () => clock,
    );
    const body = { webhook_type: 'ITEM', webhook_code: 'ERROR', item_id: 'item-9' };
    const old = await plaid.signedWebhook(body);
    const check = (hook: { payload: string; headers: Record<string, string> }) =>
      verifyPlaidWebhook({
        rawBody: Buffer.from(hook.payload),
        header: hook.headers['plaid-verification'],
        getKey: cache.getKey,
        now: clock,
      });
    await expect(check(old)).resolves.toBeUndefined();
    const oldKid = plaid.currentKeyId();
    clock = new Date(clock.getTime() + 1000);
    const newKid = await plaid.rotateWebhookKey();
    clock = new Date(clock.getTime() + 1000);
    // Still cached as unexpired: the old key verifies until a new id shows the rotation.
    await expect(check(old)).resolves.toBeUndefined();
    await expect(check(await plaid.signedWebhook(body))).resolves.toBeUndefined();
    expect(cache.keys.get(newKid)?.expired_at).toBeNull();
    expect(cache.keys.get(oldKid)?.expired_at).not.toBeNull();
    await expect(check(old)).rejects.toMatchObject({ status: 401, code: 'plaid_verification_key_expired' });
  });
});
