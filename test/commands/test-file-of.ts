// Where a command's tests live: beside it, at its file's path under test/ (src/commands/<noun>/<verb>.ts has
// test/commands/<noun>/<verb>.test.ts).

/** The test file a command file should have beside it in test/commands/. */
export function testFileOf(commandFile: string): string {
  return commandFile.replace(/^src\/commands\//, 'test/commands/').replace(/\.ts$/, '.test.ts');
}
