/**
 * A 100,000-character job against its chapters converted one request at a time (issue 19).
 * Not a test: it prints numbers.
 *
 * One server in this process (SQLite, the worker-thread pool, the standard engine, mp3 at
 * 24 kHz) and a BUSINESS user. The reference: each of the ten chapters (10,000 characters) as
 * one POST /api/convertor, one after another; its figure is the sum of their times. Then the
 * same ten chapters as one job, its parts rendered one at a time (JOB_CONCURRENCY=1, one
 * worker busy) and two at a time (JOB_CONCURRENCY=2, both workers of this 2-core machine),
 * timed from POST /api/jobs to the job being done (the audiobook assembled). Every run speaks
 * sentences of its own, so no answer comes from a cache.
 * Run with `npm run bench` (root) or `npm run bench -w @parla/server`.
 */
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { benchServer } from './bench-server.js';

const CHAPTERS = 10;
const CHAPTER_CHARACTERS = 10_000;

let serial = 0;
/** A chapter of distinct sentences (none repeats, in this run or another). */
function chapter(label: string): string {
  const sentences: string[] = [];
  let length = 0;
  while (length < CHAPTER_CHARACTERS - 80) {
    serial += 1;
    const sentence = `Sentence ${serial} of ${label} tells the listener one more small thing.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

async function server(concurrency: number) {
  const { app, base, token, dataDir } = await benchServer(
    'jobs',
    { JOB_CONCURRENCY: String(concurrency) },
    { jobRunner: { pollMs: 50 } },
  );
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return {
    base,
    headers,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const settings = {
  engine: 'standard',
  voice_id: 'standard:en-us',
  language_code: 'en-us',
  output_format: 'mp3',
  sample_rate: 24000,
};

async function reference(): Promise<number> {
  const { base, headers, close } = await server(1);
  let total = 0;
  try {
    for (let i = 0; i < CHAPTERS; i++) {
      const text = chapter(`reference chapter ${i + 1}`);
      const started = performance.now();
      const response = await fetch(`${base}/api/convertor`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          ...settings,
          text,
          effect: null,
          master_speed: 0,
          master_volume: 0,
          master_pitch: 0,
          voice_effects: [],
        }),
      });
      if (!response.ok) throw new Error(`convertor: ${response.status} ${await response.text()}`);
      total += performance.now() - started;
    }
  } finally {
    await close();
  }
  return total;
}

async function job(concurrency: number): Promise<number> {
  const { base, headers, close } = await server(concurrency);
  try {
    const chapters = Array.from({ length: CHAPTERS }, (_, i) => ({
      title: `Chapter ${i + 1}`,
      text: chapter(`job ${concurrency} chapter ${i + 1}`),
    }));
    const started = performance.now();
    const created = await fetch(`${base}/api/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...settings, chapters }),
    });
    if (created.status !== 202) throw new Error(`jobs: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    for (;;) {
      const state = (await (await fetch(`${base}/api/jobs/${id}`, { headers })).json()) as {
        status: string;
        error: string | null;
      };
      if (state.status === 'done') break;
      if (state.status !== 'queued' && state.status !== 'running') {
        throw new Error(`job ${state.status}: ${state.error}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return performance.now() - started;
  } finally {
    await close();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.info(
  `\nA ${(CHAPTERS * CHAPTER_CHARACTERS).toLocaleString('en-US')}-character job (${CHAPTERS} chapters), ${cpus().length} cores:`,
);
const sum = await reference();
console.info(`  chapters one request at a time (sum)   ${seconds(sum)}`);
for (const concurrency of [1, 2]) {
  const wall = await job(concurrency);
  console.info(
    `  job, ${concurrency} part${concurrency > 1 ? 's' : ''} at a time${' '.repeat(concurrency > 1 ? 17 : 18)}${seconds(wall)} (${(wall / sum).toFixed(2)}× the sum)`,
  );
}
