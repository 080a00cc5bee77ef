/**
 * Streamed conversions against whole files (issue 14). Not a test: it prints numbers.
 *
 * One real server (HTTP on 127.0.0.1, SQLite, the worker-thread pool) converts the same texts
 * of 1,000, 10,000 and 20,000 characters (mp3, 24 kHz, standard engine) for a BUSINESS user:
 *   - whole file: POST /api/convertor, then GET its audio; the clock stops at the last byte;
 *   - streamed: POST /api/convertor?stream=true, then GET its audio as it arrives; printed are
 *     the time to the first audio byte, to the first playable second (the bytes of one second
 *     of mp3 at the encoder's bit rate) and to the last byte.
 * Each text is made unique per run, so that no answer comes from the speech cache. Figures are
 * medians of RUNS runs; the ratio is whole-file time over time to first byte.
 * Run with `npm run bench` (root) or `npm run bench -w @parla/server`.
 */
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { benchServer } from './bench-server.js';

const RUNS = 3;
const SIZES = [1_000, 10_000, 20_000];
/** mp3 at 24 kHz is encoded at 48 kbit/s (packages/speech encoders): 6,000 bytes a second. */
const BYTES_PER_SECOND = 6_000;

const { app, base, token, dataDir } = await benchServer('stream');

let serial = 0;
function textOf(length: number): string {
  serial += 1;
  const sentence = `Run ${serial}: streaming lets the listener hear the start while the rest renders. `;
  return sentence
    .repeat(Math.ceil(length / sentence.length))
    .slice(0, length)
    .trim();
}

async function post(text: string, stream: boolean) {
  const response = await fetch(`${base}/api/convertor${stream ? '?stream=true' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      engine: 'standard',
      voice_id: 'standard:en-us',
      language_code: 'en-us',
      text,
      output_format: 'mp3',
      sample_rate: 24000,
      effect: null,
      master_speed: 0,
      master_volume: 0,
      master_pitch: 0,
      voice_effects: [],
    }),
  });
  const answer = (await response.json()) as { path?: string; message: string };
  if (!response.ok || !answer.path) throw new Error(`conversion failed: ${answer.message}`);
  return answer.path;
}

/** Reads the audio, noting when the first byte and the first playable second arrived. */
async function download(audioPath: string, started: number) {
  const response = await fetch(`${base}${audioPath}`);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  let bytes = 0;
  let first = Number.NaN;
  let playable = Number.NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (Number.isNaN(first)) first = performance.now() - started;
    if (Number.isNaN(playable) && bytes >= BYTES_PER_SECOND) playable = performance.now() - started;
  }
  return { first, playable, last: performance.now() - started };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;

console.info(
  `\nStreamed conversions against whole files, mp3 24 kHz, standard engine, median of ${RUNS} runs`,
);
console.info(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
);
// A first conversion starts the worker threads and loads the engine: not measured.
await download(await post(textOf(200), false), performance.now());

try {
  console.info(
    'characters   whole file   first byte   first second   last byte (stream)   whole / first byte',
  );
  for (const size of SIZES) {
    const whole: number[] = [];
    const first: number[] = [];
    const playable: number[] = [];
    const last: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      let started = performance.now();
      const wholePath = await post(textOf(size), false);
      whole.push((await download(wholePath, started)).last);
      started = performance.now();
      const streamedPath = await post(textOf(size), true);
      const streamed = await download(streamedPath, started);
      first.push(streamed.first);
      playable.push(streamed.playable);
      last.push(streamed.last);
    }
    console.info(
      `${String(size).padStart(10)} ${ms(median(whole))} ${ms(median(first))} ${ms(median(playable))}   ${ms(median(last))}         ${(median(whole) / median(first)).toFixed(1)}×`,
    );
  }
  console.info('target: first audio byte within 150 ms of the request, for any length');
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
