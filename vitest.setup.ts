import { afterEach, beforeEach, vi } from 'vitest';

// CONVENTIONS.md §12: an unexpected console.error fails the test that caused it.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (consoleErrors.length > 0) {
    throw new Error(
      `Unexpected console.error: ${consoleErrors.map((a) => a.map(String).join(' ')).join('\n')}`,
    );
  }
});
