/** A converter's input: a layer (exported for a principal on the spot) or an export already made. */
import { type Layer, Principal } from '@cloudg/core';
import { type ExportedDefinitions, exportDefinitions } from './export-definitions.js';

export type ToolSource<TApp = unknown> = Layer<TApp> | ExportedDefinitions;

export function definitionsOf<TApp>(
  source: ToolSource<TApp>,
  principal: Principal = Principal.local(),
): ExportedDefinitions {
  return 'toolFunctions' in source ? source : exportDefinitions(source, principal);
}
