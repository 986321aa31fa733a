#!/usr/bin/env node
import { run } from './program.js';

const code = await run(process.argv.slice(2));
// Let stdout drain before exiting; serve resolves only when the server has stopped.
process.exitCode = code;
