// The PowerShell completion script: tables of the command tree (sub-commands and flags with their descriptions,
// the values of enum flags, the flags whose values trk lists at run time) and one argument completer that walks
// the words typed before the cursor as the bash, zsh and fish scripts do.

import type { CommandSpec } from './spec.js';
import { HEADER, valueOptions, walk } from './tree.js';

/** A PowerShell string literal: single quotes, a quote inside doubled. */
const psWord = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * A table, one entry a line. Case-sensitive: a hashtable literal (`@{}`) compares keys ignoring case, and `-V` and
 * `-v` are two flags.
 */
function table(name: string, entries: readonly (readonly [string, string])[]): string[] {
  return [
    `$${name} = [System.Collections.Hashtable]::new([System.StringComparer]::Ordinal)`,
    ...entries.map(([key, value]) => `$${name}[${psWord(key)}] = ${value}`),
  ];
}

const list = (values: readonly string[]) => `@(${values.map(psWord).join(', ')})`;

/** Tooltips of a command's sub-commands and flags; a flag said the same way as trk's own is left to trk's. */
function tips(path: string, spec: CommandSpec, root: CommandSpec): (readonly [string, string])[] {
  const global = new Set(root.options.flatMap((o) => o.flags.map((f) => `${f}|${o.description}`)));
  const commands = spec.commands
    .filter((c) => c.description)
    .map((c) => [`${path}|${c.name}`, psWord(c.description)] as const);
  const flags = spec.options
    .filter((o) => o.description)
    .flatMap((o) =>
      o.flags
        .filter((f) => path === '' || !global.has(`${f}|${o.description}`))
        .map((f) => [`${path}|${f}`, psWord(o.description)] as const),
    );
  return [...commands, ...flags];
}

const COMPLETER = `Register-ArgumentCompleter -Native -CommandName trk -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  # The words before the one being completed, without the program's name.
  $before = @($commandAst.CommandElements | Select-Object -Skip 1 |
    Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.ToString() })
  $trail = ''
  foreach ($w in $before) {
    if ($w.StartsWith('-')) { continue }
    if (@($__trkSubcommands[$trail]) -ccontains $w) {
      $trail = if ($trail) { "$trail $w" } else { $w }
    }
  }
  $prev = if ($before.Count -gt 0) { $before[-1] } else { '' }
  $key = "$trail|$prev"
  $quote = { param($t) if ($t -match '[\\s''"$;,(){}@&|\`]') { "'" + ($t -replace "'", "''") + "'" } else { $t } }
  $tip = { param($name)
    foreach ($k in @("$trail|$name", "|$name")) { if ($__trkHelp[$k]) { return $__trkHelp[$k] } }
    $name
  }
  if ($__trkTakesValue.ContainsKey($key)) {
    # Lists of values (--columns number,status,...): the value after the last comma is completed, and values
    # already in the list are not offered again.
    $cut = $wordToComplete.LastIndexOf(',') + 1
    $head = $wordToComplete.Substring(0, $cut)
    $word = [System.Management.Automation.WildcardPattern]::Escape($wordToComplete.Substring($cut))
    $given = $head.Split(',')
    $values = if ($__trkDynamic.ContainsKey($key)) {
      @(& trk __complete $__trkDynamic[$key] 2>$null | ForEach-Object { ($_ -split "\`t")[0] })
    } else { @($__trkValues[$key]) }
    foreach ($v in $values) {
      if ($v -and $v -like "$word*" -and $given -notcontains $v) {
        [System.Management.Automation.CompletionResult]::new((& $quote "$head$v"), $v, 'ParameterValue', $v)
      }
    }
    return
  }
  if ($wordToComplete.StartsWith('-')) {
    foreach ($o in @($__trkOptions[$trail])) {
      if ($o -and $o -like "$wordToComplete*") {
        [System.Management.Automation.CompletionResult]::new($o, $o, 'ParameterName', (& $tip $o))
      }
    }
    return
  }
  foreach ($s in @($__trkSubcommands[$trail])) {
    if ($s -and $s -like "$wordToComplete*") {
      [System.Management.Automation.CompletionResult]::new($s, $s, 'Command', (& $tip $s))
    }
  }
  if (-not $__trkSubcommands.ContainsKey($trail)) {
    $values = if ($__trkArgumentDynamic.ContainsKey($trail)) {
      @(& trk __complete $__trkArgumentDynamic[$trail] 2>$null | ForEach-Object { ($_ -split "\`t")[0] })
    } else { @($__trkArguments[$trail]) }
    foreach ($v in $values) {
      if ($v -and $v -like "$wordToComplete*") {
        [System.Management.Automation.CompletionResult]::new((& $quote $v), $v, 'ParameterValue', $v)
      }
    }
  }
}
`;

export function powershell(root: CommandSpec): string {
  const nodes = walk(root);
  const withSubs = nodes.filter((n) => n.spec.commands.length > 0);
  const withOptions = nodes.filter((n) => n.spec.options.length > 0);
  const values = nodes.flatMap((n) => valueOptions(n).map(({ flag, opt }) => ({ key: `${n.path}|${flag}`, opt })));
  const lines = [
    `# PowerShell completion for trk (${HEADER})`,
    '# Install: add  trk completion powershell | Out-String | Invoke-Expression  to your $PROFILE, or save the',
    '# script (trk completion powershell > trk.ps1) and dot-source it there.',
    ...table(
      '__trkSubcommands',
      withSubs.map((n) => [n.path, list(n.spec.commands.map((c) => c.name))] as const),
    ),
    ...table(
      '__trkOptions',
      withOptions.map((n) => [n.path, list(n.spec.options.flatMap((o) => o.flags))] as const),
    ),
    // What each sub-command and flag does, by "path|name": the tooltip of its completion.
    ...table(
      '__trkHelp',
      nodes.flatMap((n) => tips(n.path, n.spec, root)),
    ),
    ...table(
      '__trkTakesValue',
      values.map(({ key }) => [key, '$true'] as const),
    ),
    ...table(
      '__trkValues',
      values.filter(({ opt }) => opt.choices).map(({ key, opt }) => [key, list(opt.choices!)] as const),
    ),
    ...table(
      '__trkDynamic',
      values.filter(({ opt }) => opt.dynamic).map(({ key, opt }) => [key, psWord(opt.dynamic!)] as const),
    ),
    ...table(
      '__trkArguments',
      nodes.filter((n) => n.spec.argumentChoices).map((n) => [n.path, list(n.spec.argumentChoices!)] as const),
    ),
    ...table(
      '__trkArgumentDynamic',
      nodes.filter((n) => n.spec.argumentDynamic).map((n) => [n.path, psWord(n.spec.argumentDynamic!)] as const),
    ),
    COMPLETER,
  ];
  return `${lines.join('\n')}`;
}
