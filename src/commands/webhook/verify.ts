// trk webhook verify: check a notification the service sent to the account's webhook URL.

import { outputOf } from '../common/output.js';
import { readFile } from 'node:fs/promises';
import type { Context } from '../../context/context.js';
import { CredentialsError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import type { Column } from '../../output/render.js';
import { readBytes } from '../../io/stdin.js';
import { NO_KEY_HINT, signingKey } from './common.js';
import { printRows } from '../../output/render.js';
import { detectVersion, verifyV1, verifyV2 } from '../../webhook/verify.js';
import { examples, running, type Declare } from '../define.js';

export interface WebhookVerifyOptions {
  /** File holding the body exactly as received (`-` reads stdin), or a `.headers` file saved beside one. */
  file?: string | undefined;
  /** Same as `file`, by flag. */
  body?: string | undefined;
  /** A headers file (`webhook listen --save` writes one beside each body): the sign is taken from it. */
  headers?: string | undefined;
  /** The `sign` header (v2, v2.1). For v1 the sign is in the body; given, it overrides that one. */
  sign?: string | undefined;
  /** Apply the v1 rule. Without it, a body carrying `sign` and no --sign is taken as v1 too. */
  v1?: boolean | undefined;
}

async function readBody(file: string, ctx: Context): Promise<Buffer> {
  if (file === '-') return readBytes(ctx.io.stdin);
  try {
    return await readFile(file);
  } catch (err) {
    throw unreadable(file, err, 'give the file holding the body as received, or - for stdin');
  }
}

function unreadable(file: string, err: unknown, hint: string): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
  return new UsageError(`cannot read ${file}: ${why}`, hint);
}

/** Where the body is and where its sign comes from: flags, or a pair saved by `webhook listen --save`. */
interface VerifyInput {
  bodyFile: string;
  sign?: string;
  /** Where the sign came from, for the messages: --sign, a headers file, or the body (v1). */
  signFrom: string;
}

async function verifyInput(opts: WebhookVerifyOptions): Promise<VerifyInput> {
  const { headerFrom, pairedFile, readIfThere, HEADERS_SUFFIX } = await import('../../webhook/saved.js');
  if (opts.file !== undefined && opts.body !== undefined) {
    throw new UsageError('give the body once: as an argument or with --body', 'drop one of them');
  }
  let bodyFile = opts.file ?? opts.body;
  let headersFile = opts.headers;
  // A saved headers file given as the file: its body is beside it.
  if (bodyFile?.endsWith(HEADERS_SUFFIX)) {
    headersFile ??= bodyFile;
    bodyFile = pairedFile(bodyFile);
  }
  if (bodyFile === undefined && headersFile !== undefined) bodyFile = pairedFile(headersFile);
  if (bodyFile === undefined) {
    throw new UsageError(
      'no body to verify',
      'give the saved body file (trk webhook verify hooks/x.json), or --body FILE (- for stdin)',
    );
  }
  const sign = opts.sign?.trim();
  if (sign) return { bodyFile, sign, signFrom: '--sign' };
  // The sign header: from the headers file given, else from the one saved beside the body, if there is one.
  const beside = headersFile === undefined && bodyFile !== '-' ? pairedFile(bodyFile) : undefined;
  const file = headersFile ?? beside;
  if (file !== undefined) {
    let text: string | undefined;
    try {
      text = await readIfThere(file);
    } catch (err) {
      throw unreadable(file, err, 'give a headers file saved by "trk webhook listen --save"');
    }
    if (text === undefined && headersFile !== undefined)
      throw new UsageError(
        `cannot read ${file}: no such file`,
        'give a headers file saved by "trk webhook listen --save"',
      );
    const fromFile = text === undefined ? undefined : headerFrom(text, 'sign')?.trim();
    if (fromFile) return { bodyFile, sign: fromFile, signFrom: `the sign header in ${file}` };
  }
  return { bodyFile, signFrom: 'the body' };
}

export interface VerifyVerdict {
  genuine: boolean;
  /** v2 covers v2.1 (the sign header); v1 signs inside the body. */
  rule: 'v1' | 'v2';
  body: string;
  sign_from: string;
}

