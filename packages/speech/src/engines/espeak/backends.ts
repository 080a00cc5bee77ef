import type { BackendName, EspeakBackend } from './backend.js';
import { NativeBackend, type NativeSpawn } from './native-backend.js';
import { WasmBackend } from './wasm-backend.js';

/**
 * Which espeak-ng backend to use. `auto` takes native espeak-ng when it is installed and the
 * WebAssembly build otherwise; `native` renders through libespeak-ng where it is installed,
 * else the program; `program` always starts the program (each rendering its own process, word
 * events from the WebAssembly build beside it: decision 019). The server's configuration
 * chooses (PARLA_SPEECH_BACKEND).
 */
export type BackendChoice = BackendName | 'auto' | 'program';

/** The native program's name or path when the configuration gives none. */
export const DEFAULT_ESPEAK_PROGRAM = 'espeak-ng';

let wasm: Promise<WasmBackend> | undefined;
const natives = new Map<string, Promise<NativeBackend | undefined>>();

export function wasmBackend(): Promise<WasmBackend> {
  wasm ??= WasmBackend.create();
  return wasm;
}

/** `library`: libespeak-ng where installed (true), or always the program (false). */
export function nativeBackend(
  program = DEFAULT_ESPEAK_PROGRAM,
  spawn: NativeSpawn = 'launcher',
  library = true,
): Promise<NativeBackend | undefined> {
  const key = `${spawn}|${library}|${program}`;
  let found = natives.get(key);
  if (!found) {
    found = NativeBackend.create(program, spawn, library);
    natives.set(key, found);
  }
  return found;
}

/**
 * Closes this thread's native backends (their launcher processes and data mirrors): a speech
 * worker does before its thread ends. A later call starts them anew.
 */
export async function closeNativeBackends(): Promise<void> {
  const found = [...natives.values()];
  natives.clear();
  await Promise.all(found.map(async (backend) => (await backend.catch(() => undefined))?.close()));
}

export async function nativeAvailable(
  program = DEFAULT_ESPEAK_PROGRAM,
  spawn: NativeSpawn = 'launcher',
  library = true,
): Promise<boolean> {
  return (await nativeBackend(program, spawn, library)) !== undefined;
}

export async function selectBackend(
  choice: BackendChoice,
  program = DEFAULT_ESPEAK_PROGRAM,
  spawn: NativeSpawn = 'launcher',
): Promise<EspeakBackend | undefined> {
  if (choice === 'wasm') return wasmBackend();
  const found = await nativeBackend(program, spawn, choice !== 'program');
  if (found) return found;
  if (choice === 'native' || choice === 'program') return undefined;
  return wasmBackend();
}
