/**
 * Synthesis benchmarks (issue 3, item 10). Not a test: it prints numbers and ratios.
 *
 * For the same 1,000- and 10,000-character English texts, side by side:
 * - the reference: the native `espeak-ng` program writing a WAV file (when installed);
 * - Parla's native backend and WebAssembly backend, each to wav and to mp3 at 48 kHz;
 * - time to the first chunk of the streamed 10,000-character text;
 * - a pool of one worker against a pool of two, on eight requests at once, for each backend.
 * Throughput is seconds of audio produced per second of wall time; each is also printed as a
 * ratio to the reference. Every figure is the median of several runs after a warm-up (the first
 * run of a backend also compiles its code), as a long-running server sees it. Run with
 * `npm run bench` (root) or `npm run bench -w @parla/speech`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  nativeAvailable,
  SpeechPool,
  type SpeechRequest,
  synthesize,
  synthesizeStream,
} from '@parla/speech';

const run = promisify(execFile);

const PARAGRAPH =
  'The history of speech synthesis goes back to the mechanical talking machines of the ' +
  'eighteenth century. Wolfgang von Kempelen built a bellows-driven device that could ' +
  'produce whole phrases. In the twentieth century, Homer Dudley demonstrated the Voder at ' +
  "the 1939 World's Fair, and formant synthesizers followed in the 1950s and 1960s. Today, " +
  'small engines such as eSpeak NG still read screens for blind users in more than a hundred ' +
  'languages, quickly and clearly, on very modest hardware. ';

function text(length: number): string {
  let out = '';
  while (out.length < length) out += PARAGRAPH;
  // Cut at a word boundary just under the length.
  return out.slice(0, out.lastIndexOf(' ', length)).trim();
}

const TEXTS = { '1k': text(1000), '10k': text(10_000) };

/** The library renders every rate of SPEC §9 (the product's 24 kHz cap is the server's). */
function request(body: string, format: 'wav' | 'mp3', rate: 16000 | 48000): SpeechRequest {
  return { voice: 'standard:en-us', text: body, format, sampleRate: rate };
}

interface Row {
  name: string;
  seconds: number;
  audio: number;
}

const RUNS = 3;

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, (performance.now() - started) / 1000];
}

/** The last run's value and the median of `runs` timings, in seconds. */
async function median<T>(fn: () => Promise<T>, runs = RUNS): Promise<[T, number]> {
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < runs; i++) {
    const [result, seconds] = await time(fn);
    value = result;
    times.push(seconds);
  }
  times.sort((a, b) => a - b);
  return [value as T, times[Math.floor(times.length / 2)] as number];
}

async function reference(body: string, dir: string): Promise<Row | undefined> {
  const input = join(dir, 'input.txt');
  const output = join(dir, 'reference.wav');
  await writeFile(input, body);
  try {
    const [, seconds] = await median(() =>
      run('espeak-ng', ['-v', 'en-US', '-f', input, '-w', output]),
    );
    // espeak-ng writes a canonical 44-byte WAV header; its byte rate is at offset 28.
    const wav = await readFile(output);
    const audio = (wav.length - 44) / wav.readUInt32LE(28);
    return { name: 'espeak-ng → wav (reference)', seconds, audio };
  } catch {
    return undefined;
  }
}

function print(rows: Row[], referenceRow: Row | undefined) {
  const refSpeed = referenceRow ? referenceRow.audio / referenceRow.seconds : undefined;
  for (const row of rows) {
    const speed = row.audio / row.seconds;
    const ratio = refSpeed ? `${(speed / refSpeed).toFixed(2)}×` : 'n/a';
    console.info(
      `  ${row.name.padEnd(38)} ${row.seconds.toFixed(3).padStart(8)} s  ${row.audio.toFixed(1).padStart(7)} s audio  ${speed.toFixed(0).padStart(5)}× real time  ${ratio.padStart(6)} of reference`,
    );
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'parla-bench-'));
  const native = await nativeAvailable();
  console.info(
    `Parla speech benchmark — ${new Date().toISOString()} — ${cpus()[0]?.model ?? 'cpu'} × ${availableParallelism()}, Node ${process.version}`,
  );
  const backends = native ? (['native', 'wasm'] as const) : (['wasm'] as const);
  const formats = [
    ['wav', 16000],
    ['mp3', 48000],
  ] as const;
  // Warm up every path once (instantiation, compilation of the hot code, first spawn).
  for (const backend of backends) {
    for (const [format, rate] of formats) {
      await synthesize(request(TEXTS['1k'], format, rate), { espeak: { backend } });
    }
  }
  for (const [label, body] of Object.entries(TEXTS)) {
    console.info(`\n${label}: ${body.length} characters`);
    const ref = native ? await reference(body, dir) : undefined;
    const rows: Row[] = ref ? [ref] : [];
    for (const backend of backends) {
      for (const [format, rate] of formats) {
        const [result, seconds] = await median(() =>
          synthesize(request(body, format, rate), { espeak: { backend } }),
        );
        rows.push({
          name: `Parla ${backend} → ${format} ${rate / 1000} kHz`,
          seconds,
          audio: result.duration,
        });
      }
    }
    print(rows, ref);
  }

  console.info('\nTime to the first chunk (10k characters, mp3 48 kHz, streaming):');
  for (const backend of backends) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const stream = synthesizeStream(request(TEXTS['10k'], 'mp3', 48000), {
        espeak: { backend },
      });
      const first = await stream.next();
      times.push(performance.now() - started);
      if (first.done) throw new Error('the stream gave no chunk');
      await stream.return(undefined);
      // Each run starts on an idle machine: let the groups the stream had started finish.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    times.sort((x, y) => x - y);
    console.info(`  ${backend.padEnd(7)} ${times[2]?.toFixed(0)} ms (target ≤ 150 ms)`);
  }

  console.info('\nWorker pool: eight 1k-character requests (wav 16 kHz) at once:');
  const bodies = Array.from({ length: 8 }, (_, i) => `${TEXTS['1k']} Request ${i}.`);
  for (const backend of backends) {
    const poolTimes: number[] = [];
    for (const size of [1, 2]) {
      const pool = new SpeechPool({ size, config: { espeak: { backend } } });
      // Every worker's code is compiled as it runs (espeak-ng's WebAssembly build is 800 kB of
      // JavaScript): warm the pool up with the same load before the clock starts.
      for (let i = 0; i < 3; i++) {
        await Promise.all(bodies.map((b) => pool.synthesize(request(b, 'wav', 16000))));
      }
      const [, seconds] = await median(() =>
        Promise.all(bodies.map((b) => pool.synthesize(request(b, 'wav', 16000)))),
      );
      await pool.close();
      poolTimes.push(seconds);
    }
    const [one = 0, two = 1] = poolTimes;
    console.info(
      `  ${backend.padEnd(7)} 1 worker ${one.toFixed(3)} s, 2 workers ${two.toFixed(3)} s: ${(one / two).toFixed(2)}× (target ≥ 1.8×)`,
    );
  }
  await rm(dir, { recursive: true, force: true });
}

await main();
