// The shells trk writes completion scripts for: what `trk completion SHELL` takes, declared without loading the
// script generators.
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** Each shell's script as the build writes it into completions/ (shipped in the package). */
export const COMPLETION_FILES: Readonly<Record<Shell, string>> = {
  bash: 'trk.bash',
  zsh: '_trk',
  fish: 'trk.fish',
  powershell: 'trk.ps1',
};
