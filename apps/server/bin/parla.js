#!/usr/bin/env node
// `parla` (this package's bin): runs dist/cli.js, compiling it first when needed.
import { launch } from '../../../scripts/lib.mjs';

await launch('apps/server', 'dist/cli.js', 'parla');
