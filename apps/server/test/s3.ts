import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import S3rver from 's3rver';

/** s3rver's fixed credentials. */
const CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
const REGION = 'us-east-1';

/** SHA-256 (with a key: HMAC-SHA-256) as the signer asks for it, from node:crypto. */
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

class Sha256 {
  readonly #hash;
  constructor(secret?: SourceData) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData) {
    this.#hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.#hash.digest());
  }
}

const signer = new SignatureV4({
  credentials: {
    accessKeyId: CREDENTIALS.S3_ACCESS_KEY_ID,
    secretAccessKey: CREDENTIALS.S3_SECRET_ACCESS_KEY,
  },
  region: REGION,
  service: 's3',
  sha256: Sha256,
  // S3's own rules, as its SDK signs: the path as sent, the payload hash from its header.
  uriEscapePath: false,
  applyChecksum: false,
});

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Whether a request carries S3's Signature Version 4 of these credentials (the Authorization
 * header form), recomputed with the SDK's own signer over the headers the request signed.
 */
async function signedWell(request: http.IncomingMessage): Promise<boolean> {
  const match = AUTHORIZATION.exec(request.headers.authorization ?? '');
  const amzDate = request.headers['x-amz-date'];
  if (!match || typeof amzDate !== 'string') return false;
  const [, keyId, , region, signedHeaders, signature] = match;
  if (keyId !== CREDENTIALS.S3_ACCESS_KEY_ID || region !== REGION) return false;
  const url = new URL(request.url ?? '/', 'http://s3.invalid');
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const had = query[key];
    query[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders?.split(';') ?? []) {
    const value = request.headers[name];
    if (value === undefined) return false;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const signingDate = new Date(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  const signed = await signer.sign(
    {
      method: request.method ?? 'GET',
      protocol: 'http:',
      hostname: String(request.headers.host ?? '').split(':')[0] ?? '',
      path: url.pathname,
      query,
      headers,
    },
    { signingDate },
  );
  return String(signed.headers.authorization).endsWith(`Signature=${signature}`);
}

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your key and signing method.';

/**
 * A real S3-compatible server (s3rver: the S3 REST API over a directory) on a free loopback
 * port, with one empty bucket, behind a front that answers as S3 does where s3rver does not:
 * every request's Signature Version 4 is checked (s3rver checks only the access key id), a
 * wrong one 403 SignatureDoesNotMatch; a body shorter than its Content-Length (400
 * IncompleteBody) or unlike its signed hash (400 XAmzContentSHA256Mismatch) stores nothing. `env` is what a server needs to use it (config.ts S3_*).
 */
export async function startS3(bucket = 'parla-test') {
  const directory = mkdtempSync(path.join(tmpdir(), 'parla-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const backend = await server.run();
  const front = http.createServer(async (request, response) => {
    const refuse = (status: number, code: string, message: string) =>
      response
        .writeHead(status, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
        );
    try {
      // The whole body first, as S3 takes it: a request that breaks off stores nothing.
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (!(await signedWell(request))) {
        return refuse(403, 'SignatureDoesNotMatch', SIGNATURE_MISMATCH);
      }
      const declared = request.headers['content-length'];
      if (declared !== undefined && Number(declared) !== body.length) {
        return refuse(
          400,
          'IncompleteBody',
          'You did not provide the number of bytes specified by the Content-Length HTTP header.',
        );
      }
      const payloadHash = request.headers['x-amz-content-sha256'];
      if (
        typeof payloadHash === 'string' &&
        /^[0-9a-f]{64}$/.test(payloadHash) &&
        createHash('sha256').update(body).digest('hex') !== payloadHash
      ) {
        return refuse(
          400,
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        );
      }
      const forward = http.request(
        {
          host: '127.0.0.1',
          port: backend.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', () => response.destroy());
      forward.end(body);
    } catch {
      response.destroy();
    }
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    bucket,
    endpoint,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_FORCE_PATH_STYLE: 'true',
      ...CREDENTIALS,
    },
    options: {
      bucket,
      endpoint,
      region: REGION,
      forcePathStyle: true,
      credentials: {
        accessKeyId: CREDENTIALS.S3_ACCESS_KEY_ID,
        secretAccessKey: CREDENTIALS.S3_SECRET_ACCESS_KEY,
      },
    },
    async close() {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
