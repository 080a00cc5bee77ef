// A Vitest reporter for npm test (scripts/test.mjs): writes the errors Vitest caught outside
// any test (an unhandled rejection, an exception after a test ended, a worker that died) to
// the JSON file named by PARLA_UNHANDLED_ERRORS, so the summary at the end of a long log can
// repeat them; the JSON reporter has no place for them.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_testModules, unhandledErrors) {
    const file = process.env.PARLA_UNHANDLED_ERRORS;
    if (!file) return;
    const errors = unhandledErrors.map((error) => ({
      name: error.name ?? 'Error',
      message: String(error.message ?? error),
      stack: String(error.stack ?? '')
        .split('\n')
        .slice(1, 6)
        .map((line) => line.trim()),
      // Where Vitest saw it: the test file and the test last running there.
      file: error.VITEST_TEST_PATH,
      test: error.VITEST_TEST_NAME,
    }));
    writeFileSync(file, JSON.stringify(errors));
  }
}
