#!/usr/bin/env node
// `parla-say` (this package's bin): runs dist/cli.js, compiling it first when needed.
import { launch } from '../../../scripts/lib.mjs';

await launch('packages/speech', 'dist/cli.js', 'parla-say');
