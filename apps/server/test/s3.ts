import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed credentials: it checks request signatures with them, as S3 does. */
const CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * A real S3-compatible server (s3rver: the S3 REST API over a directory) on a free loopback
 * port, with one empty bucket. `env` is what a server needs to use it (config.ts S3_*).
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
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    bucket,
    endpoint,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      ...CREDENTIALS,
    },
    options: {
      bucket,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: {
        accessKeyId: CREDENTIALS.S3_ACCESS_KEY_ID,
        secretAccessKey: CREDENTIALS.S3_SECRET_ACCESS_KEY,
      },
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
