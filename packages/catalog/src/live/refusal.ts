import { RateLimitedError } from '@cloudg/core';

export const REFUSAL_REASONS = ['busy', 'cooldown', 'quota', 'timeout'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** The `error_data` of a refused live call (MCP_TOOLS.md "Live operation guard"). */
export interface LiveRefusalData {
  reason: RefusalReason;
  message: string;
  retry_after_seconds?: number;
  scopes?: string[];
  caller?: string;
  use_dataset?: string;
}

/**
 * A live call the guard refused (-31029). The text adds what to do instead; the dataset to use
 * is named only in `data.use_dataset`, never in the text (error texts never carry dataset names,
 * which strict policies pseudonymise; the reference quoted it).
 */
export class LiveOperationRefusedError extends RateLimitedError {
  declare readonly data: LiveRefusalData;

  constructor(data: LiveRefusalData) {
    let text = data.message;
    if (data.use_dataset !== undefined)
      text +=
        '. The last live result is already loaded as the dataset named in use_dataset; query it instead of collecting again.';
    else text += '.';
    if (data.reason === 'cooldown') text += ' An admin or operator can pass force=true to skip the cooldown.';
    super(text, { data });
  }

  /** The same refusal with the fallback dataset filled in. */
  withDataset(name: string | undefined): LiveOperationRefusedError {
    return name === undefined ? this : new LiveOperationRefusedError({ ...this.data, use_dataset: name });
  }
}
