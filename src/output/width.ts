// How wide text is on a terminal, and text wrapped to a width: for tables, the tracking page and the progress line.

/** Width of text in terminal cells, close enough for layout: wide East Asian characters count twice. */
export function textWidth(s: string): number {
  let w = 0;
  // By index, not `for...of`: no string is made per character (a field of a megabyte is measured without garbage).
  for (let i = 0; i < s.length; i++) {
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    w += codePointWidth(cp);
  }
  return w;
}

/** Cells one code point takes: 0 for combining marks, 2 for wide East Asian characters, else 1. */
export function codePointWidth(cp: number): number {
  if (cp >= 0x300 && cp <= 0x36f) return 0;
  return cp >= 0x1100 && isWide(cp) ? 2 : 1;
}

function isWide(cp: number): boolean {
  return (
    cp <= 0x115f ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/**
 * Word-wrap plain text to `width` cells; words longer than a line are split. Each character is measured once, so
 * that a field of a megabyte wraps in linear time.
 */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(10, width);
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const push = () => {
    if (line !== '') lines.push(line);
    line = '';
    used = 0;
  };
  for (const word of text.split(/ +/)) {
    if (word === '') continue;
    const size = textWidth(word);
    if (size > w) {
      // Split across lines of their own, where the next character would pass the width.
      push();
      let start = 0;
      for (let i = 0; i < word.length; i++) {
        const cp = word.codePointAt(i)!;
        const cw = codePointWidth(cp);
        if (used + cw > w) {
          lines.push(word.slice(start, i));
          start = i;
          used = 0;
        }
        used += cw;
        if (cp > 0xffff) i++;
      }
      line = word.slice(start);
      continue;
    }
    if (line !== '' && used + 1 + size > w) push();
    line = line === '' ? word : `${line} ${word}`;
    used += (used === 0 ? 0 : 1) + size;
  }
  push();
  return lines;
}

/**
 * A status line wrapped between words at `width`, for a terminal: continuation lines two columns further in than
 * the line starts, so a wrapped message reads as one. Spaces inside a line are kept (the summary's aligned
 * counts); a word longer than a line (a path) stays whole on a line of its own. A line that fits is returned as is.
 */
export function wrapNotice(line: string, width: number): string[] {
  if (textWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const hang = `${indent}  `;
  const lines: string[] = [];
  let text = indent;
  let used = indent.length;
  const startLine = () => {
    lines.push(text);
    text = hang;
    used = hang.length;
  };
  for (const [, gap = '', word = ''] of line.slice(indent.length).matchAll(/( *)(\S+)/g)) {
    const fresh = text === indent || text === hang;
    const size = textWidth(word);
    if (!fresh && used + gap.length + size > width) startLine();
    else if (!fresh) {
      text += gap;
      used += gap.length;
    }
    // A word longer than the line (a path) stays whole on a line of its own: the terminal folds it, and it is
    // copied in one piece, which a path cut in two is not.
    text += word;
    used += size;
  }
  lines.push(text);
  return lines;
}
