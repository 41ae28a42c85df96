#!/usr/bin/env node
// trk-sandbox: the service emulator in the foreground (see ../README.md). Ctrl-C stops it and saves its state.
import { main } from '../dist/cli.js';

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.exitCode = await main(
  process.argv.slice(2),
  { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) },
  stop.signal,
);
