#!/usr/bin/env node
import module from 'node:module';

// Node's compile cache makes every start after the first one faster.
module.enableCompileCache?.();

const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
