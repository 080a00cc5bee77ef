/**
 * The `parla-say` command against the `espeak-ng` program (issue 12, item 6). Not a test: it
 * prints numbers and a ratio.
 *
 * Both speak the same short text from a file into a WAV file, one process per run, and the
 * clock runs from the spawn to the exit: what a person waits for at the shell. `parla-say` is
 * run as its bin is (bin/parla-say.js, through its `#!/usr/bin/env node` line), on its default
 * backend (native when espeak-ng is installed). Figures are medians of RUNS runs, the two
 * commands taking turns, after a warm-up run of each (the first parla-say also compiles dist/
 * when it is missing or stale); the fastest run of each is printed too, closer to what an idle
 * machine gives when this one is shared. Target: parla-say within 150 ms of espeak-ng.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PARLA_SAY = fileURLToPath(new URL('../bin/parla-say.js', import.meta.url));
const TEXT = 'Hello from Parla: one short sentence, spoken once.';
const RUNS = 15;
const TARGET_MS = 150;

async function wallTime(program: string, args: string[]): Promise<number> {
  const started = performance.now();
  await run(program, args);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const dir = await mkdtemp(join(tmpdir(), 'parla-bench-command-'));
try {
  const input = join(dir, 'input.txt');
  await writeFile(input, TEXT);
  const espeak = () => wallTime('espeak-ng', ['-f', input, '-w', join(dir, 'espeak.wav')]);
  const parla = () => wallTime(PARLA_SAY, [input, '-o', join(dir, 'parla.wav')]);
  console.info(
    `\nparla-say against espeak-ng, whole process, "${TEXT}" (${TEXT.length} characters):`,
  );
  try {
    await espeak();
  } catch {
    console.info('  espeak-ng is not installed: nothing to compare with.');
    process.exit(0);
  }
  await parla();
  const times = { espeak: [] as number[], parla: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    times.espeak.push(await espeak());
    times.parla.push(await parla());
  }
  const reference = median(times.espeak);
  const measured = median(times.parla);
  const over = measured - reference;
  // The fastest run shows what an idle machine gives when others share this one.
  const fastest = (values: number[]) =>
    Math.min(...values)
      .toFixed(0)
      .padStart(5);
  console.info(
    `  espeak-ng  ${reference.toFixed(0).padStart(5)} ms (median of ${RUNS}; fastest ${fastest(times.espeak)} ms)`,
  );
  console.info(
    `  parla-say  ${measured.toFixed(0).padStart(5)} ms (median of ${RUNS}; fastest ${fastest(times.parla)} ms)`,
  );
  console.info(
    `  parla-say is ${(measured / reference).toFixed(1)}× espeak-ng, ${over.toFixed(0)} ms more ` +
      `(target ≤ ${TARGET_MS} ms more: ${over <= TARGET_MS ? 'met' : 'NOT met'})`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
