// A check of PowerShell scripts where no PowerShell runs: brackets balanced outside strings and comments.

/** Brackets of a PowerShell script outside its strings and comments, checked for balance; unclosed strings fail. */
export function powershellBalanced(script: string): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '}': '{', ')': '(', ']': '[' };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (c === '#') i = script.indexOf('\n', i) < 0 ? script.length : script.indexOf('\n', i);
    else if (c === "'") {
      // '' is a quote inside a single-quoted string.
      for (i++; i < script.length && !(script[i] === "'" && script[i + 1] !== "'"); i += script[i] === "'" ? 2 : 1);
      if (i >= script.length) return false;
    } else if (c === '"') {
      for (i++; i < script.length && script[i] !== '"'; i += script[i] === '`' ? 2 : 1);
      if (i >= script.length) return false;
    } else if ('{(['.includes(c)) stack.push(c);
    else if (c in pairs && stack.pop() !== pairs[c]) return false;
  }
  return stack.length === 0;
}
