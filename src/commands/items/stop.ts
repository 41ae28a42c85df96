// trk stop: stop automatic tracking of numbers (stoptrack).

import { itemActionDeclaration } from './engine-flags.js';

export const declaration = itemActionDeclaration('stop', 'trk stop RR123456789CN', () => import('./actions.js'));
