#!/usr/bin/env node
// `parla-say` (this package's bin): runs its one-file bundle (or dist/cli.js), compiling first
// when needed.
import { launch, PARLA_SAY_BUNDLE } from '../../../scripts/lib.mjs';

await launch('packages/speech', 'dist/cli.js', 'parla-say', PARLA_SAY_BUNDLE);
