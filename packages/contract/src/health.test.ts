import { describe, expect, it } from 'vitest';
import { installPercent, ReadyVoicesSchema } from './health.js';

describe('the voices being installed (GET /ready)', () => {
  it('reads /ready with or without installs, ignoring what the web app does not use', () => {
    const ready = ReadyVoicesSchema.parse({
      status: 'ready',
      database: true,
      voices: { installing: [{ name: 'kokoro-int8-multi-lang-v1_0', bytes: 10, total: 100 }] },
    });
    expect(ready).toEqual({
      status: 'ready',
      voices: { installing: [{ name: 'kokoro-int8-multi-lang-v1_0', bytes: 10, total: 100 }] },
    });
    expect(ReadyVoicesSchema.parse({ status: 'ready', database: true }).voices).toBeUndefined();
  });

  it('gives the whole percent of every install together, or nothing when a size is unknown', () => {
    expect(installPercent([{ name: 'a', bytes: 45_900, total: 100_000 }])).toBe(45);
    expect(
      installPercent([
        { name: 'a', bytes: 100, total: 100 },
        { name: 'b', bytes: 0, total: 300 },
      ]),
    ).toBe(25);
    expect(installPercent([{ name: 'a', bytes: 10, total: null }])).toBeUndefined();
    expect(installPercent([])).toBeUndefined();
    expect(installPercent([{ name: 'a', bytes: 200, total: 100 }])).toBe(100);
  });
});
