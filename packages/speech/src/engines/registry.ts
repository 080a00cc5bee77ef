import { SpeechError } from '../errors.js';
import { type AzureConfig, createAzureEngine } from './azure/index.js';
import { createEspeakEngine, type EspeakConfig } from './espeak/index.js';
import { createOpenAiEngine, type OpenAiConfig } from './openai/index.js';
import { createPiperEngine, type PiperConfig } from './piper/index.js';
import { createPollyEngines, type PollyConfig } from './polly/index.js';
import type { EngineVoice, SpeechEngine } from './types.js';

/**
 * The engines' configuration, plain data: the server builds it in its config module
 * (apps/server/src/config.ts) from the environment, the CLI from its options, and the pool
 * sends it to its worker threads. The library reads no environment variable.
 */
export interface SpeechConfig {
  espeak?: EspeakConfig;
  piper?: PiperConfig;
  /** Remote engines (cloud voices): present when the operator turned them on. */
  polly?: PollyConfig;
  azure?: AzureConfig;
  openai?: OpenAiConfig;
}

/** The configuration without its remote engines: what worker threads are given. */
export function localConfig(config: SpeechConfig): SpeechConfig {
  const { polly: _polly, azure: _azure, openai: _openai, ...local } = config;
  return local;
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

  /**
   * The engine whose voice this id names, or undefined: a provider's engine by the id's
   * first two parts (`neural:polly:Joanna` → `neural:polly`), else the product engine's own
   * (`standard:en-us` → `standard`).
   */
  forVoice(id: string): SpeechEngine | undefined {
    const [engine = '', provider] = id.split(':');
    return this.engines.get(`${engine}:${provider}`) ?? this.engines.get(engine);
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
      ...(config.polly ? createPollyEngines(config.polly) : []),
      ...(config.azure ? [createAzureEngine(config.azure)] : []),
      ...(config.openai ? [createOpenAiEngine(config.openai)] : []),
    ]);
    built.set(key, registry);
  }
  return registry;
}
