import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for an S3-compatible object store (issue 20 §1: tests drive the real
// `@aws-sdk/client-s3` with no network). It answers path-style PutObject, GetObject,
// HeadObject and DeleteObject on one bucket, keeps objects in memory, checks that each request
// is signed (AWS Signature V4 with the configured access key id; the signature itself is not
// recomputed) and decodes `aws-chunked` bodies in case an SDK sends one. S3's XML errors:
// NoSuchKey, NoSuchBucket, InvalidAccessKeyId. `outage` makes it answer 503 (all requests, or
// only one kind) to play an unreachable store; `close()` makes the port refuse connections.
//
// Start it with `const s3 = await startFakeS3()`, hand `s3.env` to createTestApp, and
// `await s3.close()` after.

export type FakeS3Object = { data: Buffer; contentType: string; etag: string; lastModified: Date };
export type FakeS3Operation = 'put' | 'get' | 'head' | 'delete';

export type FakeS3 = {
  url: string;
  bucket: string;
  /** The environment a server needs to use this store (S3_*). */
  env: Record<string, string>;
  objects: Map<string, FakeS3Object>;
  /** Every request answered, in order: the operation and the key. */
  requests: { operation: FakeS3Operation | 'other'; key: string }[];
  /** Answer 503 to every request (true) or to the listed operations; false for normal service. */
  outage: boolean | FakeS3Operation[];
  close: () => Promise<void>;
};

const ACCESS_KEY_ID = 'fake-s3-access-key';
const SECRET_ACCESS_KEY = 'fake-s3-secret-key-0123456789';

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

const errorXml = (code: string, message: string, resource: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>fake</RequestId></Error>`;

/** The payload of an `aws-chunked` body: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n`… until size 0. */
const decodeAwsChunked = (body: Buffer): Buffer => {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const end = body.indexOf('\r\n', at);
    if (end < 0) break;
    const size = Number.parseInt(body.subarray(at, end).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
};

const operationOf = (method: string | undefined): FakeS3Operation | 'other' =>
  method === 'PUT'
    ? 'put'
    : method === 'GET'
      ? 'get'
      : method === 'HEAD'
        ? 'head'
        : method === 'DELETE'
          ? 'delete'
          : 'other';

export const startFakeS3 = async (options: { bucket?: string; prefix?: string } = {}): Promise<FakeS3> => {
  const bucket = options.bucket ?? 'kontor-test';
  const objects = new Map<string, FakeS3Object>();
  const requests: FakeS3['requests'] = [];
  const state = { outage: false as FakeS3['outage'] };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake-s3');
      const [, bucketPart = '', ...keyParts] = url.pathname.split('/');
      const key = keyParts.map((p) => decodeURIComponent(p)).join('/');
      const operation = operationOf(req.method);
      requests.push({ operation, key });
      const send = (status: number, headers: Record<string, string | number>, body?: Buffer | string) => {
        res.writeHead(status, headers);
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      const fail = (status: number, code: string, message: string) =>
        send(status, { 'content-type': 'application/xml' }, errorXml(code, message, url.pathname));

      if (
        state.outage === true ||
        (Array.isArray(state.outage) && operation !== 'other' && state.outage.includes(operation))
      )
        return fail(503, 'ServiceUnavailable', 'The fake store is down (outage).');
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('AWS4-HMAC-SHA256 ') || !auth.includes(`Credential=${ACCESS_KEY_ID}/`))
        return fail(
          403,
          'InvalidAccessKeyId',
          'The AWS Access Key Id you provided does not exist in our records.',
        );
      if (decodeURIComponent(bucketPart) !== bucket)
        return fail(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (key === '') return fail(501, 'NotImplemented', 'Only object operations are implemented.');

      if (operation === 'put') {
        let data: Buffer = Buffer.concat(chunks);
        const encoding = String(req.headers['content-encoding'] ?? '');
        if (
          encoding.includes('aws-chunked') ||
          String(req.headers['x-amz-content-sha256']).startsWith('STREAMING-')
        )
          data = decodeAwsChunked(data);
        const etag = `"${createHash('md5').update(data).digest('hex')}"`;
        objects.set(key, {
          data,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          etag,
          lastModified: new Date(),
        });
        return send(200, { etag, 'content-length': 0 });
      }
      if (operation === 'get' || operation === 'head') {
        const object = objects.get(key);
        if (!object) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
        return send(
          200,
          {
            'content-type': object.contentType,
            'content-length': object.data.length,
            etag: object.etag,
            'last-modified': object.lastModified.toUTCString(),
          },
          object.data,
        );
      }
      if (operation === 'delete') {
        objects.delete(key);
        return send(204, {});
      }
      return fail(501, 'NotImplemented', `${req.method} is not implemented by the fake store.`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: url,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      ...(options.prefix !== undefined ? { S3_PREFIX: options.prefix } : {}),
    },
    objects,
    requests,
    get outage() {
      return state.outage;
    },
    set outage(value) {
      state.outage = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
