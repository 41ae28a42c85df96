// trk retrack: restart tracking of stopped numbers (once per number) (retrack).

import { itemActionDeclaration } from './engine-flags.js';

export const declaration = itemActionDeclaration('retrack', 'trk retrack RR123456789CN', () => import('./actions.js'));
