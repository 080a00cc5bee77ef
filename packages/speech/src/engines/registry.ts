import { SpeechError } from '../errors.js';
import { createEspeakEngine, type EspeakConfig } from './espeak/index.js';
import { createPiperEngine, type PiperConfig } from './piper/index.js';
import type { EngineVoice, SpeechEngine } from './types.js';

/**
 * The engines' configuration, plain data: the server builds it in its config module
 * (apps/server/src/config.ts) from the environment, the CLI from its options, and the pool
 * sends it to its worker threads. The library reads no environment variable.
 */
export interface SpeechConfig {
  espeak?: EspeakConfig;
  piper?: PiperConfig;
}

/** The engines of one configuration, found by id (the prefix of their voice ids). */
export class EngineRegistry {
  private readonly engines: Map<string, SpeechEngine>;

  constructor(engines: readonly SpeechEngine[]) {
    this.engines = new Map(engines.map((engine) => [engine.id, engine]));
  }

  /** Every engine, in registration order. */
  all(): SpeechEngine[] {
    return [...this.engines.values()];
  }

  has(id: string): boolean {
    return this.engines.has(id);
  }

  get(id: string): SpeechEngine {
    const engine = this.engines.get(id);
    if (!engine) throw new SpeechError('bad_input', `engine: unknown engine "${id}".`);
    return engine;
  }

  /** The engine whose voice this id names (`standard:en-us` → standard), or undefined. */
  forVoice(id: string): SpeechEngine | undefined {
    return this.engines.get(id.split(':')[0] ?? '');
  }

  /** A voice by id across every engine. */
  async resolve(id: string): Promise<EngineVoice | undefined> {
    return this.forVoice(id)?.resolve(id);
  }

  /** A new registry with these engines added (a remote engine given by its caller). */
  with(extra: readonly SpeechEngine[]): EngineRegistry {
    return extra.length === 0 ? this : new EngineRegistry([...this.all(), ...extra]);
  }
}

const built = new Map<string, EngineRegistry>();

/**
 * The engines of a configuration; one line per engine. The same configuration answers the
 * same registry (engines hold loaded models and started programs).
 */
export function engineRegistry(config: SpeechConfig = {}): EngineRegistry {
  const key = JSON.stringify(config);
  let registry = built.get(key);
  if (!registry) {
    registry = new EngineRegistry([
      createEspeakEngine(config.espeak),
      createPiperEngine(config.piper),
    ]);
    built.set(key, registry);
  }
  return registry;
}
