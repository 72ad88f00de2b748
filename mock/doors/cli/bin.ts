#!/usr/bin/env node
/**
 * The `petstore-fake` bin: refuses an unsupported Node.js in one line, and only then loads the
 * CLI (cli.ts), which the package build ships as a file of its own beside this one.
 */
import { startOnSupportedNode } from '../cli-shared/start-on-supported-node.ts';

startOnSupportedNode('petstore-fake', () => import('./cli.ts').then((cli) => cli.run()));
