/**
 * `rename_keys`: renames dict keys at every depth (section 11.5). One-way.
 */
import type { Transform, TransformContext } from '../types.js';
import { OptionReader } from '../util/options.js';
import { mapStrings } from './alias.js';

export class KeyRename implements Transform {
  readonly name = 'rename_keys';
  private readonly renames: Map<string, string>;

  constructor(
    options: Record<string, unknown> = {},
    readonly id = 'rename_keys',
    transformName = 'rename_keys',
    optionName = 'renames',
  ) {
    const o: OptionReader = new OptionReader(transformName, options, [optionName]);
    const table = o.record(optionName);
    this.renames = new Map();
    for (const [from, to] of Object.entries(table)) {
      if (typeof to !== 'string') o.fail(optionName, 'a mapping of old to new key names');
      this.renames.set(from, to);
    }
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    if (this.renames.size === 0) return value;
    let n = 0;
    const out = mapStrings(
      value,
      (s) => s,
      (k) => {
        const to = this.renames.get(k);
        if (to === undefined) return k;
        n++;
        return to;
      },
    );
    if (n) ctx.report.keys_renamed = (ctx.report.keys_renamed ?? 0) + n;
    return out;
  }
}
