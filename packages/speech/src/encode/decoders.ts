/**
 * Ogg Vorbis decoded to mono PCM (the first channel), for providers whose best audio comes as
 * Ogg (Amazon Polly: PCM only up to 16 kHz, Ogg Vorbis at 22.05 and 24 kHz). libvorbis
 * compiled to WebAssembly (@wasm-audio-decoders/ogg-vorbis): no binaries, no install script;
 * loaded on first use, so that a command that never decodes (parla-say) does not load it.
 */
export async function decodeOggVorbis(
  bytes: Uint8Array,
): Promise<{ samples: Float32Array; sampleRate: number }> {
  const { OggVorbisDecoder } = await import('@wasm-audio-decoders/ogg-vorbis');
  const decoder = new OggVorbisDecoder();
  await decoder.ready;
  try {
    const result = await decoder.decodeFile(bytes);
    return { samples: result.channelData[0] ?? new Float32Array(0), sampleRate: result.sampleRate };
  } finally {
    decoder.free();
  }
}
