import type { BackendName, EspeakBackend } from './backend.js';
import { NativeBackend } from './native-backend.js';
import { WasmBackend } from './wasm-backend.js';

/**
 * Which espeak-ng backend to use. `auto` takes the native program when it is installed and
 * the WebAssembly build otherwise; PARLA_SPEECH_BACKEND=wasm|native|auto sets the default.
 */
export type BackendChoice = BackendName | 'auto';

export function defaultBackendChoice(): BackendChoice {
  const env = process.env.PARLA_SPEECH_BACKEND;
  return env === 'wasm' || env === 'native' || env === 'auto' ? env : 'auto';
}

let wasm: Promise<WasmBackend> | undefined;
let native: Promise<NativeBackend | undefined> | undefined;

export function wasmBackend(): Promise<WasmBackend> {
  wasm ??= WasmBackend.create();
  return wasm;
}

export function nativeBackend(): Promise<NativeBackend | undefined> {
  native ??= NativeBackend.create(process.env.PARLA_ESPEAK_NG ?? 'espeak-ng');
  return native;
}

export async function nativeAvailable(): Promise<boolean> {
  return (await nativeBackend()) !== undefined;
}

export async function selectBackend(choice: BackendChoice): Promise<EspeakBackend> {
  if (choice === 'wasm') return wasmBackend();
  const found = await nativeBackend();
  if (found) return found;
  if (choice === 'native') throw new Error('the espeak-ng program is not installed');
  return wasmBackend();
}
