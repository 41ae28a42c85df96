// Completion scripts for bash, zsh, fish and PowerShell, generated from the command tree (see spec.ts). Each
// script finds the command path typed so far (only known sub-command names advance it), then offers sub-commands,
// flags, or the values of the flag being completed.

import { powershell } from './powershell.js';
import type { Shell } from './shells.js';
import type { CommandSpec, OptionSpec } from './spec.js';
import { HEADER, valueOptions, walk } from './tree.js';

export { SHELLS, type Shell } from './shells.js';

const shellWord = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function valuesCommand(opt: OptionSpec, prefix: string): string {
  if (opt.dynamic) return `${prefix} __complete ${opt.dynamic} 2>/dev/null`;
  return opt.choices ? `printf '%s\\n' ${opt.choices.map(shellWord).join(' ')}` : '';
}

export function generateCompletion(shell: Shell, root: CommandSpec): string {
  switch (shell) {
    case 'bash':
      return bash(root);
    case 'zsh':
      return zsh(root);
    case 'fish':
      return fish(root);
    case 'powershell':
      return powershell(root);
  }
}

/** Shared between bash and zsh: the same POSIX-ish helper functions. */
function helperFunctions(root: CommandSpec, prog: string, withDescriptions: boolean): string {
  const nodes = walk(root);
  const subs = nodes
    .filter((n) => n.spec.commands.length > 0)
    .map((n) => {
      const names = n.spec.commands.map((c) =>
        withDescriptions ? `${c.name.replace(/:/g, '\\:')}:${c.description}` : c.name,
      );
      return `    ${shellWord(n.path)}) printf '%s\\n' ${names.map(shellWord).join(' ')} ;;`;
    });
  const opts = nodes
    .filter((n) => n.spec.options.length > 0)
    .map((n) => {
      const words = n.spec.options.flatMap((o) =>
        o.flags.map((f) => (withDescriptions ? `${f.replace(/:/g, '\\:')}:${o.description}` : f)),
      );
      return `    ${shellWord(n.path)}) printf '%s\\n' ${words.map(shellWord).join(' ')} ;;`;
    });
  const argValues = nodes.flatMap((n) => {
    if (n.spec.argumentDynamic)
      return [`    ${shellWord(n.path)}) ${prog} __complete ${n.spec.argumentDynamic} 2>/dev/null ;;`];
    if (n.spec.argumentChoices)
      return [`    ${shellWord(n.path)}) printf '%s\\n' ${n.spec.argumentChoices.map(shellWord).join(' ')} ;;`];
    return [];
  });
  const takes = nodes.flatMap((n) => valueOptions(n).map(({ flag }) => shellWord(`${n.path}|${flag}`)));
  // Flags of run-time values: nothing to offer (no cache yet) is not a reason to offer files.
  const dynamic = nodes.flatMap((n) =>
    valueOptions(n)
      .filter(({ opt }) => opt.dynamic)
      .map(({ flag }) => shellWord(`${n.path}|${flag}`)),
  );
  const values = nodes.flatMap((n) =>
    valueOptions(n)
      .filter(({ opt }) => opt.choices || opt.dynamic)
      .map(({ flag, opt }) => `    ${shellWord(`${n.path}|${flag}`)}) ${valuesCommand(opt, prog)} ;;`),
  );
  return [
    `_${prog}_subcommands() {`,
    '  case "$1" in',
    ...subs,
    '  esac',
    '}',
    `_${prog}_options() {`,
    '  case "$1" in',
    ...opts,
    '  esac',
    '}',
    `_${prog}_argument_values() {`,
    '  case "$1" in',
    ...argValues,
    '  esac',
    '}',
    `_${prog}_takes_value() {`,
    '  case "$1|$2" in',
    `    ${takes.join('|\\\n    ')}) return 0 ;;`,
    '  esac',
    '  return 1',
    '}',
    `_${prog}_dynamic() {`,
    ...(dynamic.length > 0 ? ['  case "$1|$2" in', `    ${dynamic.join('|\\\n    ')}) return 0 ;;`, '  esac'] : []),
    '  return 1',
    '}',
    `_${prog}_values() {`,
    '  case "$1|$2" in',
    ...values,
    '  esac',
    '}',
    `_${prog}_path() {`,
    '  # Arguments: the words typed before the current one, without the program name.',
    '  local trail="" w',
    '  for w in "$@"; do',
    '    case "$w" in -*) continue ;; esac',
    `    if _${prog}_subcommands "$trail" | cut -d: -f1 | grep -qxF -- "$w"; then`,
    '      trail="${trail:+$trail }$w"',
    '    fi',
    '  done',
    '  printf %s "$trail"',
    '}',
  ].join('\n');
}

