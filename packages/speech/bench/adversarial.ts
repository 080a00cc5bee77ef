/**
 * Adversarial requests (issues 12 and 28): what the worst texts cost. Not a test: it prints,
 * for each case and each espeak-ng backend (the WebAssembly build, and where espeak-ng is
 * installed libespeak-ng in its launcher process and the program), the characters sent, the
 * outcome (audio or the `limit_exceeded` refusal), the CPU time (this process's, that of the
 * espeak-ng programs it started and waited for, and that of its live child processes: the
 * launcher that hosts libespeak-ng),
 * the CPU time per character, that time scaled to a free visitor's 1,000 characters, and the
 * peak resident memory. Target: no request of a free visitor (at most 1,000 characters) costs
 * more than 2 s of CPU. Each case runs in a process of its own after a warm-up request, whose
 * memory the reference row shows. The reference row (1,000 characters of ordinary prose) gives
 * the ratio of each case to what an honest request costs. Every request is a free visitor's:
 * standard engine, mp3 at 24 kHz (the highest rate the product allows it).
 * Run with `npm run bench -w @parla/speech` (after bench/synthesis.ts and bench/neural.ts), or
 * alone with `npm run bench:adversarial -w @parla/speech [-- case …]`. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nativeAvailable, SpeechError, synthesize } from '@parla/speech';
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

const CJK = '天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳';
const cjk = (length: number) => CJK.repeat(Math.ceil(length / CJK.length)).slice(0, length);

interface Case {
  text: string;
  /** The voice (default standard:en-us) and the speed slider (default 0). */
  voice?: string;
  speed?: number;
}

const CASES: Record<string, Case | string> = {
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
  'prose at speed -100, 1,000 characters': { text: repeatTo(PROSE, 1000), speed: -100 },
  'CJK on an English voice at speed -100, 1,000 characters': { text: cjk(1000), speed: -100 },
  'CJK on a Chinese voice, 1,000 characters': { text: cjk(1000), voice: 'standard:cmn' },
  'CJK on a Chinese voice, 160 characters (about the most accepted)': {
    text: cjk(160),
    voice: 'standard:cmn',
  },
  'CJK on a Chinese voice at speed -100, 1,000 characters': {
    text: cjk(1000),
    voice: 'standard:cmn',
    speed: -100,
  },
  'unknown code points (Ethiopic, cuneiform), 1,000 characters': {
    text: repeatTo('ሀሁሂሃ𒀀𒀁𒀂', 1000),
    speed: -100,
  },
  // Estimated at 59 s, under the 60 s bound; said in about 74 s: stopped while rendering.
  'named letters, 39 (the most accepted)': { text: 'ሀ'.repeat(39) },
  'a 400-phoneme <phoneme>': `<phoneme alphabet="ipa" ph="${'tɑ'.repeat(200)}">ta</phoneme>`,
  'prose, 190,000 characters (memory)': repeatTo(PROSE, 190_000),
};

/** A free visitor's request: standard engine, mp3 at 24 kHz. */
const free = ({ text, voice = 'standard:en-us', speed = 0 }: Case) =>
  request({
    text,
    voice_id: voice,
    language_code: voice.split(':')[1] ?? 'en-us',
    master_speed: speed,
    output_format: 'mp3',
    sample_rate: 24000,
  });

/** Clock ticks a second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** /proc/PID/stat's fields after the command's name (field 3 onwards). */
const statOf = (pid: number | 'self') =>
  readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];

/** The processes this one started and that still run, and theirs (/proc's children lists). */
function liveDescendants(pid: number | 'self'): number[] {
  const found: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      found.push(child, ...liveDescendants(child));
    }
  }
  return found;
}

/**
 * CPU seconds of this process, of the child processes it has waited for (the native espeak-ng
 * programs: /proc/self/stat's cutime and cstime) and of those still running (the launcher
 * process where libespeak-ng renders: their utime and stime).
 */
const cpuSeconds = () => {
  const usage = process.cpuUsage();
  const own = statOf('self');
  let ticks = Number(own[13] ?? 0) + Number(own[14] ?? 0);
  for (const pid of liveDescendants('self')) {
    try {
      const fields = statOf(pid);
      ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    } catch {
      // It ended between the listing and the reading: its time is in cutime now.
    }
  }
  return (usage.user + usage.system) / 1e6 + ticks / TICKS;
};

