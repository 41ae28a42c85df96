// trk push: queue a webhook notification of the current result (push).

import { itemActionDeclaration } from './engine-flags.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'push',
  summary: 'queue a webhook notification of the current result',
  section: 'numbers',
} satisfies Listing;

export const declaration = itemActionDeclaration('push', 'trk push RR123456789CN', () => import('./actions.js'));
