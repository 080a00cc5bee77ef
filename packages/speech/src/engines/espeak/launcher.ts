/**
 * A small process that starts the native espeak-ng program for a Parla thread and hands back
 * what it printed (native-backend.ts forks it once per thread).
 *
 * Why not spawn espeak-ng directly: Linux forks a process by copying its page tables and making
 * every page copy-on-write, so the cost of a spawn grows with the spawning process's memory
 * (measured: 1 ms from a fresh Node process, 14 ms from one holding 400 MB), and the threads
 * of that process then fault on every page they write. A server with a few speech workers
 * holds hundreds of megabytes, and starts an espeak-ng process per group of sentences: with
 * two workers, more CPU went to the kernel than to speech. This process stays small.
 */
import { spawn } from 'node:child_process';

export interface LaunchRequest {
  id: number;
  program: string;
  args: string[];
  /** Written to the program's standard input, which is then closed. */
  input: string;
}

export type LaunchReply =
  | { id: number; code: number | null; stdout: Uint8Array; stderr: string }
  | { id: number; error: string };

const send = (reply: LaunchReply) => process.send?.(reply);

process.on('message', (request: LaunchRequest) => {
  const { id } = request;
  let answered = false;
  const answer = (reply: LaunchReply) => {
    if (answered) return;
    answered = true;
    send(reply);
  };
  const child = spawn(request.program, request.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.on('error', (error) => answer({ id, error: error.message }));
  child.on('close', (code) => answer({ id, code, stdout: Buffer.concat(out), stderr: err }));
  // The program may exit before reading all of its input (a bad voice name, say).
  child.stdin.on('error', () => {});
  child.stdin.end(request.input);
});

// The thread that forked this process has gone: so has the reason to run.
process.on('disconnect', () => process.exit(0));
