/**
 * `depseudonymize`: the input-side reversal of pseudonyms, aliases and untrusted-content
 * fences, so a model can pass back what it was shown (section 11.4).
 */
import type { PseudonymVault, Transform, TransformContext } from '../types.js';
import { OptionReader } from '../util/options.js';
import { AliasMap, mapStrings } from './alias.js';
import { FENCE_CLOSE, FENCE_OPEN } from './sanitize.js';
import { Substitution } from './substitute.js';

export const DEPSEUDONYMIZE_OPTIONS = ['vault', 'aliases', 'strip_fences', 'keys'] as const;

export interface DepseudonymizeBuildContext {
  vault?: PseudonymVault;
}

/** Removes `⟦untrusted⟧ ... ⟦/untrusted⟧` markers. */
export function stripFences(text: string): string {
  if (!text.includes(FENCE_OPEN) && !text.includes(FENCE_CLOSE)) return text;
  return text
    .split(`${FENCE_OPEN} `)
    .join('')
    .split(` ${FENCE_CLOSE}`)
    .join('')
    .split(FENCE_OPEN)
    .join('')
    .split(FENCE_CLOSE)
    .join('');
}

function isVault(v: unknown): v is PseudonymVault {
  return typeof v === 'object' && v !== null && typeof (v as PseudonymVault).detokenize === 'function';
}

export class Depseudonymizer implements Transform {
  readonly name = 'depseudonymize';
  private readonly vault: PseudonymVault | undefined;
  private readonly aliases: AliasMap[];
  private readonly strip: boolean;
  private readonly keys: boolean;

  constructor(
    options: Record<string, unknown> = {},
    build: DepseudonymizeBuildContext = {},
    readonly id = 'depseudonymize',
  ) {
    const o: OptionReader = new OptionReader('depseudonymize', options, DEPSEUDONYMIZE_OPTIONS);
    const v = o.raw('vault');
    if (v !== undefined && v !== null && !isVault(v)) o.fail('vault', 'a token vault');
    this.vault = (v as PseudonymVault | undefined) ?? build.vault;
    this.aliases = o.list('aliases').map((a) => {
      if (a instanceof AliasMap) return a;
      if (a instanceof Substitution) return a.aliasMap;
      return new AliasMap({ aliases: a }, {}, 'alias', 'depseudonymize');
    });
    this.strip = o.bool('strip_fences', true);
    this.keys = o.bool('keys', false);
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    const vault = ctx.vault ?? this.vault;
    const options = vault ? { namespace: vault.namespaceFor(ctx.principal?.id ?? null) } : {};
    let count = 0;
    const reverse = (s: string): string => {
      let cur = this.strip ? stripFences(s) : s;
      let changed = false;
      const whole = vault?.detokenize(cur, options);
      if (whole !== undefined && whole !== null) {
        // The output side of this request puts the caller's pseudonym back wherever the real
        // value would show (an echo in an error, a result that names what was asked for).
        ctx.restored?.set(whole, cur);
        cur = whole;
        changed = true;
      } else {
        for (const a of this.aliases) {
          const [out, n] = a.reverse(cur);
          if (n) {
            cur = out;
            changed = true;
          }
        }
        if (vault) {
          const out = vault.detokenizeText(cur, options);
          if (out !== cur) {
            // The whole string as restored, with what the caller wrote: an echo of it (a value
            // that names no asset, say) goes back as the caller wrote it.
            ctx.restored?.set(this.strip ? stripFences(out) : out, s);
            cur = out;
            changed = true;
          }
        }
      }
      if (!changed) return cur;
      count++;
      return this.strip ? stripFences(cur) : cur;
    };
    const out = mapStrings(value, reverse, this.keys ? reverse : undefined);
    if (count) ctx.report.depseudonymized = (ctx.report.depseudonymized ?? 0) + count;
    return out;
  }
}
