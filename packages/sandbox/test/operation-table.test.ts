// The emulator's operation table against the product's: every operation trk knows (@trk/service/operations/) has an
// emulator handler, at the same path in every version, and the emulator serves nothing trk does not know. The two
// tables are separate readings of the spec; this is where they are held to agree.

import { describe, expect, it } from 'vitest';
import { OPERATION_TABLE } from '@trk/service/operations/index.js';
import { API_VERSIONS, type Operation } from '@trk/service/vocabulary.js';
import { routeOf } from '../src/http/routes.js';
import { EMULATED_OPERATIONS } from '../src/ops/table.js';
import { makeAccount } from './account-fixture.js';

const PRODUCT_OPERATIONS = Object.keys(OPERATION_TABLE) as Operation[];

describe("the emulator's operation table", () => {
  it.each(PRODUCT_OPERATIONS)('%s: the emulator has a handler', (op) => {
    expect(EMULATED_OPERATIONS[op], `no emulator handler for ${op}`).toBeDefined();
    expect(typeof EMULATED_OPERATIONS[op].handle).toBe('function');
  });

  it.each(PRODUCT_OPERATIONS)('%s: at the path the product sends it to, in every version', (op) => {
    for (const version of API_VERSIONS) {
      expect(EMULATED_OPERATIONS[op]?.paths[version], `${version} ${op}`).toBe(OPERATION_TABLE[op].paths[version]);
    }
  });

  it('serves no operation the product does not know', () => {
    expect(Object.keys(EMULATED_OPERATIONS).sort()).toEqual([...PRODUCT_OPERATIONS].sort());
  });

  it('routes every path of the table to its operation, and later versions by v2.1 paths', () => {
    for (const op of PRODUCT_OPERATIONS) {
      for (const version of API_VERSIONS) {
        const segment = OPERATION_TABLE[op].paths[version];
        if (segment === undefined) continue;
        expect(routeOf(`/track/${version}/${segment}`, true)).toEqual({ served: version, op });
      }
      const later = OPERATION_TABLE[op].paths['v2.1'];
      if (later !== undefined) expect(routeOf(`/track/v2.4/${later}`, true)).toEqual({ served: 'v2.4', op });
    }
  });

  it('dispatches each operation to its handler (an answer, not a refusal of the request)', () => {
    const t = makeAccount();
    const bodies: Partial<Record<Operation, unknown>> = { getquota: [], gettracklist: {}, changeinfo: [] };
    for (const op of PRODUCT_OPERATIONS) {
      const body = bodies[op] ?? (op === 'getRealTimeTrackInfo' ? [{ number: 'RR123456789CN' }] : []);
      expect(t.v2(op, body).code, op).toBe(0);
    }
    // A version without the operation: refused as a malformed request (routing answers 404 before this).
    expect(t.v1('getquota', []).code).toBe(-18010013);
  });
});
