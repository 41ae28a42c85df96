// getRealTimeTrackInfo (trk realtime): one number's state fetched from the carrier now or from a cache up to
// 3 hours old. Charging (1 unit from the cache, 10 fresh, @trk/service/vocabulary.ts). v1 has none.

import type { RealtimeRequestItem } from '../types.js';
import { LIMITS } from '../vocabulary.js';
import { compact, type OperationSpec } from './operation.js';
import { itemLists } from './shapes.js';

const ONE = LIMITS.realtimeItemsPerRequest;

export const realtime = {
  name: 'getRealTimeTrackInfo',
  paths: { v2: 'getRealTimeTrackInfo', 'v2.1': 'getRealTimeTrackInfo' },
  class: 'charging',
  noun: 'real-time operation',
  perRequest: { v1: ONE, v2: ONE, 'v2.1': ONE },
  /**
   * An array holding exactly one item. The v2.1 form is not documented; the v2 form is sent to the v2.1 path,
   * since every documented v2.1 operation keeps its v2 shape.
   */
  body: (_version, item): [RealtimeRequestItem] => [
    compact({
      number: item.number,
      carrier: item.carrier,
      param: item.param,
      final_carrier: item.final_carrier,
      cacheLevel: item.cacheLevel,
    }),
  ],
  answer: itemLists({ carrier: false }),
} as const satisfies OperationSpec<'getRealTimeTrackInfo', RealtimeRequestItem>;
