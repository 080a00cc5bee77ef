import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createServer as createHttp2Server,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { SampleRate, VoiceEffect } from '@parla/contract';
import { synthesize } from '../../src/synthesize.js';
import { decodeWav } from '../audio.js';

/**
 * What the providers' test servers share: real speech for what they are asked (rendered by
 * our espeak-ng engine, so tests decode and measure real audio), and a small HTTP server.
 * These servers live with the tests; the product never ships them.
 */

export interface Spoken {
  /** Signed 16-bit little-endian mono PCM. */
  pcm: Buffer;
  sampleRate: number;
  /** Words and `<mark>`s with their times in ms. */
  marks: { time: number; type: 'word' | 'ssml'; value: string }[];
}

/**
 * Speech for `text` (SSML when it starts with `<speak`) in a language, at a rate; `effect`
 * renders a speaking style as a provider would (our espeak-ng preset of that name).
 */
export async function speak(
  text: string,
  language: string,
  sampleRate: number,
  effect: VoiceEffect | null = null,
): Promise<Spoken> {
  const result = await synthesize(
    {
      voice: `standard:${language.toLowerCase()}`,
      text: text.trimStart().startsWith('<speak') ? text : escapeText(text),
      format: 'wav',
      sampleRate: sampleRate as SampleRate,
      speed: 0,
      volume: 0,
      pitch: 0,
      effect,
    },
    { espeak: { backend: 'wasm' } },
  );
  const { samples } = decodeWav(result.audio);
  const pcm = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => {
    pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sample * 32768))), i * 2);
  });
  return {
    pcm,
    sampleRate,
    marks: result.marks
      .filter((mark) => mark.type === 'word' || mark.type === 'mark')
      .map((mark) => ({
        time: Math.round(mark.start * 1000),
        type: mark.type === 'word' ? ('word' as const) : ('ssml' as const),
        value: mark.text,
      })),
  };
}

function escapeText(text: string): string {
  return `<speak>${text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</speak>`;
}

/** A WAVE file of 16-bit mono PCM. */
export function wavOf(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

export type ProviderRequest = IncomingMessage | Http2ServerRequest;
export type ProviderResponse = ServerResponse | Http2ServerResponse;

export async function readBody(request: ProviderRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts a server on a free port of 127.0.0.1, HTTP/1.1 or cleartext HTTP/2 (as the AWS
 * SDK's Polly client speaks it); answers its URL and a way to stop it. `upgrade` takes the
 * HTTP/1.1 requests to switch to WebSocket (Azure's synthesis).
 */
export async function listen(
  handler: (request: ProviderRequest, response: ProviderResponse) => Promise<void>,
  options: {
    http2?: boolean;
    upgrade?: (request: IncomingMessage, socket: Socket, head: Buffer) => void;
  } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const answer = (request: ProviderRequest, response: ProviderResponse) => {
    handler(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  };
  const sessions = new Set<Http2Session>();
  const server = options.http2 ? createHttp2Server(answer) : createServer(answer);
  const sockets = new Set<Socket>();
  const { upgrade } = options;
  if (upgrade && !options.http2) {
    server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      upgrade(request, socket, head);
    });
  }
  if (options.http2) {
    server.on('session', (session: Http2Session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        for (const socket of sockets) socket.destroy();
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
