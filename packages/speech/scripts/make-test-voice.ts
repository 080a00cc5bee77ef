/**
 * Writes the test voice (a tiny ONNX model with Piper's signature, its tokens.txt and its
 * parla-voice.json) into a folder, e.g. a voices directory:
 *
 *   node --import tsx packages/speech/scripts/make-test-voice.ts "$VOICES_DIR/test-voice" --speakers 2
 *
 * Options: --speakers N (default 1), --sample-rate HZ (default 22050), --language CODE.
 * See test/test-voice.ts for what the model computes.
 */
import { parseArgs } from 'node:util';
import { makeTestVoice } from '../test/test-voice.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    speakers: { type: 'string', default: '1' },
    'sample-rate': { type: 'string', default: '22050' },
    language: { type: 'string', default: 'en-us' },
  },
});
const directory = positionals[0];
if (!directory) {
  process.stderr.write(
    'usage: make-test-voice.ts <folder> [--speakers N] [--sample-rate HZ] [--language CODE]\n',
  );
  process.exit(2);
}
const manifest = await makeTestVoice(directory, {
  speakers: Number(values.speakers),
  sampleRate: Number(values['sample-rate']),
  language: values.language,
});
process.stdout.write(
  `Wrote ${directory}: ${manifest.speakers.length} speaker(s) at ${manifest.sample_rate} Hz.\n`,
);
