import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './ssrf.ts';

// One webhook request: a POST of the JSON body, answered within DELIVERY_TIMEOUT_MS. When the
// SSRF check resolved the host (a deployed server), the connection goes to that very address
// (`lookup` pinned), so the checked address is the one used. The answer's body is read up to
// RESPONSE_READ_LIMIT bytes; the delivery log keeps its first RESPONSE_KEPT_BYTES.

export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_READ_LIMIT = 64 * 1024;
export const RESPONSE_KEPT_BYTES = 4 * 1024;

export type HttpAnswer = {
  status: number;
  headers: Record<string, string>;
  body: string;
};

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else callback(null, address, family);
  };

const headerText = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(', ') : (value ?? '');

export const postJson = (
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<HttpAnswer> =>
  new Promise((resolve, reject) => {
    const { url } = target;
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
        ...(target.address && target.family ? { lookup: pinnedLookup(target.address, target.family) } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_READ_LIMIT) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_READ_LIMIT) response.destroy();
        });
        const done = () => {
          clearTimeout(overall);
          const answerHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers))
            answerHeaders[name] = headerText(value);
          resolve({
            status: response.statusCode ?? 0,
            headers: answerHeaders,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_KEPT_BYTES).toString('utf8'),
          });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    // The whole exchange, not only an idle socket, must end within the timeout.
    const overall = setTimeout(
      () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error) => {
      clearTimeout(overall);
      reject(error);
    });
    request.end(body);
  });
