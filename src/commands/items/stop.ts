// trk stop: stop automatic tracking of numbers (stoptrack).

import { itemActionDeclaration } from './engine-flags.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'stop',
  summary: 'stop automatic tracking of numbers',
  section: 'numbers',
} satisfies Listing;

export const declaration = itemActionDeclaration('stop', 'trk stop RR123456789CN', () => import('./actions.js'));
