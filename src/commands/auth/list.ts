// trk auth list: the saved profiles, the active one marked.

import { outputOf } from '../common/output.js';
import { maskKey } from '../../config/keys.js';
import { DEFAULT_BASE_URL, DEFAULT_RES_URL } from '../../config/settings.js';
import { DEFAULT_API_VERSION } from '@trk/service/vocabulary.js';
import type { Context } from '../../context/context.js';
import { printRows, type Column } from '../../output/render.js';
import { activeLine, openStore } from './shared.js';
import { examples, running, type Declare } from '../define.js';

interface ProfileRow {
  name: string;
  active: boolean;
  baseUrl: string;
  apiVersion: string;
  /** Masked; null without a key. */
  apiKey: string | null;
  resUrl: string;
  output: string | null;
}

export const PROFILE_COLUMNS: readonly Column<ProfileRow>[] = [
  { key: 'active', header: 'ACTIVE', value: (r) => r.active, display: (r) => (r.active ? '*' : '') },
  { key: 'name', header: 'NAME', value: (r) => r.name, style: (t, r, c) => (r.active ? c.bold(t) : t) },
  { key: 'base_url', header: 'BASE URL', value: (r) => r.baseUrl },
  { key: 'api_version', header: 'VERSION', value: (r) => r.apiVersion },
  { key: 'api_key', header: 'KEY', value: (r) => r.apiKey, display: (r) => r.apiKey ?? '(none)' },
  { key: 'res_url', header: 'RES URL', value: (r) => r.resUrl, wide: 2 },
  { key: 'output', header: 'OUTPUT', value: (r) => r.output, wide: 1 },
];

export type AuthListOptions = Record<string, never>;

/** The saved profiles, the active one marked; values a profile leaves unset are shown as their defaults. */
export async function runAuthList(_opts: AuthListOptions, ctx: Context): Promise<number> {
  const store = await openStore(ctx);
  const current = store.currentName();
  const rows: ProfileRow[] = store.list().map((name) => {
    const p = store.get(name) ?? {};
    return {
      name,
      active: name === current,
      baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
      apiVersion: p.apiVersion ?? DEFAULT_API_VERSION,
      apiKey: p.apiKey === undefined ? null : maskKey(p.apiKey),
      resUrl: p.resUrl ?? DEFAULT_RES_URL,
      output: p.output ?? null,
    };
  });
  // JSON and NDJSON print the rows under their column keys (base_url, api_key...), like the CSV header.
  await printRows(ctx.io, rows, PROFILE_COLUMNS, outputOf(ctx));
  ctx.info(activeLine(store, ctx.env));
  return 0;
}

export const declaration: Declare = (cmd, invoke) =>
  cmd
    .description('list the saved profiles: name, base URL, API version, masked key; the active one marked')
    .addHelpText('after', examples('trk auth list', 'trk auth list --json'))
    .action(() => running(invoke, (ctx) => runAuthList({}, ctx)));
