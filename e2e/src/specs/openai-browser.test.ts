import { createServer, type Server } from 'node:http';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowser } from '../harness/browser.js';
import { newUser } from '../harness/users.js';

/**
 * Issue 27 item 4: a browser app of somebody else's, on an origin the operator allowed
 * (CORS_ORIGINS), uses OpenAI's official SDK with a Parla key, with every header the SDK sends.
 */
describe("OpenAI's SDK in a browser app on an allowed origin", () => {
  const session = useBrowser();
  const appOrigin = inject('appOrigin');
  let app: Server;

  beforeAll(async () => {
    // The SDK as a browser app bundles it.
    const sdk = await build({
      stdin: {
        contents: "import OpenAI from 'openai'; window.OpenAI = OpenAI;",
        resolveDir: import.meta.dirname,
      },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      write: false,
    });
    const script = sdk.outputFiles[0]?.text ?? '';
    app = createServer((request, response) => {
      if (request.url === '/sdk.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
        return;
      }
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>A reading app</title><script src="/sdk.js"></script>');
    });
    await new Promise<void>((resolve) =>
      app.listen(Number(new URL(appOrigin).port), 'localhost', resolve),
    );
  });
  afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())));

  it('converts, and the page decodes the audio it got', async () => {
    const user = await newUser('BASIC');
    const created = await fetch(`${session.baseUrl}/api/account/api_keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reading app' }),
    });
    const { key } = (await created.json()) as { key: string };
    const page = await session.newPage();
    await page.goto(`${appOrigin}/`);
    const seconds = await page.evaluate(
      async ({ key, baseUrl }) => {
        const OpenAI = (
          window as unknown as {
            OpenAI: new (
              options: object,
            ) => {
              audio: { speech: { create(body: object): Promise<Response> } };
            };
          }
        ).OpenAI;
        const client = new OpenAI({
          apiKey: key,
          baseURL: `${baseUrl}/v1`,
          dangerouslyAllowBrowser: true,
        });
        const answer = await client.audio.speech.create({
          model: 'tts-1',
          voice: 'nova',
          input: 'Hello from a reading app.',
        });
        const audio = await new AudioContext().decodeAudioData(await answer.arrayBuffer());
        return audio.duration;
      },
      { key, baseUrl: session.baseUrl },
    );
    expect(seconds).toBeGreaterThan(0.8);
  });
});
