#!/usr/bin/env node
// `minio server DIR` as compose.yaml runs it, answered by s3rver (the S3 REST API over a
// directory): port 9000, the access key MINIO_ROOT_USER with the secret MINIO_ROOT_PASSWORD
// (s3rver refuses an unknown key, but does not verify a V4 request's signature). Each request
// is logged with the address it came from (`s3 PUT /parla/… 200 from 10.89.0.7`), so the compose
// test can tell which container stored an object. Test infrastructure (docs/decisions/050).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver');
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account');

const [command, directory] = process.argv.slice(2);
if (command !== 'server' || !directory) {
  console.error('usage: minio server DIR');
  process.exit(2);
}
const user = process.env.MINIO_ROOT_USER;
const password = process.env.MINIO_ROOT_PASSWORD;
if (!user || !password) {
  console.error('minio: set MINIO_ROOT_USER and MINIO_ROOT_PASSWORD');
  process.exit(2);
}
DUMMY_ACCOUNT.createKeyPair(user, password);

// Path-style only: the store is reached by its service name (minio:9000), not a bucket's.
const server = new S3rver({
  address: '0.0.0.0',
  port: 9000,
  directory,
  silent: true,
  vhostBuckets: false,
});
// First in the chain (Koa composes it when the server starts listening).
server.middleware.unshift(async (ctx, next) => {
  try {
    await next();
  } finally {
    console.info(
      `s3 ${ctx.method} ${ctx.path} ${ctx.status} from ${ctx.ip.replace(/^::ffff:/, '')}`,
    );
  }
});
await server.run();
console.info(`s3: serving ${directory} on port 9000`);
const stop = () => server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
