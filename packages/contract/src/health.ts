import * as z from 'zod/mini';

// GET /ready: the part the web app reads (issue 29) ------------------------------------------

/** A default voice being downloaded and installed (apps/server/src/services/voice-installer.ts). */
export const VoiceInstallSchema = z.object({
  name: z.string(),
  bytes: z.number(),
  /** Bytes of the whole download, when known. */
  total: z.nullable(z.number()),
});
export type VoiceInstall = z.output<typeof VoiceInstallSchema>;

/** `voices` is present while the server installs DEFAULT_VOICES; the rest is not read here. */
export const ReadyVoicesSchema = z.object({
  status: z.string(),
  voices: z.optional(z.object({ installing: z.array(VoiceInstallSchema) })),
});
export type ReadyVoices = z.output<typeof ReadyVoicesSchema>;

/** How far the installs are, 0 to 100 (whole percent), or undefined when no size is known. */
export function installPercent(installs: readonly VoiceInstall[]): number | undefined {
  const total = installs.reduce((sum, install) => sum + (install.total ?? 0), 0);
  if (total <= 0 || installs.some((install) => install.total === null)) return undefined;
  const bytes = installs.reduce(
    (sum, install) => sum + Math.min(install.bytes, install.total ?? 0),
    0,
  );
  return Math.min(100, Math.floor((bytes / total) * 100));
}
