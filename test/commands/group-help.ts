// A command group's help page through trk's entry (src/cli.ts, in this process): the commands it lists, in order,
// and its examples, each joined into one line.
import { baseEnv, type Result, trk } from '../e2e/helpers.js';

export interface GroupHelp extends Result {
  /** The page: stdout for `--help`, stderr when the group is typed alone. */
  page: string;
  commands: string[];
  examples: string[];
}

export async function groupHelp(args: string[], env: NodeJS.ProcessEnv = baseEnv()): Promise<GroupHelp> {
  const r = await trk(args, { env });
  const page = r.stdout || r.stderr;
  const section = (name: string) => page.split(new RegExp(`^${name}:$`, 'm'))[1]?.split(/^\S/m)[0] ?? '';
  const commands = [...section('Commands').matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
  const examples = section('Examples')
    .replace(/ \\\n\s+/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('trk '));
  return { ...r, page, commands, examples };
}

/** The command an example runs below the group (`trk auth login ...` → login), or undefined for the group alone. */
export const exampleCommand = (group: string, example: string) =>
  example.startsWith(`trk ${group} `) ? example.split(/\s+/)[2] : undefined;
