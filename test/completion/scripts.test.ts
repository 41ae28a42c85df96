import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandSpec, completionTree } from '../../src/completion/spec.js';
import { generateCompletion } from '../../src/completion/scripts.js';
import { powershellBalanced } from './powershell-syntax.js';

function program(): Command {
  const p = new Command('trk');
  p.option('--profile <name>', 'profile to use');
  p.addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'json', 'csv']));
  const list = p.command('list').description('list tracked numbers');
  list.addOption(new Option('--status <status>', 'main status').choices(['Delivered', 'InTransit']));
  list.option('--limit <n>', 'stop after n records');
  list.option('--json', 'print JSON');
  list.addOption(new Option('--carrier <carrier>', 'carrier code or name'));
  list.addOption(new Option('--columns <names>', 'columns').choices(['number', 'carrier', 'status']));
  const auth = p.command('auth').description('manage credentials');
  auth.command('login').description('save a key').option('--with-key-stdin', 'read the key from stdin');
  auth.command('logout').description('forget the key');
  auth.command('switch').description('change profile').argument('[profile]');
  p.command('completion')
    .description('print a script')
    .addArgument(new Argument('<shell>').choices(['bash', 'zsh', 'fish']));
  p.command('secret', { hidden: true });
  p.command('help').description('show help').argument('[topic...]');
  return p;
}

const TOPICS = [{ name: 'exit-codes', description: 'what each exit code means' }];

const hasShell = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

function writeScript(shell: 'bash' | 'zsh' | 'fish'): string {
  const dir = mkdtempSync(join(tmpdir(), 'trk-completion-'));
  const file = join(dir, `trk.${shell}`);
  writeFileSync(file, generateCompletion(shell, completionTree(program(), TOPICS)));
  return file;
}

/** A `trk` on PATH that answers `trk __complete profiles` as the real one does with two saved profiles. */
function fakeTrkDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trk-fake-'));
  const bin = join(dir, 'trk');
  const answers = [
    '[ "$1 $2" = "__complete profiles" ] && printf "shop-eu\\nshop-us\\n"',
    '[ "$1 $2" = "__complete carriers" ] && printf "China Post\\t3011 CN\\nChina EMS\\t3013 CN\\nDHL\\t100001 DE\\n"',
    'exit 0',
  ];
  writeFileSync(bin, `#!/bin/sh\n${answers.join('\n')}\n`, { mode: 0o755 });
  return dir;
}

/** Ask bash for completions of a command line whose last word is being completed. */
function bashComplete(line: string[]): string[] {
  const file = writeScript('bash');
  const words = line.map((w) => `'${w}'`).join(' ');
  const script =
    `source ${file}; COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; _trk_complete; printf ` +
    `'%s\\n' "\${COMPREPLY[@]}"`;
  const env = { ...process.env, PATH: `${fakeTrkDir()}:${process.env.PATH}` };
  return execFileSync('bash', ['-c', script], { encoding: 'utf8', env }).split('\n').filter(Boolean);
}

describe('command spec', () => {
  it('reads names, flags and choices from commander and leaves hidden commands out', () => {
    const spec = commandSpec(program());
    expect(spec.commands.map((c) => c.name)).toEqual(['list', 'auth', 'completion', 'help']);
    expect(spec.commands[2]!.argumentChoices).toEqual(['bash', 'zsh', 'fish']);
    const output = spec.options.find((o) => o.flags.includes('--output'));
    expect(output).toMatchObject({ flags: ['-o', '--output'], takesValue: true, choices: ['table', 'json', 'csv'] });
    expect(spec.options.find((o) => o.flags.includes('--profile'))?.dynamic).toBe('profiles');
    expect(spec.commands[1]!.commands.map((c) => c.name)).toEqual(['login', 'logout', 'switch']);
    expect(spec.commands[1]!.commands[2]!.argumentDynamic).toBe('profiles');
  });
});

