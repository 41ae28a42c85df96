#!/usr/bin/env node
// `trk --version` is answered here, before anything else is loaded (commander, the command tree): scripts ask
// for it to check what is installed, and it should cost no more than starting Node. Help pages come from the file
// the build writes (src/help-pages.ts) when it holds the one asked for.
const argv = process.argv.slice(2);
const asksHelp = argv[0] === 'help' || argv.at(-1) === '--help' || argv.at(-1) === '-h';
// Node's own object, as src/core/node.ts hands it out to the rest of trk, which is not loaded yet.
const { readFileSync } = process.getBuiltinModule('node:fs');
let page;
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  let version = '0.0.0';
  try {
    version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version ?? version;
  } catch {
    // as commander's --version would say for an unreadable package.json (src/cli.ts)
  }
  process.stdout.write(`${version}\n`);
} else if (
  asksHelp &&
  (page = (await import('../lib/help-pages.js')).storedHelpPage(argv, process.stdout, process.stderr, readFileSync)) !==
    undefined
) {
  process.stdout.write(page);
} else {
  // Node's compile cache makes every start after the first one faster.
  process.getBuiltinModule('node:module').enableCompileCache?.();
  const { main } = await import('../lib/cli.js');
  process.exitCode = await main(argv);
}
