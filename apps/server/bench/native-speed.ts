/**
 * Parla against the native pipeline it wraps (issue 34). Not a test: it prints numbers.
 *
 * The reference is espeak-ng piped into an encoder, as one would convert by hand:
 * `espeak-ng -f in.txt --stdout | ffmpeg -ar RATE -c:a libmp3lame` (or `lame --resample` where
 * ffmpeg is missing) for mp3, `… | ffmpeg -c:a libvorbis -q:a 4` (or `oggenc -q 4 --resample`)
 * for Ogg Vorbis, and `… | ffmpeg -ar 16000` (or `sox`) for wav at 16 kHz; a case whose tool is
 * missing prints "reference unavailable" and no ratio. Against it, on the same fresh text
 * (unique per run, no sentence twice, so no cache answers), timed in turn (reference, Parla,
 * reference, Parla, …):
 *   - API: one real server in its own process (HTTP on 127.0.0.1, SQLite, the worker-thread
 *     pool, warm) and a BUSINESS account: POST /api/convertor, then GET of the audio to its
 *     last byte;
 *   - CLI: `parla-say in.txt -o out.mp3` as a whole process (start-up included);
 *   - library: `synthesize()` of @parla/speech in this process (warm).
 * Each figure is the median of RUNS runs; the ratio is the reference's time over Parla's (1 =
 * as fast, higher is faster). Run with `npm run bench` (root) or `npm run bench -w @parla/server`;
 * `-- --runs N` changes RUNS, `-- --only TEXT` keeps the cases whose name contains TEXT.
 */
import { execFile, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type SpeechRequest, synthesize } from '@parla/speech';

const run = promisify(execFile);
const runsArgument = process.argv.indexOf('--runs');
const RUNS = runsArgument > 0 ? Number(process.argv[runsArgument + 1]) : 3;
const onlyArgument = process.argv.indexOf('--only');
/** `--only TEXT`: the cases whose name contains TEXT (e.g. parla-say). */
const ONLY = onlyArgument > 0 ? (process.argv[onlyArgument + 1] ?? '') : '';
const PARLA_SAY = fileURLToPath(
  new URL('../../../packages/speech/bin/parla-say.js', import.meta.url),
);

const SENTENCES = [
  'The history of speech synthesis goes back to the mechanical talking machines of the eighteenth century.',
  'Wolfgang von Kempelen built a bellows-driven device that could produce whole phrases.',
  "In the twentieth century, Homer Dudley demonstrated the Voder at the 1939 World's Fair, and formant synthesizers followed in the 1950s and 1960s.",
  'Today, small engines such as eSpeak NG still read screens for blind users in more than a hundred languages, quickly and clearly, on very modest hardware.',
];

let serial = 0;
/**
 * A fresh text of about `length` characters (cut at a sentence), unique to this run, and no
 * sentence twice: the server's worker threads keep rendered sentences for the next request
 * (stages/sentence-cache.ts), which a repeated paragraph would answer without rendering.
 */
function textOf(length: number): string {
  serial += 1;
  let out = `Run ${serial} of the bench.`;
  for (let note = 1; ; note++) {
    const sentence = SENTENCES[note % SENTENCES.length] as string;
    const next = `${out} ${sentence.slice(0, -1)}, in note ${note} of run ${serial}.`;
    if (next.length > length) return out;
    out = next;
  }
}

const has = (program: string) =>
  spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
const tools = {
  espeak: has('espeak-ng'),
  ffmpeg: has('ffmpeg'),
  lame: has('lame'),
  oggenc: has('oggenc'),
  sox: has('sox'),
};

type Format = 'mp3' | 'ogg' | 'wav';

/** The shell pipeline of the reference, or undefined when its tools are missing. */
function referenceCommand(format: Format, rate: Rate, input: string, output: string) {
  if (!tools.espeak) return undefined;
  const speak = `espeak-ng -f '${input}' --stdout`;
  if (tools.ffmpeg) {
    const codec = {
      mp3: '-c:a libmp3lame -b:a 64k',
      ogg: '-c:a libvorbis -q:a 4',
      wav: '-c:a pcm_s16le',
    };
    return `${speak} | ffmpeg -loglevel error -y -i - -ac 1 -ar ${rate} ${codec[format]} '${output}'`;
  }
  if (format === 'mp3' && tools.lame) {
    return `${speak} | lame --quiet -m m -b 64 --resample ${rate / 1000} - '${output}'`;
  }
  if (format === 'ogg' && tools.oggenc) {
    return `${speak} | oggenc --quiet -q 4 --resample ${rate} -o '${output}' -`;
  }
  if (format === 'wav' && tools.sox) return `${speak} | sox -t wav - -r ${rate} '${output}'`;
  return undefined;
}

// The server in its own process (server-process.ts), as deployed: the client timing it here,
// and the library cases' heap, are not on its event loop.
const server = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), ['native'], {
  execArgv: process.execArgv,
});
const {
  base,
  token,
  dataDir: serverDir,
} = await new Promise<{
  base: string;
  token: string;
  dataDir: string;
}>((resolve, reject) => {
  server.once('message', (message) => resolve(message as never));
  server.once('exit', (code) => reject(new Error(`the bench server ended (${code})`)));
});
const dir = mkdtempSync(path.join(tmpdir(), 'parla-bench-native-'));

