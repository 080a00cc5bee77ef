// node --import tsx --conditions=@parla/source scripts/run-main.mjs FILE [ARGS…]: runs a command
// module's main(argv) from its TypeScript source, as the tests run the commands without a build.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMain } from './lib.mjs';

const [file, ...argv] = process.argv.slice(2);
await runMain(pathToFileURL(path.resolve(file)).href, argv);
