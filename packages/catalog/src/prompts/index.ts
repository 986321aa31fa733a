import type { Registry } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';

/** Register the eleven analysis prompts. */
export function registerPrompts(registry: Registry<Workspace>): void {
  void registry;
}
