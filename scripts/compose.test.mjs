// compose.yaml holds together (docs/decisions/039, 050): its structure checked against the
// repository it runs, and CI's override (.ci/compose/compose.ci.yaml) changing images and
// variables only. scripts/compose-test.mjs runs it for real. Run by npm test with the other
// tests of scripts/.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './lib.mjs';

const compose = parse(readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true });
const services = compose.services;
const config = readFileSync(path.join(ROOT, 'apps/server/src/config.ts'), 'utf8');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

describe('compose.yaml', () => {
  it('runs Parla, a worker, PostgreSQL, Redis and an S3-compatible store', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['parla', 'worker', 'postgres', 'redis', 'minio']),
    );
    for (const name of ['parla', 'worker']) {
      expect(services[name].build, name).toBe('.');
      expect(services[name].image, name).toBe(services.parla.image);
    }
    const worker = services.worker.command;
    expect(worker.at(-1)).toBe('worker');
    expect(existsSync(path.join(ROOT, worker.at(-2)))).toBe(true);
    // The server listens on the image's port, published on PARLA_PORT (the same by default).
    const exposed = dockerfile.match(/^EXPOSE (\d+)$/m)?.[1];
    expect(services.parla.ports).toEqual([`\${PARLA_PORT:-${exposed}}:${exposed}`]);
  });

  it('gives the server and the worker only variables the server reads, naming the services', () => {
    for (const name of ['parla', 'worker']) {
      const environment = services[name].environment;
      for (const variable of Object.keys(environment)) {
        expect(config, `${name}: ${variable}`).toMatch(new RegExp(`\\b${variable}\\b`));
      }
      expect(new URL(environment.DATABASE_URL).hostname).toBe('postgres');
      expect(new URL(environment.REDIS_URL).hostname).toBe('redis');
      expect(new URL(environment.S3_ENDPOINT).hostname).toBe('minio');
      expect(environment.S3_BUCKET).toBe('parla');
    }
    // The worker stores audio where the server reads it, and has the same voices.
    expect(services.worker.environment).toEqual(services.parla.environment);
    expect(services.worker.volumes).toEqual(services.parla.volumes);
    expect(services.bucket.entrypoint.at(-1)).toBe(`store/${services.parla.environment.S3_BUCKET}`);
  });

  it('declares every volume it mounts and starts nothing before what it depends on', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        expect(Object.keys(compose.volumes), `${name}: ${volume}`).toContain(volume.split(':')[0]);
      }
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect(Object.keys(services), `${name} depends on ${dependency}`).toContain(dependency);
      }
    }
    expect(services.parla.volumes).toContain('data:/data');
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
  });

  it('is run in CI with stand-in images and no voice download, nothing else changed', () => {
    const override = parse(
      readFileSync(path.join(ROOT, '.ci/compose/compose.ci.yaml'), 'utf8'),
    ).services;
    for (const [name, service] of Object.entries(override)) {
      expect(Object.keys(services), name).toContain(name);
      // podman-compose 1.0.3 appends an override's lists to compose.yaml's: images and
      // variables only.
      for (const key of Object.keys(service)) expect(['image', 'environment'], name).toContain(key);
      if (service.image) expect(service.image, name).toMatch(/^localhost\/parla-ci-/);
    }
    expect(override.parla.environment).toEqual({ DEFAULT_VOICES: 'none' });
    expect(override.worker.environment).toEqual(override.parla.environment);
  });
});
