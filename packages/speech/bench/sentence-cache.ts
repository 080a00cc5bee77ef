/**
 * The sentence cache (issue 14, item 4). Not a test: it prints numbers.
 *
 * A 5,000-character text of distinct sentences is converted through a one-worker SpeechPool
 * (no whole-request cache, so only the sentence cache can help), then converted again with one
 * sentence in its middle edited. The reference is a first conversion of a text of the same
 * shape that shares no sentence with anything before (nothing to reuse). Each is wav 22.05 kHz
 * on the default backend (native espeak-ng when installed). Medians of RUNS rounds; the ratio
 * is the reference over the edited conversion.
 */
import { cpus } from 'node:os';
import { SpeechPool, type SpeechRequest } from '../src/index.js';

const RUNS = 5;
const LENGTH = 5_000;

let serial = 0;
/** Distinct sentences: each round's text shares none with another round's. */
function text(): string[] {
  serial += 1;
  const sentences: string[] = [];
  let length = 0;
  for (let i = 0; length < LENGTH; i++) {
    const sentence = `Round ${serial}, sentence ${i + 1}: the cache keeps what was rendered for the next request.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences;
}

const request = (sentences: string[]): SpeechRequest => ({
  voice: 'standard:en-us',
  text: sentences.join(' '),
  format: 'wav',
  sampleRate: 22050,
});

const pool = new SpeechPool({ size: 1 });
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
async function timed(sentences: string[]): Promise<number> {
  const started = performance.now();
  await pool.synthesize(request(sentences));
  return performance.now() - started;
}

try {
  await timed(text()); // starts the worker and loads the engine
  const full: number[] = [];
  const edited: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    full.push(await timed(text()));
    const sentences = text();
    await timed(sentences);
    const middle = Math.floor(sentences.length / 2);
    sentences[middle] =
      `This sentence was edited in round ${serial}, and only it is rendered again.`;
    edited.push(await timed(sentences));
  }
  console.info(
    `\nSentence cache: one sentence edited in a ${LENGTH.toLocaleString('en')}-character text (${text().length} sentences), median of ${RUNS}`,
  );
  console.info(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  );
  console.info(`  full render (nothing cached)  ${median(full).toFixed(0)} ms`);
  console.info(`  one sentence edited           ${median(edited).toFixed(0)} ms`);
  console.info(
    `  ratio                         ${(median(full) / median(edited)).toFixed(1)}× faster`,
  );
} finally {
  await pool.close();
}
