/** The FormatContext of one derivation attempt, shared by every derivation in its namespace. */
import type { FormatContext } from './format/context.js';
import type { HmacSha256 } from './hmac.js';
import type { IpPermuter } from './ip/permutation.js';

/** Separates the parts of what the vault's keys digest. */
export const SEP = '\u001f';

/** A class: cheaper than a bag of closures. */
export class IssueContext implements FormatContext {
  constructor(
    private readonly subOf: (value: string, entity: string, namespace: string) => string,
    private readonly tokenKey: HmacSha256,
    private readonly permuters: (namespace: string, width: 4 | 16) => IpPermuter,
    readonly namespace: string,
    readonly attempt: number,
  ) {}

  /** `namespace | entity | attempt |` per entity, built once. */
  private readonly prefixes = new Map<string, string>();

  digest(entity: string, value: string): string {
    let prefix = this.prefixes.get(entity);
    if (prefix === undefined) {
      prefix = `${this.namespace}${SEP}${entity}${SEP}${this.attempt}${SEP}`;
      this.prefixes.set(entity, prefix);
    }
    return this.tokenKey.hex(prefix, value);
  }

  sub(value: string, entity: string): string {
    return this.subOf(value, entity, this.namespace);
  }

  permuter(width: 4 | 16): IpPermuter {
    return this.permuters(this.namespace, width);
  }
}
