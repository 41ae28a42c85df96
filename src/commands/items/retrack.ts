// trk retrack: restart tracking of stopped numbers (once per number) (retrack).

import { itemActionDeclaration } from './engine-flags.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'retrack',
  summary: 'restart tracking of stopped numbers (once per number)',
  section: 'numbers',
} satisfies Listing;

export const declaration = itemActionDeclaration('retrack', 'trk retrack RR123456789CN', () => import('./actions.js'));
