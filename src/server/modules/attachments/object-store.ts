import type { S3Client } from '@aws-sdk/client-s3';
import { AppError } from '../../../shared/errors.ts';
import type { S3Settings, ServerConfig } from '../../config.ts';

// The object-store seam of the attachment module (decision 0043): put, get and delete bytes by
// key. With S3_BUCKET set, new attachments' bytes go to an S3-compatible bucket (AWS S3, MinIO,
// Cloudflare R2, …) through `@aws-sdk/client-s3`; without it there is no object store and the
// bytes stay in the database (store.ts). Keys are `<S3_PREFIX><organization_id>/<owner>/<id>`:
// the company first (an erasure or a move is one prefix), never a file name.

export type ObjectStore = {
  /** Where keys start (S3_PREFIX, '' or ending in '/'). */
  prefix: string;
  put: (key: string, data: Buffer, contentType: string) => Promise<void>;
  /** The object's bytes, or null when there is no such object. */
  get: (key: string) => Promise<Buffer | null>;
  /** Deletes the object; deleting one that is not there is no error. */
  delete: (key: string) => Promise<void>;
};

type S3Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<S3Sdk> | null = null;
let loadedSdk: S3Sdk | null = null;

/**
 * The AWS SDK's S3 client, imported when first used: without S3_BUCKET it is never needed, and
 * with it a start does not pay for loading it (issue 20 §6, docs/performance.md).
 */
const s3Sdk = () => {
  sdk ??= import('@aws-sdk/client-s3').then((module) => {
    loadedSdk = module;
    return module;
  });
  return sdk;
};

/** Which store failed and how (the SDK's error name or code), for the answer's details. */
const causeOf = (error: unknown) => {
  // Only an S3 call makes an S3ServiceException, and it needs the SDK loaded first.
  if (loadedSdk && error instanceof loadedSdk.S3ServiceException)
    return `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'})`;
  const e = error as { code?: unknown; name?: unknown };
  return typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'unknown';
};

/**
 * The store could not be reached or refused the server (its keys, its bucket): a fault on the
 * server's side, not the request's, answered as billing does when Stripe is down — 503 with a
 * code of its own and nothing changed.
 */
export const storageUnavailable = (error?: unknown, doing = 'store the file') =>
  new AppError(
    503,
    'storage_unavailable',
    `The file storage could not be reached, so Kontor could not ${doing}. Nothing was changed; please try again in a minute.`,
    error === undefined ? undefined : { cause: causeOf(error) },
  );

/** The S3 implementation, on the real SDK. */
export const createS3ObjectStore = (settings: S3Settings): ObjectStore => {
  let connecting: Promise<{ s3: S3Sdk; client: S3Client }> | null = null;
  const connect = () => {
    connecting ??= s3Sdk().then((s3) => ({ s3, client: newClient(s3) }));
    return connecting;
  };
  const newClient = ({ S3Client }: S3Sdk) =>
    new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // Checksums only where the API requires them (PutObject, GetObject and DeleteObject do
      // not): the SDK then sends a plain body with its length instead of an aws-chunked body with
      // a CRC trailer, which some S3-compatible stores (older MinIO, R2) do not take. The bytes'
      // SHA-256 is kept in the row and a downloaded file is sniffed again on the way out.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
    });
  const bucket = settings.bucket;
  return {
    prefix: settings.prefix,
    put: async (key, data, contentType) => {
      const { s3, client } = await connect();
      await client.send(
        new s3.PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: data,
          ContentLength: data.length,
          ContentType: contentType,
        }),
      );
    },
    get: async (key) => {
      const { s3, client } = await connect();
      try {
        const out = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!out.Body) return Buffer.alloc(0);
        return Buffer.from(await out.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof s3.NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    delete: async (key) => {
      const { s3, client } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
};

// One client per server configuration (the SDK keeps its connections in it).
const stores = new WeakMap<S3Settings, ObjectStore>();

/** The configured object store, or null when attachments stay in the database. */
export const objectStoreOf = (config: Pick<ServerConfig, 's3'>): ObjectStore | null => {
  if (!config.s3) return null;
  let store = stores.get(config.s3);
  if (!store) {
    store = createS3ObjectStore(config.s3);
    stores.set(config.s3, store);
  }
  return store;
};

export type ObjectOwner = 'journal_entry' | 'bank_transaction' | 'bill';

/** An attachment's key: the company, the kind of owner, the attachment's id; no file name. */
export const objectKey = (prefix: string, organizationId: string, owner: ObjectOwner, id: string) =>
  `${prefix}${organizationId}/${owner}/${id}`;

/** The company, owner kind and attachment id a key names (the prefix may hold slashes). */
export const parseObjectKey = (key: string) => {
  const parts = key.split('/');
  if (parts.length < 3) return null;
  const [organizationId, owner, id] = parts.slice(-3) as [string, string, string];
  return { organizationId, owner, id };
};
