import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverSource = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const cliSource = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
/** Runs a command module's main(argv), as the `parla` launcher does with the build. */
const runMain = fileURLToPath(new URL('../../../scripts/run-main.mjs', import.meta.url));

/** A real entry point (from source, through tsx) as its own process, its output collected. */
export interface Process {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: { text: string };
  exited: Promise<number | null>;
}

function run(entry: string[], env: Record<string, string>): Process {
  const child = spawn(
    process.execPath,
    ['--conditions=@parla/source', '--import', 'tsx', ...entry],
    { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = { text: '' };
  const append = (chunk: Buffer) => {
    output.text += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      // A process ended by a signal has no code: its output says which, for the failure.
      if (signal) output.text += `\n[ended by ${signal}]\n`;
      resolve(code);
    }),
  );
  return { child, output, exited };
}

/** `server.ts` on 127.0.0.1 and a free port, logging at info unless told otherwise. */
export const startServer = (env: Record<string, string>) =>
  run([serverSource], {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    // Tests never reach the real model hosts.
    DEFAULT_VOICES: 'none',
    ...env,
  });

/** `parla <args>` (cli.ts). */
export const startCli = (args: string[], env: Record<string, string>) =>
  run([runMain, cliSource, ...args], { DEFAULT_VOICES: 'none', ...env });

export async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const LISTENING = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/;

/** Waits for a started server to listen; answers its base URL. */
export async function listeningUrl(server: Process, timeoutMs = 60_000): Promise<string> {
  await waitFor(() => LISTENING.test(server.output.text), timeoutMs).catch(() => {
    throw new Error(`the server did not start:\n${server.output.text}`);
  });
  return `http://127.0.0.1:${LISTENING.exec(server.output.text)?.[1]}`;
}
