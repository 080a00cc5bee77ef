#!/usr/bin/env node
// `npm run voices` (the root package's script): runs dist/voices-cli.js, compiling it first when needed.
import { launch } from '../../../scripts/lib.mjs';

await launch('packages/speech', 'dist/voices-cli.js', 'voices');