/** espeak-ng's backends (PARLA_SPEECH_BACKEND's names): `native` is libespeak-ng. */
type Backend = 'wasm' | 'native' | 'program';

const BACKEND_TITLES: Record<Backend, string> = {
  wasm: 'WebAssembly build',
  native: 'libespeak-ng (in its launcher process)',
  program: 'native program',
};

interface Measured {
  characters: number;
  outcome: string;
  cpu: number;
  rssMb: number;
}

/** One case in this process, after a warm-up: what it cost. */
async function measure(which: Case, backend: Backend): Promise<Measured> {
  // The native program started from this process, so that its CPU time is this process's
  // children's (with word timings from the WebAssembly build beside it, decision 019);
  // libespeak-ng renders in the launcher process, as in the server, whose time cpuSeconds
  // reads while it runs.
  const spawn = backend === 'native' ? ('launcher' as const) : ('direct' as const);
  const options = { espeak: { backend, spawn } };
  // The first request of a process also compiles espeak-ng's WebAssembly, the resampler and
  // the encoder, and lets V8 optimise the pipeline (it costs three times more).
  await synthesize(free({ text: repeatTo(PROSE, 1000) }), options);
  const before = cpuSeconds();
  let outcome: string;
  try {
    const result = await synthesize(free(which), options);
    outcome = `${result.duration.toFixed(0)} s of audio`;
  } catch (error) {
    if (!(error instanceof SpeechError)) throw error;
    outcome = error.code;
  }
  const cpu = cpuSeconds() - before;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  return { characters: which.text.length, outcome, cpu, rssMb };
}

const caseOf = (name: string): Case => {
  const found = CASES[name] ?? '';
  return typeof found === 'string' ? { text: found } : found;
};

const only = process.env.PARLA_ADVERSARIAL_CASE;
if (only !== undefined) {
  // A child: one case, its figures on stdout.
  const named = process.env.PARLA_ADVERSARIAL_BACKEND as Backend;
  const backend = named in BACKEND_TITLES ? named : 'wasm';
  process.stdout.write(JSON.stringify(await measure(caseOf(only), backend)));
} else {
  // Each case in a process of its own, so that its peak memory is its own.
  const wanted = process.argv.slice(2);
  console.info(
    `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)}`,
  );
  const backends: Backend[] = (await nativeAvailable()) ? ['wasm', 'native', 'program'] : ['wasm'];
  for (const backend of backends) {
    console.info(`\n${BACKEND_TITLES[backend]}:\n`);
    console.info(
      '| case | characters | outcome | CPU | CPU per character | per 1,000 characters | peak RSS |',
    );
    console.info('|---|---|---|---|---|---|---|');
    let reference: number | undefined;
    let worst = 0;
    // A free visitor sends at most 1,000 characters.
    let worstFree = { cpu: 0, name: '' };
    for (const name of Object.keys(CASES)) {
      if (wanted.length > 0 && !wanted.some((w) => name.includes(w))) continue;
      const { stdout } = await run(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url)],
        {
          env: {
            ...process.env,
            PARLA_ADVERSARIAL_CASE: name,
            PARLA_ADVERSARIAL_BACKEND: backend,
          },
          maxBuffer: 1 << 20,
        },
      );
      const { characters, outcome, cpu, rssMb } = JSON.parse(stdout) as Measured;
      const perCharacter = cpu / characters;
      reference ??= perCharacter;
      worst = Math.max(worst, perCharacter);
      if (characters <= 1000 && cpu > worstFree.cpu) worstFree = { cpu, name };
      console.info(
        `| ${name} | ${characters} | ${outcome} | ${cpu.toFixed(3)} s | ${(perCharacter * 1e6).toFixed(0)} µs (${(perCharacter / reference).toFixed(2)}×) | ${(perCharacter * 1000).toFixed(2)} s | ${rssMb.toFixed(0)} MB |`,
      );
    }
    console.info(
      `\nWorst CPU time per character: ${(worst * 1e6).toFixed(0)} µs, ${(worst * 1000).toFixed(2)} s per 1,000 characters. Worst request of a free visitor (≤ 1,000 characters): ${worstFree.cpu.toFixed(2)} s (${worstFree.name}; target ≤ 2 s).`,
    );
  }
}
