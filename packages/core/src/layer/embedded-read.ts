/**
 * Resources a handler read through the layer as its caller (`ToolContext.embedResource`). Their
 * contents already passed the caller's output pipeline in that read, so the layer hands them on
 * as they are instead of transforming them a second time: pseudonyms would be pseudonymised
 * again and fenced text fenced twice. The mark lives in a WeakSet, never on the block, so it
 * cannot reach the wire and no data can claim it; a copy of a block loses it and is simply
 * transformed again.
 */
import type { EmbeddedResource } from '../content.js';

const readThroughLayer = new WeakSet<object>();

/** Mark a block built from a read that went through the layer. */
export function markReadThroughLayer(block: EmbeddedResource): EmbeddedResource {
  readThroughLayer.add(block);
  return block;
}

/** Whether `block` is, as is, the product of such a read. */
export function wasReadThroughLayer(block: unknown): boolean {
  return typeof block === 'object' && block !== null && readThroughLayer.has(block);
}
