import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';

export interface ProgramOutput {
  code: number | null;
  /** The signal that ended the program (a crash: SIGSEGV), or null when it exited. */
  signal: NodeJS.Signals | null;
  stdout: Uint8Array;
  stderr: string;
}

/**
 * Runs a program with `input` on its standard input (then closed) and collects what it
 * printed. Rejects only when it could not be started. It gets no environment and runs in the
 * system's temporary directory: it learns nothing of the server (docs/decisions/
 * 034-cost-queues-and-crashes.md).
 */
export function runProgram(program: string, args: string[], input: string): Promise<ProgramOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], env: {}, cwd: tmpdir() });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: err }),
    );
    // The program may exit before reading all of its input (a bad voice name, say).
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
