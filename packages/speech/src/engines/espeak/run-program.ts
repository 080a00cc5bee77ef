import { spawn } from 'node:child_process';

export interface ProgramOutput {
  code: number | null;
  stdout: Uint8Array;
  stderr: string;
}

/**
 * Runs a program with `input` on its standard input (then closed) and collects what it
 * printed. Rejects only when it could not be started.
 */
export function runProgram(program: string, args: string[], input: string): Promise<ProgramOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err }));
    // The program may exit before reading all of its input (a bad voice name, say).
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
