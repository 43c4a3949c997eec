#!/usr/bin/env node
import { processIo } from '@triad/device-templates';
import { runCli } from './program.js';

// `serve` resolves only after its servers have shut down, so every command ends here.
process.exitCode = await runCli(process.argv.slice(2), processIo());
