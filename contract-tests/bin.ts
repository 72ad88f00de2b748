#!/usr/bin/env node
/**
 * The `petstore-contract` bin, every subcommand included: refuses an unsupported Node.js in one
 * line, and only then loads the CLI (cli.ts), which the package build ships as a file of its own
 * beside this one.
 */
import { startOnSupportedNode } from '../mock/internal/entry.ts';

startOnSupportedNode('petstore-contract', () => import('./cli.ts').then((cli) => cli.run()));
