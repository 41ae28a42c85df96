// The shells trk writes completion scripts for: what `trk completion SHELL` takes, declared without loading the
// script generators.
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];
