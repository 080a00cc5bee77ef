/**
 * Local servers that speak the voice providers' APIs, for the tests of this package and of the
 * server (`@parla/speech/testing`, resolved from sources only: the product never ships them).
 */

/** Decodes Ogg Vorbis as a player would (the server's tests check the audiobooks it makes). */
export { decodeOgg, decodeWav, difference } from '../audio.js';
/** A tiny Piper voice generated on the spot (no model can be downloaded here). */
export { makeTestVoice } from '../test-voice.js';
export { type FakeAzure, startFakeAzure } from './azure-server.js';
export { type FakeOpenAi, startFakeOpenAi } from './openai-server.js';
export { type FakePolly, startFakePolly } from './polly-server.js';
export {
  kokoroArchive,
  startVoiceHosts,
  unreachableUrl,
  type VoiceHosts,
} from './voice-hosts.js';
