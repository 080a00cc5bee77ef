// What the production-install and container steps of npm test ask of a running Parla, as a
// person would over HTTP: it answers its health check, and converts a text into audio that
// decodes. Plain Node with music-metadata (a server dependency), so it runs before any build.
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseBuffer } from 'music-metadata';

/** A port free on this machine now, for a server started next. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Waits until `ready()` answers true (polled every second); throws after `seconds`. */
export async function waitUntil(what, ready, seconds) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${seconds} s`);
    await sleep(1000);
  }
}

/** Waits for GET /api/health to answer 200 at `base` (http://host:port). */
export function waitForHealth(base, seconds = 120) {
  return waitUntil(
    `${base}/api/health`,
    async () => (await fetch(`${base}/api/health`)).ok,
    seconds,
  );
}

/**
 * Converts a sentence anonymously (standard engine, WAV at 16 kHz) and decodes the audio;
 * throws unless it is WAV of about the sentence's length. Answers its duration in seconds, the
 * path the API serves it at and its bytes.
 */
export async function convert(base, text = 'Parla is running in production.') {
  // The API's request (packages/contract, VoiceSettingsSchema), every field as a client sends it.
  const settings = {
    engine: 'standard',
    voice_id: 'standard:en-us',
    language_code: 'en-us',
    text,
    output_format: 'wav',
    sample_rate: 16000,
    effect: null,
    master_speed: 0,
    master_volume: 0,
    master_pitch: 0,
    voice_effects: [],
  };
  const answer = await fetch(`${base}/api/convertor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  const result = await answer.json();
  if (!answer.ok || !result.success) {
    throw new Error(`POST /api/convertor answered ${answer.status}: ${JSON.stringify(result)}`);
  }
  const audio = await fetch(new URL(result.path, base));
  if (!audio.ok) throw new Error(`GET ${result.path} answered ${audio.status}`);
  const bytes = new Uint8Array(await audio.arrayBuffer());
  const { format } = await parseBuffer(bytes, { mimeType: 'audio/wav' });
  if (format.container !== 'WAVE' || format.sampleRate !== 16000) {
    throw new Error(
      `the audio is ${format.container} at ${format.sampleRate} Hz, not WAV at 16 kHz`,
    );
  }
  // Five words take more than a second and less than ten at the default speed.
  if (!(format.duration > 1 && format.duration < 10)) {
    throw new Error(`the audio lasts ${format.duration} s`);
  }
  return { seconds: format.duration, path: result.path, bytes };
}
