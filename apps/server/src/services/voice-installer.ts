import type { AdminVoiceInstallState } from '@parla/contract';
import { installAny, kokoroModel, scanVoices, UnreachableError } from '@parla/speech';

/**
 * Default voices that install themselves (issue 29, docs/decisions/028-default-voices.md): at
 * start the server makes sure every voice of DEFAULT_VOICES is in VOICES_DIR, in the background.
 * The start never waits for it: espeak-ng serves meanwhile, and an installed voice joins the
 * catalogue without a restart (the speech pool re-reads VOICES_DIR when it changes). Servers
 * sharing VOICES_DIR take turns per voice (the speech library's lock), the others waiting and
 * then finding it there. Without network the log says so once, with the command that installs
 * the voice from a file, and the server goes on.
 */

export interface InstallProgress {
  name: string;
  bytes: number;
  /** Bytes of the whole download, when known. */
  total: number | null;
}

export interface VoiceInstallerLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

export interface VoiceInstallerOptions {
  voicesDir: string;
  /** DEFAULT_VOICES: catalogue names (Kokoro's or Piper's); empty: nothing to do. */
  names: readonly string[];
  /** PIPER_VOICES_URL and KOKORO_MODELS_URL: mirrors, or a test's local hosts. */
  piperBase?: string | undefined;
  kokoroBase?: string | undefined;
  log: VoiceInstallerLog;
  /** Download attempts after the first, and the first wait (tests shorten them). */
  retries?: number;
  backoffMs?: number;
}

/** The console's install (issue 31 §6): one at a time; the last outcome stays until the next. */
export type ConsoleInstall = AdminVoiceInstallState;

export interface VoiceInstaller {
  /** Starts the installs in the background; answers at once. */
  start(): void;
  /** The downloads under way, for /api/ready. */
  installing(): InstallProgress[];
  /**
   * Starts installing `name` for the console, in the background; answers the voice being
   * installed instead when this server is already installing one (default voices included).
   */
  install(name: string): { started: true } | { started: false; busy: string };
  /** The console's install: its progress, or how the last one ended. */
  consoleInstall(): ConsoleInstall;
  /** Stops the console's install (its partial download stays, to be resumed). */
  cancel(): boolean;
  /** Settles when the run started by `start` has ended (installed, failed or offline). */
  readonly settled: Promise<void>;
  /** Stops the downloads (their parts stay, to be resumed at the next start). */
  close(): Promise<void>;
}

/** The one command that installs a voice from a file fetched elsewhere. */
function offlineCommand(name: string): string {
  return kokoroModel(name)
    ? `npm run voices -- install ./${name}.tar.bz2`
    : `npm run voices -- install ./${name} (a folder holding ${name}.onnx and ${name}.onnx.json)`;
}

export function createVoiceInstaller(options: VoiceInstallerOptions): VoiceInstaller {
  const progress = new Map<string, InstallProgress>();
  const abort = new AbortController();
  let finish: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let running: Promise<void> | undefined;

  /** Installs one voice; answers why it did not (undefined: installed, or stopped). */
  async function installOne(
    name: string,
    unreachable: Map<string, string>,
    signal: AbortSignal = abort.signal,
    keepInstalled = true,
  ): Promise<string | undefined> {
    const known = kokoroModel(name);
    const entry: InstallProgress = { name, bytes: 0, total: known?.size ?? null };
    progress.set(name, entry);
    let logged = -1;
    try {
      const installed = await installAny(name, {
        voicesDir: options.voicesDir,
        ...(options.piperBase && { base: options.piperBase }),
        ...(options.kokoroBase && { kokoroBase: options.kokoroBase }),
        keepInstalled,
        signal,
        ...(options.retries !== undefined && { retries: options.retries }),
        ...(options.backoffMs !== undefined && { backoffMs: options.backoffMs }),
        onProgress: (bytes, total) => {
          entry.bytes = bytes;
          if (total) entry.total = total;
          const tenth = entry.total ? Math.floor((bytes / entry.total) * 10) : 0;
          if (tenth > logged) {
            logged = tenth;
            options.log.info(
              { voice: name, bytes, total: entry.total },
              `installing the voice ${name}: ${entry.total ? Math.min(100, tenth * 10) : '?'} %`,
            );
          }
        },
      });
      options.log.info(
        { voice: name, speakers: installed.manifest.speakers.length, dir: installed.directory },
        `the voice ${name} is installed and in the catalogue`,
      );
      return undefined;
    } catch (error) {
      if (signal.aborted) return undefined;
      const message = (error as Error).message;
      if (error instanceof UnreachableError) {
        unreachable.set(name, message);
        return message;
      }
      options.log.error(
        { voice: name, err: error },
        `the voice ${name} could not be installed: ${message}`,
      );
      return message;
    } finally {
      progress.delete(name);
    }
  }

  async function run(): Promise<void> {
    const { voices } = await scanVoices(options.voicesDir);
    const present = new Set(voices.map((voice) => voice.folder));
    const missing = options.names.filter((name) => !present.has(name));
    const unreachable = new Map<string, string>();
    // One at a time: a first start on a small machine downloads and test-loads one model at once.
    for (const name of missing) {
      if (abort.signal.aborted) break;
      await installOne(name, unreachable);
    }
    if (unreachable.size > 0) {
      const names = [...unreachable.keys()];
      options.log.warn(
        { voices: names, reason: [...unreachable.values()][0] },
        `No network: the natural voice${names.length > 1 ? 's' : ''} ${names.join(', ')} could not be downloaded (${[...unreachable.values()][0]}); espeak-ng serves meanwhile. To install from a file fetched elsewhere: ${names.map(offlineCommand).join('; ')}`,
      );
    }
  }

  let ownInstall: ConsoleInstall & { controller?: AbortController } = {
    state: 'idle',
    name: null,
    bytes: 0,
    total: null,
    message: null,
  };
  const consoleRuns = new Set<Promise<void>>();

  return {
    install(name) {
      const busy = progress.keys().next();
      if (!busy.done) return { started: false, busy: busy.value };
      const controller = new AbortController();
      const signal = AbortSignal.any([abort.signal, controller.signal]);
      ownInstall = { state: 'installing', name, bytes: 0, total: null, message: null, controller };
      const current = ownInstall;
      const run = installOne(name, new Map(), signal, false).then((failure) => {
        if (ownInstall !== current) return;
        ownInstall = {
          ...current,
          state: signal.aborted ? 'cancelled' : failure ? 'failed' : 'installed',
          message: signal.aborted ? null : (failure ?? null),
        };
      });
      consoleRuns.add(run);
      void run.finally(() => consoleRuns.delete(run));
      return { started: true };
    },
    consoleInstall() {
      const { controller: _controller, ...state } = ownInstall;
      const entry = state.name ? progress.get(state.name) : undefined;
      return entry && state.state === 'installing'
        ? { ...state, bytes: entry.bytes, total: entry.total }
        : state;
    },
    cancel() {
      if (ownInstall.state !== 'installing' || !ownInstall.controller) return false;
      ownInstall.controller.abort(new Error('cancelled from the console'));
      return true;
    },
    start() {
      if (running) return;
      if (options.names.length === 0) {
        running = Promise.resolve();
        finish();
        return;
      }
      running = run()
        .catch((error: unknown) => {
          options.log.error({ err: error }, 'the default voices could not be installed');
        })
        .finally(finish);
    },
    installing: () => [...progress.values()].map((entry) => ({ ...entry })),
    settled,
    async close() {
      abort.abort(new Error('the server is shutting down'));
      await Promise.all([running, ...consoleRuns]);
    },
  };
}
