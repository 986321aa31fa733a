/**
 * The policy's `confirm` entries: tool calls that need the person's confirmation before they run
 * (core's `PolicyPort.confirmation`). An entry names tools by glob and, optionally, arguments that
 * must be true for the entry to apply, e.g. `force` on the live tools.
 */
import type { AnySpec, CallCheck } from '@cloudg/core';
import { GlobList } from '../decide/glob.js';
import type { PolicyConfig } from '../schema/config.js';

interface CompiledConfirmation {
  tools: GlobList;
  whenTrue: readonly string[];
  message: string | undefined;
}

export class Confirmations {
  private readonly entries: readonly CompiledConfirmation[];

  constructor(config: PolicyConfig['confirm']) {
    this.entries = config.map((entry) => ({
      tools: new GlobList(entry.tools),
      whenTrue: entry.when_true,
      message: entry.message ?? undefined,
    }));
  }

  /** The question for this call, or undefined; the first matching entry decides. */
  question(spec: AnySpec, call: CallCheck): string | undefined {
    if (call.kind !== 'tool' || this.entries.length === 0) return undefined;
    for (const entry of this.entries) {
      if (!entry.tools.matches(spec.name)) continue;
      if (!entry.whenTrue.every((name) => call.arguments[name] === true)) continue;
      // The default names the tool and the arguments that triggered it, never their values.
      return (
        entry.message ??
        `Run ${spec.name}${entry.whenTrue.length > 0 ? ` with ${entry.whenTrue.join(', ')}` : ''}? The policy asks you to confirm this call.`
      );
    }
    return undefined;
  }
}
