/**
 * A warm server on a free port with a BUSINESS account, as the benchmarks measure it: the
 * conversion limits out of the way, no default voices to install, nothing logged.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { hashPassword } from '../src/lib/password.js';
import { createUserRepository } from '../src/services/accounts/user-repository.js';

export async function benchServer(
  name: string,
  env: Record<string, string> = {},
  options: Partial<BuildAppOptions> = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `parla-bench-${name}-`));
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEFAULT_VOICES: 'none', ...env }),
    webRoot: path.join(dataDir, 'no-web'),
    conversionsPerMinute: 1000,
    ...options,
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const user = await createUserRepository(app.db).create({
    email: 'bench@example.com',
    passwordHash: await hashPassword('correct horse battery'),
    plan: 'BUSINESS',
    terms: (await app.plans.catalogue()).BUSINESS,
    emailValidated: true,
  });
  const { token } = await app.tokens.issue(user.id, user.token_version);
  return { app, base, token, dataDir };
}
