/**
 * Adversarial requests (issue 12, item 5): what the worst texts cost. Not a test: it prints,
 * for each case, the characters sent, the outcome (audio or the `limit_exceeded` refusal), the
 * CPU time (the WebAssembly backend renders in the process, so all of the work is counted),
 * the CPU time per character, that time scaled to a free visitor's 1,000 characters (target
 * ≤ 2 s), and the peak resident memory. Each case runs in a process of its own after a warm-up
 * request, whose memory the reference row shows. The reference row (1,000 characters of
 * ordinary prose) gives the ratio of each case to what an honest request costs. Every request
 * is a free visitor's: standard engine, mp3 at 24 kHz (the highest rate the product allows it).
 * Run with `npm run bench -w @parla/speech` (after bench/synthesis.ts and bench/neural.ts), or
 * alone with `npm run bench:adversarial -w @parla/speech [-- case …]`. */
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SpeechError, synthesize } from '@parla/speech';
import { request } from '../test/request.js';

const run = promisify(execFile);

const PROSE =
  'The history of speech synthesis goes back to the mechanical talking machines of the ' +
  'eighteenth century. Wolfgang von Kempelen built a bellows-driven device that could ' +
  'produce whole phrases. ';

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.max(1, Math.floor(length / unit.length)));
}

const digits = (count: number) =>
  Array.from({ length: count }, (_, i) => (i * 7 + 3) % 10)
    .join('')
    .replace(/^0/, '1');

/** `depth` nested elements around one word, as often as fits in `length` characters. */
function nested(open: string, close: string, depth: number, length: number): string {
  const chain = `${open.repeat(depth)}word ${close.repeat(depth)}`;
  return `<speak>${repeatTo(chain, length - 15)}</speak>`;
}

const CASES: Record<string, string> = {
  'prose, 1,000 characters (reference)': repeatTo(PROSE, 1000),
  '940-digit say-as cardinal': `<say-as interpret-as="cardinal">${digits(940)}</say-as>`,
  '1,000 say-as characters': repeatTo('<say-as interpret-as="characters">A</say-as> ', 45_000),
  '20,000 characters of digits': digits(20_000),
  '20,000 characters of spaced digits': digits(10_000).split('').join(' '),
  'nesting at the limit (31 <s>), 1,000 characters': nested('<s>', '</s>', 31, 1000),
  'nesting at the limit (31 <prosody>), 20,000 characters': nested(
    '<prosody pitch="+10%" rate="90%">',
    '</prosody>',
    31,
    20_000,
  ),
  '10-second breaks, 1,000 characters': repeatTo('<break time="10s"/>', 1000),
  'prose, 190,000 characters (memory)': repeatTo(PROSE, 190_000),
};

/** A free visitor's request: standard engine, mp3 at 24 kHz. */
const free = (text: string) => request({ text, output_format: 'mp3', sample_rate: 24000 });

const cpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

interface Measured {
  characters: number;
  outcome: string;
  cpu: number;
  rssMb: number;
}

/** One case in this process, after a warm-up: what it cost. */
async function measure(text: string): Promise<Measured> {
  // The first request of a process also compiles espeak-ng's WebAssembly, the resampler and
  // the encoder, and lets V8 optimise the pipeline (it costs three times more).
  await synthesize(free(repeatTo(PROSE, 1000)), { espeak: { backend: 'wasm' } });
  const before = cpuSeconds();
  let outcome: string;
  try {
    const result = await synthesize(free(text), { espeak: { backend: 'wasm' } });
    outcome = `${result.duration.toFixed(0)} s of audio`;
  } catch (error) {
    if (!(error instanceof SpeechError)) throw error;
    outcome = error.code;
  }
  const cpu = cpuSeconds() - before;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  return { characters: text.length, outcome, cpu, rssMb };
}

const only = process.env.PARLA_ADVERSARIAL_CASE;
if (only !== undefined) {
  // A child: one case, its figures on stdout.
  process.stdout.write(JSON.stringify(await measure(CASES[only] ?? '')));
} else {
  // Each case in a process of its own, so that its peak memory is its own.
  const wanted = process.argv.slice(2);
  console.info(
    `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)}`,
  );
  console.info(
    '| case | characters | outcome | CPU | CPU per character | per 1,000 characters | peak RSS |',
  );
  console.info('|---|---|---|---|---|---|---|');
  let reference: number | undefined;
  let worst = 0;
  for (const name of Object.keys(CASES)) {
    if (wanted.length > 0 && !wanted.some((w) => name.includes(w))) continue;
    const { stdout } = await run(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url)],
      {
        env: { ...process.env, PARLA_ADVERSARIAL_CASE: name },
        maxBuffer: 1 << 20,
      },
    );
    const { characters, outcome, cpu, rssMb } = JSON.parse(stdout) as Measured;
    const perCharacter = cpu / characters;
    reference ??= perCharacter;
    worst = Math.max(worst, perCharacter);
    console.info(
      `| ${name} | ${characters} | ${outcome} | ${cpu.toFixed(3)} s | ${(perCharacter * 1e6).toFixed(0)} µs (${(perCharacter / reference).toFixed(2)}×) | ${(perCharacter * 1000).toFixed(2)} s | ${rssMb.toFixed(0)} MB |`,
    );
  }
  console.info(
    `\nWorst CPU time per character: ${(worst * 1e6).toFixed(0)} µs, ${(worst * 1000).toFixed(2)} s per 1,000 characters (target ≤ 2 s).`,
  );
}