describe('bash completion', () => {
  it('completes sub-commands at the top and below', () => {
    expect(bashComplete(['trk', ''])).toEqual(['list', 'auth', 'completion', 'help']);
    expect(bashComplete(['trk', 'auth', 'lo'])).toEqual(['login', 'logout']);
  });

  it('completes the fixed values of a positional argument', () => {
    expect(bashComplete(['trk', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(['trk', 'completion', 'f'])).toEqual(['fish']);
  });

  it('completes profile names, known only at run time, for --profile and auth switch', () => {
    expect(bashComplete(['trk', '--profile', 'shop-'])).toEqual(['shop-eu', 'shop-us']);
    expect(bashComplete(['trk', 'auth', 'switch', 'shop-u'])).toEqual(['shop-us']);
  });

  it('completes the flags of the command typed so far', () => {
    expect(bashComplete(['trk', 'list', '--'])).toEqual([
      '--status',
      '--limit',
      '--json',
      '--carrier',
      '--columns',
      '--profile',
      '--output',
      '--help',
    ]);
    expect(bashComplete(['trk', 'auth', 'login', '--w'])).toEqual(['--with-key-stdin']);
  });

  it('completes the values of enum flags', () => {
    expect(bashComplete(['trk', 'list', '--status', 'D'])).toEqual(['Delivered']);
    expect(bashComplete(['trk', '-o', ''])).toEqual(['table', 'json', 'csv']);
    expect(bashComplete(['trk', 'list', '--output', 'j'])).toEqual(['json']);
  });

  it('completes the value after the last comma of a list (--columns a,b)', () => {
    expect(bashComplete(['trk', 'list', '--status', 'Delivered,I'])).toEqual(['Delivered,InTransit']);
    // A value already in the list is not offered again.
    expect(bashComplete(['trk', 'list', '--status', 'InTransit,'])).toEqual(['InTransit,Delivered']);
  });

  it('trk help offers the commands and the topics, and below a group its commands, never files', () => {
    expect(bashComplete(['trk', 'help', ''])).toEqual(['list', 'auth', 'completion', 'exit-codes']);
    expect(bashComplete(['trk', 'help', 'auth', 'lo'])).toEqual(['login', 'logout']);
  });

  it('--carrier offers carrier names from trk __complete carriers, any case, escaped for the shell', () => {
    expect(bashComplete(['trk', 'list', '--carrier', 'chi'])).toEqual(['China\\ Post', 'China\\ EMS']);
    expect(bashComplete(['trk', 'list', '--carrier', 'D'])).toEqual(['DHL']);
  });

  it('--columns a,<Tab> offers the columns not given yet', () => {
    expect(bashComplete(['trk', 'list', '--columns', 'number,'])).toEqual(['number,carrier', 'number,status']);
    expect(bashComplete(['trk', 'list', '--columns', 'number,status,'])).toEqual(['number,status,carrier']);
  });

  it('does not offer sub-commands after a flag value that looks like one', () => {
    expect(bashComplete(['trk', 'list', '--limit', '5', '--st'])).toEqual(['--status']);
  });
});

describe.runIf(hasShell('zsh'))('zsh completion', () => {
  it('is valid zsh', () => {
    const r = spawnSync('zsh', ['-n', writeScript('zsh')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  /**
   * Runs the completion function with zsh's completion builtins replaced by stubs that print what they were
   * given (compadd and _describe filter by the typed prefix themselves, so all candidates are printed).
   */
  function zshComplete(line: string[]): string[] {
    const stubs = [
      'compdef() { : }',
      // As zsh's own: the part up to the last comma moves to IPREFIX.
      'compset() { [[ $1 == -P && $PREFIX == *,* ]] || return 1; IPREFIX=${PREFIX%,*},; PREFIX=${PREFIX##*,} }',
      '_describe() { local arr=${@[-1]}; print -l -- ${(P)arr} }',
      'compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} }',
      '_files() { print -- FILES }',
    ].join('\n');
    const words = line.map((w) => `'${w}'`).join(' ');
    const script =
      `${stubs}\nsource ${writeScript('zsh')}\nwords=(${words}); CURRENT=${line.length}; ` +
      `PREFIX=${words.split(' ').at(-1)}; _trk`;
    const env = { ...process.env, PATH: `${fakeTrkDir()}:${process.env.PATH}` };
    const r = spawnSync('zsh', ['-f', '-c', script], { encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  }

  it('offers sub-commands with descriptions, flags, enum values and argument values', () => {
    expect(zshComplete(['trk', 'au'])).toEqual([
      'list:list tracked numbers',
      'auth:manage credentials',
      'completion:print a script',
      'help:show help',
    ]);
    expect(zshComplete(['trk', 'auth', ''])).toEqual([
      'login:save a key',
      'logout:forget the key',
      'switch:change profile',
    ]);
    expect(zshComplete(['trk', 'list', '--status', 'D'])).toEqual(['Delivered', 'InTransit']);
    expect(zshComplete(['trk', 'list', '--st'])).toContain('--status:main status');
    expect(zshComplete(['trk', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(zshComplete(['trk', 'list', '--limit', ''])).toEqual(['FILES']);
  });

  it(
    'trk help offers commands and topics; --carrier offers carrier names; --columns a, the columns not ' + 'given yet',
    () => {
      expect(zshComplete(['trk', 'help', ''])).toEqual([
        'list:list tracked numbers',
        'auth:manage credentials',
        'completion:print a script',
        'exit-codes:what each exit code means',
      ]);
      expect(zshComplete(['trk', 'help', 'auth', ''])).toEqual([
        'login:save a key',
        'logout:forget the key',
        'switch:change profile',
      ]);
      expect(zshComplete(['trk', 'list', '--carrier', ''])).toEqual(['China Post', 'China EMS', 'DHL']);
      expect(zshComplete(['trk', 'list', '--columns', 'number,'])).toEqual(['carrier', 'status']);
    },
  );
});

describe.runIf(hasShell('fish'))('fish completion', () => {
  it('completes sub-commands, flags and enum values', () => {
    const file = writeScript('fish');
    const env = { ...process.env, PATH: `${fakeTrkDir()}:${process.env.PATH}` };
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`], { encoding: 'utf8', env })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(complete('trk au')).toEqual(['auth']);
    expect(complete('trk auth log')).toEqual(['login', 'logout']);
    expect(complete('trk list --status D')).toEqual(['Delivered']);
    expect(complete('trk list --status InTransit,D')).toEqual(['InTransit,Delivered']);
    expect(complete('trk completion z')).toEqual(['zsh']);
    expect(complete('trk list --carrier chi')).toEqual(['China EMS', 'China Post']);
    expect(complete('trk help ')).toEqual(['auth', 'completion', 'exit-codes', 'list']);
    expect(complete('trk help auth lo')).toEqual(['login', 'logout']);
    expect(complete('trk list --columns number,')).toEqual(['number,carrier', 'number,status']);
  });
});

describe('PowerShell completion (its structure: no PowerShell runs here)', () => {
  const script = generateCompletion('powershell', completionTree(program(), TOPICS));

  it('registers a native argument completer for trk, with balanced brackets and closed strings', () => {
    expect(script).toMatch(/^# PowerShell completion for trk/);
    expect(script).toContain('Register-ArgumentCompleter -Native -CommandName trk -ScriptBlock {');
    expect(powershellBalanced(script)).toBe(true);
    expect(powershellBalanced("$a = @{ 'x' = 'it''s' }")).toBe(true);
    expect(powershellBalanced("$a = @{ 'x' = 'open }")).toBe(false);
  });

  it('names every command and every flag of the tree, the values of enum flags and the run-time ones', () => {
    expect(script).toContain("$__trkSubcommands[''] = @('list', 'auth', 'completion', 'help')");
    expect(script).toContain("$__trkSubcommands['auth'] = @('login', 'logout', 'switch')");
    expect(script).toContain("$__trkSubcommands['help'] = @('list', 'auth', 'completion', 'exit-codes')");
    expect(script).toContain(
      "$__trkOptions['list'] = @('--status', '--limit', '--json', '--carrier', '--columns', '--profile', '-o', " +
        "'--output', '-h', '--help')",
    );
    expect(script).toContain("$__trkValues['list|--status'] = @('Delivered', 'InTransit')");
    expect(script).toContain("$__trkDynamic['list|--carrier'] = 'carriers'");
    expect(script).toContain("$__trkDynamic['|--profile'] = 'profiles'");
    expect(script).toContain("$__trkArguments['completion'] = @('bash', 'zsh', 'fish')");
    expect(script).toContain("$__trkArgumentDynamic['auth switch'] = 'profiles'");
    expect(script).toContain("$__trkHelp['auth|login'] = 'save a key'");
  });
});
