import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../../config.ts';

// Access tokens at rest (issue 18 §4): AES-256-GCM with a key from the environment
// (BANK_FEEDS_KEY, 32 bytes base64). Each ciphertext is stored with the id of the key that made
// it (the first 16 hex digits of the key's SHA-256), so after a rotation the old keys
// (BANK_FEEDS_OLD_KEYS) still decrypt the tokens they encrypted, and every sync re-encrypts a
// token under the current key (docs/bank-feeds.md, "Encryption and key rotation").
// Without BANK_FEEDS_KEY: production and staging refuse to start (main.ts); development keeps
// a key generated once in DATA_DIR/bank-feeds.key; tests use one random key per process.

export type Sealed = { ciphertext: string; keyId: string };

export type TokenCipher = {
  keyId: string;
  seal: (plain: string) => Sealed;
  open: (sealed: Sealed) => string;
};

export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

export class TokenKeyMissingError extends Error {}

/** A cipher over the current key (encrypts) and every known key (decrypts). */
export const createTokenCipher = (current: Buffer, old: Buffer[] = []): TokenCipher => {
  const keys = new Map<string, Buffer>();
  for (const k of [current, ...old]) keys.set(keyIdOf(k), k);
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal: (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(keyId));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return {
        ciphertext: `v1.${iv.toString('base64')}.${tag.toString('base64')}.${body.toString('base64')}`,
        keyId,
      };
    },
    open: ({ ciphertext, keyId: id }) => {
      const key = keys.get(id);
      if (!key)
        throw new TokenKeyMissingError(
          `The bank-feed token was encrypted with key ${id}, which is neither BANK_FEEDS_KEY nor in BANK_FEEDS_OLD_KEYS.`,
        );
      const [version, iv, tag, body] = ciphertext.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined)
        throw new Error('Unreadable bank-feed token.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(id));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
};

/** Start-up refusal (main.ts): production and staging must bring their own key. */
export const bankFeedsKeyProblem = (config: ServerConfig): string | null => {
  const environment = config.app.ENVIRONMENT;
  if (config.bankFeeds.key || (environment !== 'production' && environment !== 'staging')) return null;
  return `BANK_FEEDS_KEY must be set in ${environment}: bank access tokens are encrypted with it. Generate one with \`openssl rand -base64 32\` and keep it with your other secrets (docs/bank-feeds.md).`;
};

const ciphers = new WeakMap<ServerConfig, TokenCipher>();
let processTestKey: Buffer | undefined;

export const KEY_FILE = 'bank-feeds.key';

/**
 * The cipher of this server's configuration, made once. `log` is told when a development key
 * is generated into DATA_DIR.
 */
export const tokenCipherOf = (config: ServerConfig, log?: (message: string) => void): TokenCipher => {
  const known = ciphers.get(config);
  if (known) return known;
  let key = config.bankFeeds.key;
  if (!key) {
    const environment = config.app.ENVIRONMENT;
    if (environment === 'production' || environment === 'staging')
      throw new TokenKeyMissingError(bankFeedsKeyProblem(config) ?? 'BANK_FEEDS_KEY is not set.');
    if (environment === 'test') {
      processTestKey ??= randomBytes(32);
      key = processTestKey;
    } else {
      const file = path.join(config.dataDir, KEY_FILE);
      if (fs.existsSync(file)) key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
      else {
        key = randomBytes(32);
        fs.mkdirSync(config.dataDir, { recursive: true });
        fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
        log?.(
          `Bank feeds: BANK_FEEDS_KEY is not set, so a key for encrypting bank access tokens was generated in ${file}. Keep that file (tokens cannot be read without it), or set BANK_FEEDS_KEY to its contents.`,
        );
      }
      if (key.length !== 32) throw new TokenKeyMissingError(`${file} does not hold a 32-byte base64 key.`);
    }
  }
  const cipher = createTokenCipher(key, config.bankFeeds.oldKeys);
  ciphers.set(config, cipher);
  return cipher;
};
