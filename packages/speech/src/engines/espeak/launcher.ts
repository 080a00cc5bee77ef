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
import { type ProgramOutput, runProgram } from './run-program.js';

export interface LaunchRequest {
  id: number;
  program: string;
  args: string[];
  /** Written to the program's standard input, which is then closed. */
  input: string;
}

export type LaunchReply = ({ id: number } & ProgramOutput) | { id: number; error: string };

process.on('message', ({ id, program, args, input }: LaunchRequest) => {
  runProgram(program, args, input).then(
    (output) => process.send?.({ id, ...output } satisfies LaunchReply),
    (error: Error) => process.send?.({ id, error: error.message } satisfies LaunchReply),
  );
});

// The thread that forked this process has gone: so has the reason to run.
process.on('disconnect', () => process.exit(0));
