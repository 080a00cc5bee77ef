import type { BackendName, EspeakBackend } from './backend.js';
import { NativeBackend, type NativeSpawn } from './native-backend.js';
import { WasmBackend } from './wasm-backend.js';

/**
 * Which espeak-ng backend to use. `auto` takes the native program when it is installed and
 * the WebAssembly build otherwise. The server's configuration chooses (SPEECH_BACKEND).
 */
export type BackendChoice = BackendName | 'auto';

/** The native program's name or path when the configuration gives none. */
export const DEFAULT_ESPEAK_PROGRAM = 'espeak-ng';

let wasm: Promise<WasmBackend> | undefined;
const natives = new Map<string, Promise<NativeBackend | undefined>>();

export function wasmBackend(): Promise<WasmBackend> {
  wasm ??= WasmBackend.create();
  return wasm;
}

export function nativeBackend(
  program = DEFAULT_ESPEAK_PROGRAM,
  spawn: NativeSpawn = 'launcher',
): Promise<NativeBackend | undefined> {
  const key = `${spawn}|${program}`;
  let found = natives.get(key);
  if (!found) {
    found = NativeBackend.create(program, spawn);
    natives.set(key, found);
  }
  return found;
}

export async function nativeAvailable(
  program = DEFAULT_ESPEAK_PROGRAM,
  spawn: NativeSpawn = 'launcher',
): Promise<boolean> {
  return (await nativeBackend(program, spawn)) !== undefined;
}

export async function selectBackend(
  choice: BackendChoice,
  program = DEFAULT_ESPEAK_PROGRAM,
  spawn: NativeSpawn = 'launcher',
): Promise<EspeakBackend | undefined> {
  if (choice === 'wasm') return wasmBackend();
  const found = await nativeBackend(program, spawn);
  if (found) return found;
  if (choice === 'native') return undefined;
  return wasmBackend();
}