/** One conversion over HTTP: POST, then the audio to its last byte. */
async function api(text: string, format: Format, rate: Rate): Promise<void> {
  const response = await fetch(`${base}/api/convertor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      engine: 'standard',
      voice_id: 'standard:en-us',
      language_code: 'en-us',
      text,
      output_format: format,
      sample_rate: rate,
      effect: null,
      master_speed: 0,
      master_volume: 0,
      master_pitch: 0,
      voice_effects: [],
    }),
  });
  const answer = (await response.json()) as { path?: string; message?: string };
  if (!response.ok || !answer.path) throw new Error(`conversion failed: ${answer.message}`);
  const audio = await fetch(`${base}${answer.path}`);
  if (!audio.ok) throw new Error(`audio: ${audio.status}`);
  await audio.arrayBuffer();
}

async function cli(input: string, format: Format, rate: Rate): Promise<void> {
  const output = path.join(dir, `parla.${format}`);
  await run(process.execPath, [PARLA_SAY, input, '-o', output, '--rate', String(rate)], {
    maxBuffer: 1 << 20,
  });
}

async function library(text: string, format: Format, rate: Rate): Promise<void> {
  await synthesize({ voice: 'standard:en-us', text, format, sampleRate: rate });
}

/** A sample rate of SPEC §9. */
type Rate = SpeechRequest['sampleRate'];

interface Case {
  name: string;
  length: number;
  format: Format;
  rate: Rate;
  parla: (text: string, input: string, format: Format, rate: Rate) => Promise<void>;
}

const CASES: Case[] = [
  {
    name: 'API, 1,000 characters, mp3 24 kHz',
    length: 1_000,
    format: 'mp3',
    rate: 24000,
    parla: (t, _, f, r) => api(t, f, r),
  },
  {
    name: 'API, 10,000 characters, mp3 24 kHz',
    length: 10_000,
    format: 'mp3',
    rate: 24000,
    parla: (t, _, f, r) => api(t, f, r),
  },
  {
    name: 'API, 10,000 characters, wav 16 kHz',
    length: 10_000,
    format: 'wav',
    rate: 16000,
    parla: (t, _, f, r) => api(t, f, r),
  },
  {
    name: 'API, 10,000 characters, ogg 24 kHz',
    length: 10_000,
    format: 'ogg',
    rate: 24000,
    parla: (t, _, f, r) => api(t, f, r),
  },
  {
    name: '`parla-say`, 10,000 characters, mp3 24 kHz (whole process)',
    length: 10_000,
    format: 'mp3',
    rate: 24000,
    parla: (_, i, f, r) => cli(i, f, r),
  },
  {
    name: '`parla-say`, 1,000 characters, mp3 24 kHz',
    length: 1_000,
    format: 'mp3',
    rate: 24000,
    parla: (_, i, f, r) => cli(i, f, r),
  },
  {
    name: 'library, 10,000 characters, mp3 24 kHz',
    length: 10_000,
    format: 'mp3',
    rate: 24000,
    parla: (t, _, f, r) => library(t, f, r),
  },
  {
    name: 'library, 10,000 characters, ogg 24 kHz',
    length: 10_000,
    format: 'ogg',
    rate: 24000,
    parla: (t, _, f, r) => library(t, f, r),
  },
  {
    name: 'library, 10,000 characters, wav 16 kHz',
    length: 10_000,
    format: 'wav',
    rate: 16000,
    parla: (t, _, f, r) => library(t, f, r),
  },
];

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

console.info(`\nParla against espeak-ng piped into an encoder (issue 34), median of ${RUNS} runs`);
console.info(
  `${new Date().toISOString()}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${loadavg()[0]?.toFixed(1)}; ` +
    `reference tools: ${
      Object.entries(tools)
        .filter(([, found]) => found)
        .map(([name]) => name)
        .join(', ') || 'none'
    }`,
);
// Warm: the worker threads, the engine and the encoders of the server and of this process.
await api(textOf(300), 'mp3', 24000);
await api(textOf(300), 'wav', 16000);
await api(textOf(300), 'ogg', 24000);
await library(textOf(300), 'mp3', 24000);
await library(textOf(300), 'ogg', 24000);
writeFileSync(path.join(dir, 'warm.txt'), textOf(300));
await cli(path.join(dir, 'warm.txt'), 'mp3', 24000);

try {
  console.info('| case | reference | Parla | ratio |');
  console.info('|---|---|---|---|');
  for (const item of CASES.filter((found) => found.name.includes(ONLY))) {
    const reference: number[] = [];
    const parla: number[] = [];
    let available = true;
    for (let i = 0; i < RUNS; i++) {
      const text = textOf(item.length);
      const input = path.join(dir, 'in.txt');
      writeFileSync(input, text);
      const command = referenceCommand(
        item.format,
        item.rate,
        input,
        path.join(dir, `reference.${item.format}`),
      );
      if (command) reference.push(await seconds(() => run('sh', ['-c', command])));
      else available = false;
      parla.push(await seconds(() => item.parla(text, input, item.format, item.rate)));
    }
    const ours = median(parla);
    const theirs = available ? median(reference) : Number.NaN;
    console.info(
      `| ${item.name} | ${available ? `${theirs.toFixed(2)} s` : 'reference unavailable'} | ${ours.toFixed(2)} s | ${available ? (theirs / ours).toFixed(2) : '–'} |`,
    );
  }
  console.info('target: ratio ≥ 0.8 for every case (≥ 0.5 for parla-say on 1,000 characters)');
} finally {
  server.disconnect();
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
  rmSync(serverDir, { recursive: true, force: true });
}