const VERDICT_COLUMNS: readonly Column<VerifyVerdict>[] = [
  {
    key: 'genuine',
    header: 'GENUINE',
    value: (v) => v.genuine,
    style: (t, v, c) => (v.genuine ? c.green(t) : c.red(t)),
  },
  { key: 'rule', header: 'RULE', value: (v) => v.rule },
  { key: 'body', header: 'BODY', value: (v) => v.body },
  { key: 'sign_from', header: 'SIGN FROM', value: (v) => v.sign_from },
];

/**
 * Exit 0 when the notification is genuine, 1 when not. The verdict goes to stderr; with an output format asked
 * for (--json, -o csv...) it is also printed on stdout as data, genuine or not: it is the answer, not an error.
 */
export async function runWebhookVerify(opts: WebhookVerifyOptions, ctx: Context): Promise<number> {
  const input = await verifyInput(opts);
  const raw = await readBody(input.bodyFile, ctx);
  const key = await signingKey(await ctx.settings());
  if (!key) throw new CredentialsError('no API key configured', NO_KEY_HINT);
  const { sign } = input;
  let rule: 'v1' | 'v2';
  if (opts.v1) rule = 'v1';
  else if (sign) rule = 'v2';
  else if (detectVersion(raw) === 'v1') rule = 'v1';
  else {
    throw new UsageError(
      '--sign is required',
      "pass the value of the notification's sign header, or its headers file (--headers); v1 bodies carry it " +
        'themselves: --v1',
    );
  }

  const genuine = rule === 'v2' ? verifyV2(raw, sign!, key) : verifyV1(raw, key, sign || undefined);
  const what = rule === 'v2' ? `sign header (from ${input.signFrom})` : 'v1 sign';
  if (ctx.global.output !== undefined) {
    const verdict: VerifyVerdict = {
      genuine,
      rule,
      body: input.bodyFile,
      sign_from: rule === 'v1' && !sign ? 'the body' : input.signFrom,
    };
    await printRows(ctx.io, [verdict], VERDICT_COLUMNS, outputOf(ctx));
  }
  if (genuine) {
    ctx.info(`genuine: the ${what} matches the body and the key`);
    return EXIT.ok;
  }
  ctx.io.err(`not genuine: the ${what} does not match the body and the key`);
  if (rule === 'v1' && detectVersion(raw) !== 'v1' && !sign) ctx.io.err('the body carries no sign field');
  // The usual cause of a false negative: an editor or `echo` added a line ending to the saved body.
  if (
    rule === 'v2' &&
    /\r?\n$/.test(raw.toString('latin1')) &&
    verifyV2(raw.toString('utf8').replace(/\r?\n$/, ''), sign!, key)
  ) {
    ctx.io.err('it would match without the line ending at the end of the file: save the body exactly as received');
  }
  return EXIT.failure;
}

export const declaration: Declare = (cmd, invoke) =>
  cmd
    .description("check a notification's signature against the API key")
    .argument(
      '[file]',
      'the body as received, or its .headers file, as "webhook listen --save" keeps them (the sign is read from ' +
        'the .headers file beside the body)',
    )
    .option('--body <file>', 'file holding the body exactly as received (- for stdin)')
    .option(
      '--headers <file>',
      'file holding the headers as received ("Name: value" lines): the sign header is read from it',
    )
    .option('--sign <value>', 'value of the sign header (v2, v2.1)')
    .option('--v1', 'apply the v1 rule (the sign is in the body)')
    .addHelpText(
      'after',
      examples(
        'trk webhook verify hooks/20261123T175200.000Z-TRACKING_UPDATED-RR123456789CN.json',
        'trk webhook verify --body body.json --sign 3f1c...',
        'trk webhook verify --body body.json --v1',
        'for f in hooks/*.json; do trk webhook verify -q "$f" || echo "forged: $f"; done',
      ),
    )
    .action((file, o) =>
      running(invoke, (ctx) =>
        runWebhookVerify({ file, body: o.body, headers: o.headers, sign: o.sign, v1: o.v1 === true }, ctx),
      ),
    );
