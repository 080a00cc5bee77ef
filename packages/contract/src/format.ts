const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/**
 * A byte count as a human size with two decimals, in powers of 1024, B up to YB (SPEC §3):
 * 0 -> '0.00 B', 1536 -> '1.50 KB'. Sizes past YB stay in YB.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0.00 B';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  let value = bytes / 1024 ** exponent;
  let unit = exponent;
  // 1023.999 KB rounds to '1024.00 KB'; show it as the next unit instead.
  if (Number(value.toFixed(2)) >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}

/** Seconds as m:ss, or h:mm:ss from one hour (65 -> '1:05', 3725 -> '1:02:05'). */
export function formatDuration(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}
