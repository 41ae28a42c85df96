// commander's classes, required as the CommonJS package it is. An ES module's `import` of it goes through Node's
// wrapper of CommonJS for ES modules (which reads the package's source for its export names) and through
// extra-typings' own wrapper: a few milliseconds of every start. The types are extra-typings' (the same classes
// at run time); import them with `import type` from '@commander-js/extra-typings'.

import type * as Typed from '@commander-js/extra-typings';
import { nodeModule } from '../core/node.js';

const commander = nodeModule().createRequire(import.meta.url)('commander') as typeof Typed;

export const { Argument, Command, CommanderError, InvalidArgumentError, Option } = commander;
