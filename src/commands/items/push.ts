// trk push: queue a webhook notification of the current result (push).

import { itemActionDeclaration } from './engine-flags.js';

export const declaration = itemActionDeclaration('push', 'trk push RR123456789CN', () => import('./actions.js'));