function bash(root: CommandSpec): string {
  const p = root.name;
  return `# bash completion for ${p} (${HEADER})
# Install: source this file from ~/.bashrc, or copy it to ~/.local/share/bash-completion/completions/${p}
${helperFunctions(root, p, false)}
# The values on stdin (one a line; a TAB and a description may follow) that complete the word $1, any case.
# Lists (--columns number,status,...): the value after the last comma is completed, and values already in the
# list are not offered again. Values with spaces (carrier names) are escaped.
_${p}_offer() {
  local cur="$1" head="" word value
  [[ "$cur" == *,* ]] && head="\${cur%,*},"
  word="\${cur##*,}"
  COMPREPLY=()
  while IFS= read -r value; do
    value="\${value%%$'\t'*}"
    [ -n "$value" ] || continue
    [[ ",$head" == *",$value,"* ]] && continue
    [[ "\${value,,}" == "\${word,,}"* ]] || continue
    printf -v value '%q' "$head$value"
    COMPREPLY+=("\${value//\\\\,/,}")
  done
}
_${p}_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local trail values subs
  trail="$(_${p}_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  if [ "$COMP_CWORD" -gt 1 ] && _${p}_takes_value "$trail" "$prev"; then
    values="$(_${p}_values "$trail" "$prev")"
    if [ -n "$values" ]; then
      _${p}_offer "$cur" <<< "$values"
    elif ! _${p}_dynamic "$trail" "$prev"; then
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_${p}_options "$trail")" -- "$cur")
    return 0
  fi
  subs="$(_${p}_subcommands "$trail")"
  [ -n "$subs" ] || subs="$(_${p}_argument_values "$trail")"
  if [ -n "$subs" ]; then
    mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -F _${p}_complete ${p}
`;
}

function zsh(root: CommandSpec): string {
  const p = root.name;
  return `#compdef ${p}
# zsh completion for ${p} (${HEADER})
# Install: copy to a folder in $fpath as _${p} (e.g. ~/.zfunc/_${p} with fpath+=(~/.zfunc)), then compinit.
${helperFunctions(root, p, true)}
_${p}() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  local trail
  local -a items
  trail="$(_${p}_path "\${(@)words[2,CURRENT-1]}")"
  if (( CURRENT > 2 )) && _${p}_takes_value "$trail" "$prev"; then
    items=("\${(@f)$(_${p}_values "$trail" "$prev")}")
    items=("\${(@)items%%$'\t'*}")
    if (( \${#items[@]} )) && [[ -n "\${items[1]}" ]]; then
      # Lists of values (--columns number,status,...): the value after the last comma is completed, and values
      # already in the list are not offered again.
      local -a given
      compset -P '*,' && given=("\${(@s:,:)IPREFIX}")
      items=("\${(@)items:|given}")
      compadd -a items
    elif ! _${p}_dynamic "$trail" "$prev"; then
      _files
    fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    items=("\${(@f)$(_${p}_options "$trail")}")
    _describe -t options 'option' items
    return
  fi
  items=("\${(@f)$(_${p}_subcommands "$trail")}")
  if (( \${#items[@]} )) && [[ -n "\${items[1]}" ]]; then
    _describe -t commands 'command' items
    return
  fi
  items=("\${(@f)$(_${p}_argument_values "$trail")}")
  if (( \${#items[@]} )) && [[ -n "\${items[1]}" ]]; then
    compadd -a items
  else
    _files
  fi
}
if [[ "$funcstack[1]" == "_${p}" ]]; then
  _${p} "$@"
else
  compdef _${p} ${p}
fi
`;
}

function fish(root: CommandSpec): string {
  const p = root.name;
  const nodes = walk(root);
  const pairs = nodes.flatMap((n) => n.spec.commands.map((c) => shellWord(`${n.path}|${c.name}`)));
  const lines: string[] = [
    `# fish completion for ${p} (${HEADER})`,
    `# Install: copy to ~/.config/fish/completions/${p}.fish`,
    `set -g __${p}_subcommand_pairs ${pairs.join(' ')}`,
    `function __${p}_path`,
    '    set -l tokens (commandline -opc)',
    '    set -e tokens[1]',
    '    set -l trail ""',
    '    for t in $tokens',
    "        string match -q -- '-*' $t; and continue",
    `        if contains -- "$trail|$t" $__${p}_subcommand_pairs`,
    '            if test -z "$trail"',
    '                set trail $t',
    '            else',
    '                set trail "$trail $t"',
    '            end',
    '        end',
    '    end',
    '    echo $trail',
    'end',
    `function __${p}_path_is`,
    `    test (__${p}_path | string collect) = "$argv[1]"`,
    'end',
    '# Lists of values (--columns number,status,...): the value after the last comma is completed, and values',
    '# already in the list are not offered again.',
    `function __${p}_values`,
    "    set -l head (string replace -r -- '[^,]*$' '' (commandline -ct))",
    '    set -l given (string split , -- $head)',
    '    for value in $argv',
    '        contains -- $value $given; or printf "%s\\n" $head$value',
    '    end',
    'end',
    `complete -c ${p} -f`,
  ];
  for (const n of nodes) {
    const cond = `-n ${shellWord(`__${p}_path_is ${shellWord(n.path)}`)}`;
    for (const c of n.spec.commands) {
      lines.push(`complete -c ${p} ${cond} -a ${shellWord(c.name)} -d ${shellWord(c.description)}`);
    }
    if (n.spec.argumentDynamic)
      lines.push(`complete -c ${p} ${cond} -a ${shellWord(`(${p} __complete ${n.spec.argumentDynamic} 2>/dev/null)`)}`);
    else if (n.spec.argumentChoices)
      lines.push(`complete -c ${p} ${cond} -a ${shellWord(n.spec.argumentChoices.join(' '))}`);
    for (const o of n.spec.options) {
      const names = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(' ');
      let values = '';
      if (o.dynamic) values = ` -x -a ${shellWord(`(${p} __complete ${o.dynamic} 2>/dev/null)`)}`;
      else if (o.choices) values = ` -x -a ${shellWord(`(__${p}_values ${o.choices.join(' ')})`)}`;
      else if (o.takesValue) values = ' -r -F';
      lines.push(`complete -c ${p} ${cond} ${names}${values} -d ${shellWord(o.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
