// The item commands' flags of request fields, declared from the field registry (@trk/service/fields.ts) and the
// command's operation module (which fields, and help where the command means a field otherwise), and read back by
// field: a flag is written once, its value reaches the engine under its field's name with no mapping in between.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../../context/context.js';
import { FIELDS, type FieldSpec, type FieldValues, type ItemField } from '@trk/service/fields.js';
import { flagFields, flagHelp, type ItemOperation } from '@trk/service/operations/index.js';
import { LANGUAGES } from '@trk/service/vocabulary.js';
import { resolveCarrierFlags } from '../common/carrier-args.js';
import { carrierArg, maxLength, Option } from '../define.js';

/** `cmd` with a flag for each field its operation's command takes. */
export function withFieldFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  op: ItemOperation,
): Command<A, O, G> {
  for (const field of flagFields(op)) cmd.addOption(fieldOption(op, field));
  return cmd;
}

function fieldOption(op: ItemOperation, field: ItemField): InstanceType<typeof Option> {
  const spec: FieldSpec = FIELDS[field];
  const option = new Option(flagOf(field), flagHelp(op, field));
  if (spec.kind === 'carrier') return option.argParser(carrierArg);
  if (spec.kind === 'language') return option.choices(LANGUAGES);
  if (spec.limit !== undefined) return option.argParser(maxLength(spec.limit.noun, spec.limit.max));
  return option;
}

function flagOf(field: ItemField): string {
  const flag = (FIELDS[field] as FieldSpec).flag;
  if (flag === undefined) throw new Error(`the field ${field} has no flag`);
  return flag;
}

/**
 * The field flags given, by field, carrier names resolved to codes (the carrier list is loaded only when a name
 * is given). A switch counts only when its flag turned it off (`--no-auto-detection`): else the service decides.
 */
export async function fieldFlagValues(
  ctx: Context,
  op: ItemOperation,
  o: OptionValues,
  carrierMap?: string,
): Promise<FieldValues> {
  const values: Record<string, unknown> = {};
  const carriers: Record<string, readonly [string, string | undefined]> = {};
  for (const field of flagFields(op)) {
    const option = new Option(flagOf(field));
    const value = o[option.attributeName()];
    const kind = FIELDS[field].kind;
    if (kind === 'carrier') carriers[field] = [option.long ?? field, value as string | undefined];
    else if (kind === 'switch') values[field] = value === false ? false : undefined;
    else values[field] = value;
  }
  return { ...values, ...(await resolveCarriers(ctx, carriers, carrierMap)) } as FieldValues;
}

/** Codes of carrier flags (codes or names), resolved when the command runs: a name needs the carrier list. */
export async function resolveCarriers<K extends string>(
  ctx: Context,
  flags: Record<K, readonly [string, string | undefined]>,
  carrierMap?: string,
): Promise<Partial<Record<K, number>>> {
  // None given (`trk info N`, `trk stop N`): nothing to resolve.
  if (Object.values<readonly [string, string | undefined]>(flags).every(([, value]) => value === undefined)) return {};
  return resolveCarrierFlags(ctx, flags, { carrierMap });
}
