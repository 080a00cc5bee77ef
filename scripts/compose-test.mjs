// The compose step of npm test: runs compose.yaml for real with podman-compose, as an operator
// would (docs/operations.md, "Container image"; docs/decisions/050): Parla, its speech worker,
// PostgreSQL, Redis and an S3-compatible store, each in its container on compose's network.
// It waits for Parla's health and readiness (database, Redis, storage), converts texts through
// the API until the worker service renders one (the S3 store logs where each object came from),
// finds that audio in the store, stops everything with SIGTERM (exit status 0), and after
// `down` and `up` again finds the user created before and the audio in the volumes.
//
// No image registry is reachable in CI: the stores' images are stand-ins built from Debian and
// npm (.ci/compose/), swapped in by .ci/compose/compose.ci.yaml; compose.yaml is unchanged.
// podman-compose 1.0.3 (Debian bookworm) does not wait on depends_on's conditions, so the
// services are brought up in the order those conditions give, each waited for as they say.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { parse } from 'yaml';
import { ROOT } from './lib.mjs';
import {
  baseImage,
  build,
  createUserIn,
  expectUserKept,
  podman,
  pruneImagesBefore,
  sh,
} from './podman.mjs';
import { convert, freePort, waitUntil } from './smoke.mjs';

const PROJECT = 'parla-ci-compose';
const FILES = ['-f', 'compose.yaml', '-f', '.ci/compose/compose.ci.yaml'];
const compose = parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true });
const override = parse(readFileSync(path.join(ROOT, '.ci/compose/compose.ci.yaml'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const versionOf = (name) => lock.packages[`node_modules/${name}`].version;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// What compose.yaml asks the operator for; the stand-in store takes the same credentials.
const variables = {
  JWT_SECRET: randomBytes(32).toString('hex'),
  S3_SECRET_ACCESS_KEY: randomBytes(16).toString('hex'),
  PARLA_PORT: String(port),
};
const environment = compose.services.parla.environment;

const podmanCompose = (args, options) =>
  sh('podman-compose', ['-p', PROJECT, ...FILES, ...args], { extraEnv: variables, ...options });
const container = (service) => `${PROJECT}_${service}_1`;

function step(text) {
  console.info(`[compose] ${text}`);
}

/** Starts services (and, podman-compose being 1.0.3, nothing waits for them: the caller does). */
function up(...services) {
  podmanCompose(['up', '-d', ...services]);
}

const healthy = (service) => async () =>
  podman(['healthcheck', 'run', container(service)], { allowFailure: true }).status === 0;

/** The state podman reports for a service's container: running, exited… and its exit code. */
function state(service) {
  const [status, code] = podman([
    'inspect',
    '--format',
    '{{.State.Status}} {{.State.ExitCode}}',
    container(service),
  ])
    .stdout.trim()
    .split(' ');
  return { status, code: Number(code) };
}

/** The services in the order of compose.yaml's depends_on. */
const STARTING_ORDER = ['postgres', 'redis', 'minio', 'bucket', 'parla', 'worker'];

/** depends_on's conditions, in their order: what `docker compose up -d` waits for by itself. */
async function start() {
  up('postgres', 'redis', 'minio');
  for (const service of ['postgres', 'redis', 'minio']) {
    await waitUntil(`${service}'s health check`, healthy(service), 120);
  }
  up('bucket');
  await waitUntil(
    'the bucket service to finish',
    async () => state('bucket').status === 'exited',
    60,
  );
  const bucket = state('bucket');
  if (bucket.code !== 0) throw new Error(`the bucket service exited with ${bucket.code}`);
  up('parla');
  await waitUntil("Parla's health check", healthy('parla'), 180);
  up('worker');
  await waitUntil(
    'the worker taking requests',
    async () => logs('worker').includes('taking requests from'),
    120,
  );
}

function logs(service) {
  const result = podman(['logs', container(service)], { allowFailure: true });
  return `${result.stdout}${result.stderr}`;
}

function addressOf(service) {
  return podman([
    'inspect',
    '--format',
    '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}',
    container(service),
  ]).stdout.trim();
}

/** The objects the store logged as stored (PUT) from `address`, in its log since `from`. */
function storedFrom(address, from) {
  const bucket = environment.S3_BUCKET;
  return logs('minio')
    .slice(from)
    .split('\n')
    .map((line) => line.match(/^s3 PUT \/([^/ ]+)\/(\S+) 200 from (\S+)$/))
    .filter((match) => match && match[1] === bucket && match[3] === address)
    .map((match) => decodeURIComponent(match[2]));
}

async function readiness() {
  const answer = await fetch(`${base}/api/ready`);
  const ready = await answer.json();
  if (
    answer.status !== 200 ||
    ready.status !== 'ready' ||
    !ready.database ||
    !ready.redis ||
    !ready.storage
  ) {
    throw new Error(`/api/ready answered ${answer.status}: ${JSON.stringify(ready)}`);
  }
  return ready;
}

function removeLeftovers() {
  podmanCompose(['down', '-v', '-t', '0'], { allowFailure: true });
}

const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
let failed = false;
try {
  if (sh('podman-compose', ['version'], { allowFailure: true }).status !== 0) {
    throw new Error('podman-compose is missing (apt-get install podman-compose)');
  }
  removeLeftovers();
  step('base image (node:24-bookworm-slim)');
  baseImage();
  step(`building ${compose.services.parla.image} from the Dockerfile`);
  build(compose.services.parla.image);
  for (const target of ['postgres', 'redis', 's3']) {
    const image = `localhost/parla-ci-${target}`;
    step(`building the stand-in ${image}`);
    build(image, {
      file: '.ci/compose/Containerfile',
      context: '.ci/compose',
      args: [
        '--target',
        target,
        '--build-arg',
        `S3RVER_VERSION=${versionOf('s3rver')}`,
        '--build-arg',
        `AWS_SDK_VERSION=${versionOf('@aws-sdk/client-s3')}`,
      ],
    });
  }
  for (const [service, { image }] of Object.entries(override.services)) {
    if (image) step(`${service}: ${compose.services[service].image} replaced by ${image}`);
  }
  step(`images ready (${elapsed()})`);

  await start();
  const ready = await readiness();
  step(`up, healthy and ready (${JSON.stringify(ready)}) in ${elapsed()}`);

  // Both the server and the worker take requests from the queue; the store says which one
  // stored each conversion's audio. Distinct texts, so that none is answered from a cache.
  const worker = addressOf('worker');
  const store = new S3Client({
    endpoint: `http://${addressOf('minio')}:9000`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: environment.S3_ACCESS_KEY_ID,
      secretAccessKey: variables.S3_SECRET_ACCESS_KEY,
    },
  });
  let rendered;
  let firstPath;
  for (let attempt = 1; attempt <= 8 && !rendered; attempt++) {
    const from = logs('minio').length;
    const {
      seconds,
      path: audioPath,
      bytes,
    } = await convert(base, `Parla is running in compose, take ${attempt}.`);
    firstPath ??= audioPath;
    const key = storedFrom(worker, from).find((stored) => !stored.endsWith('.json'));
    if (key) rendered = { attempt, key, seconds, bytes };
  }
  if (!rendered) throw new Error(`the worker service (${worker}) stored none of 8 conversions`);
  const object = await store.send(
    new GetObjectCommand({ Bucket: environment.S3_BUCKET, Key: rendered.key }),
  );
  const stored = await object.Body.transformToByteArray();
  if (Buffer.compare(Buffer.from(stored), Buffer.from(rendered.bytes)) !== 0) {
    throw new Error(`the store's ${rendered.key} is not the audio the API served`);
  }
  step(
    `conversion ${rendered.attempt} rendered by the worker service: ${rendered.seconds.toFixed(2)} s of WAV, in the S3 store as ${rendered.key}`,
  );

  const user = { email: 'operator@example.com', password: 'a long enough password' };
  const token = createUserIn(container('parla'), user);

  // podman-compose 1.0.3 stops the services it is given in reverse order, and without any in
  // the reverse of compose.yaml's (the stores before Parla); given in the order they start,
  // they stop as docker compose stops them: the worker and Parla first, then the stores.
  const stopping = Date.now();
  podmanCompose(['stop', '-t', '30', ...STARTING_ORDER]);
  const stopTime = (Date.now() - stopping) / 1000;
  for (const service of ['parla', 'worker']) {
    const { code } = state(service);
    if (code !== 0) {
      throw new Error(`SIGTERM: ${service} exited with ${code}\n${logs(service).slice(-6000)}`);
    }
  }
  step(`stopped by SIGTERM in ${stopTime.toFixed(1)} s: parla and worker exited with 0`);

  podmanCompose(['down', '-t', '30']);
  step('down (containers removed, volumes kept); up again');
  await start();
  await readiness();
  await expectUserKept(base, token, user, 'after down and up');
  const audio = await fetch(new URL(firstPath, base));
  if (!audio.ok) throw new Error(`after down and up ${firstPath} answers ${audio.status}`);
  step('up again: the user (PostgreSQL volume) and the first audio (S3 volume) are still there');
  step(`done in ${elapsed()}`);
} catch (error) {
  failed = true;
  console.error(`[compose] FAILED after ${elapsed()}: ${error.message}`);
  for (const service of ['parla', 'worker', 'minio', 'postgres']) {
    const tail = logs(service).trim().split('\n').slice(-15).join('\n');
    if (tail) console.error(`[compose] ${service}'s last log lines:\n${tail}`);
  }
} finally {
  removeLeftovers();
  podman(['network', 'rm', `${PROJECT}_default`], { allowFailure: true });
  pruneImagesBefore(started);
}
process.exit(failed ? 1 : 0);
