import { describe, expect, it } from 'vitest';
import { tsvField } from '../../src/output/sanitize.js';
import { sanitizeTerminalText } from '../../src/io/terminal-text.js';
import { sanitizeTerminalText as reexported } from '../../src/output/render.js';

describe('sanitizeTerminalText', () => {
  it('is exported from render.ts too', () => {
    expect(reexported).toBe(sanitizeTerminalText);
  });

  it('removes SGR colour sequences', () => {
    expect(sanitizeTerminalText('\x1b[31mred\x1b[0m text')).toBe('red text');
    expect(sanitizeTerminalText('\x1b[1;38;5;196mbold\x1b[m')).toBe('bold');
  });

  it('removes OSC 8 hyperlinks and keeps the visible text', () => {
    const link = '\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\';
    expect(sanitizeTerminalText(link)).toBe('click here');
    // BEL-terminated form, and a window-title change
    expect(sanitizeTerminalText('\x1b]8;;http://x\x07a\x1b]8;;\x07')).toBe('a');
    expect(sanitizeTerminalText('\x1b]0;pwned title\x07ok')).toBe('ok');
  });

  it('removes C1 CSI (\\x9b) and other C1 controls', () => {
    expect(sanitizeTerminalText('\x9b31mred\x9b0m')).toBe('red');
    expect(sanitizeTerminalText('a\x9d0;title\x9cb')).toBe('ab');
    expect(sanitizeTerminalText('a\x85b\x8dc')).toBe('abc');
    // APC (\x9f) is a string up to ST, like OSC
    expect(sanitizeTerminalText('a\x9fhidden\x9cb')).toBe('ab');
  });

  it('removes cursor movement, screen clearing and DCS strings', () => {
    expect(sanitizeTerminalText('x\x1b[2J\x1b[Hy\x1b[10A')).toBe('xy');
    expect(sanitizeTerminalText('a\x1bP1$r0m\x1b\\b')).toBe('ab');
    expect(sanitizeTerminalText('a\x1b(Bb\x1bcc')).toBe('abc');
  });

  it('removes C0 controls except tab and newline, DEL, and bidi overrides', () => {
    expect(sanitizeTerminalText('a\x07b\x08c\x00d\x7fe')).toBe('abcde');
    expect(sanitizeTerminalText('a\tb\nc')).toBe('a\tb\nc');
    expect(sanitizeTerminalText('a\r\nb')).toBe('a\nb');
    expect(sanitizeTerminalText('abc\u202edcba\u202c')).toBe('abcdcba');
    expect(sanitizeTerminalText('\u2066x\u2067y\u2068z\u2069\u202a\u202b\u202d')).toBe('xyz');
  });

  it('keeps ordinary text of any script', () => {
    const s = 'Objeto entregue ao destinatário · 电子信息已收到 · Distribué ANDORRE (09).';
    expect(sanitizeTerminalText(s)).toBe(s);
  });

  it('makes one line for TSV: tabs and newlines become spaces', () => {
    expect(tsvField('a\tb\nc\r\nd')).toBe('a b c d');
    expect(sanitizeTerminalText('a\n\tb', { singleLine: true })).toBe('a b');
  });
});

describe('unterminated sequences', () => {
  it('drop only the introducer, so a stray C1 character does not eat the text after it', () => {
    expect(sanitizeTerminalText('caf\x9d rest of the description')).toBe('caf rest of the description');
    expect(sanitizeTerminalText('a\x1b]0;no end')).toBe('a0;no end');
    expect(sanitizeTerminalText('a\x1b]0;no end')).not.toContain('\x1b');
  });

  it(
    'a sequence ends at the next introducer: each unterminated one drops alone, and a later one is ' + 'still whole',
    () => {
      expect(sanitizeTerminalText('a\x9dx\x90y\x9dz\x07b')).toBe('axyb');
      expect(sanitizeTerminalText('\x9dab\x90cd\x1b]ef'.repeat(3))).toBe('abcdef'.repeat(3));
    },
  );
});
