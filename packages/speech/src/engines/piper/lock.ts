import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * One installer at a time per voice in a voices directory, across processes and machines that
 * share it (proper-lockfile: a `mkdir` lock whose time stamp its holder keeps fresh, taken over
 * when its holder died). The lock's name starts with a dot, so it is never read as a voice.
 * Whoever waited finds the voice installed by the other and has nothing left to do.
 */
export async function withVoiceLock<T>(
  voicesDir: string,
  key: string,
  work: () => Promise<T>,
  options: { waitMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<T> {
  await mkdir(voicesDir, { recursive: true });
  const lockfilePath = join(voicesDir, `.lock-${key}`);
  const waitMs = options.waitMs ?? 60 * 60 * 1000;
  const stepMs = 500;
  let lost: Error | undefined;
  const deadline = Date.now() + waitMs;
  let release: () => Promise<void>;
  // Tried again every half second rather than with proper-lockfile's own retries, so that a
  // server shutting down stops waiting at once.
  for (;;) {
    try {
      release = await lockfile.lock(voicesDir, {
        lockfilePath,
        realpath: false,
        // A holder that stops refreshing for 30 s is gone (killed, machine lost).
        stale: 30_000,
        update: 5_000,
        onCompromised: (error) => {
          lost = error;
        },
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) throw error;
      options.signal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      options.signal?.throwIfAborted();
    }
  }
  try {
    const result = await work();
    if (lost) throw lost;
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}
