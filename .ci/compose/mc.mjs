#!/usr/bin/env node
// The two commands of the MinIO client that compose.yaml uses, against any S3 endpoint:
//   mc ready ALIAS                       exits 0 once the store answers (`local`: this host)
//   mc mb [--ignore-existing] ALIAS/BUCKET   creates a bucket
// ALIAS comes from MC_HOST_<alias>=http://KEY:SECRET@host:port, as with mc. Test infrastructure
// (docs/decisions/050).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { CreateBucketCommand, HeadBucketCommand, S3Client } = require('@aws-sdk/client-s3');

/** The alias's URL with its credentials; `local` is the store of this host, as in MinIO's image. */
function hostOf(alias) {
  const host =
    process.env[`MC_HOST_${alias}`] ?? (alias === 'local' && 'http://-:-@127.0.0.1:9000');
  if (!host) throw new Error(`no MC_HOST_${alias}`);
  return new URL(host);
}

function client(alias) {
  const url = hostOf(alias);
  return new S3Client({
    endpoint: url.origin,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: decodeURIComponent(url.username),
      secretAccessKey: decodeURIComponent(url.password),
    },
  });
}

const args = process.argv.slice(2);
const [command] = args;
try {
  if (command === 'ready' && args[1]) {
    const answer = await fetch(hostOf(args[1]).origin);
    process.exit(answer.status < 500 ? 0 : 1);
  } else if (command === 'mb') {
    const target = args.filter((arg) => !arg.startsWith('--'))[1] ?? '';
    const [alias, bucket] = target.split('/');
    const s3 = client(alias);
    const exists = await s3.send(new HeadBucketCommand({ Bucket: bucket })).then(
      () => true,
      (error) => (error.$metadata?.httpStatusCode === 404 ? false : Promise.reject(error)),
    );
    if (exists && !args.includes('--ignore-existing')) throw new Error(`${target} exists`);
    if (!exists) await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    console.info(`Bucket created successfully \`${target}\`.`);
  } else {
    console.error('usage: mc ready ALIAS | mc mb [--ignore-existing] ALIAS/BUCKET');
    process.exit(2);
  }
} catch (error) {
  console.error(`mc: ${error.message}`);
  process.exit(1);
}
