import type { Capability, Sensitivity } from '../capabilities.js';
import type { Icon } from '../content.js';
import type { JsonObject, JsonValue } from '../json.js';
import { MetaKey } from '../meta.js';

/** Fields every primitive shares. */
export interface BaseSpecInit {
  name: string;
  title?: string;
  description?: string;
  /** Used by filters, policies and `_meta`. Default `general`. */
  category?: string;
  tags?: Iterable<string>;
  sensitivity?: Sensitivity;
  capabilities?: Iterable<Capability>;
  /** Merged into the wire `_meta` after cloudg's own keys. */
  meta?: JsonObject;
  icons?: Icon[];
}

export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export abstract class BaseSpec {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string;
  readonly category: string;
  readonly tags: ReadonlySet<string>;
  readonly sensitivity: Sensitivity;
  readonly capabilities: ReadonlySet<Capability>;
  readonly meta: JsonObject;
  readonly icons: Icon[] | undefined;

  constructor(init: BaseSpecInit, defaultSensitivity: Sensitivity = 'confidential') {
    this.name = init.name;
    this.title = init.title;
    this.description = init.description ?? '';
    this.category = init.category ?? 'general';
    this.tags = new Set(init.tags ?? []);
    this.sensitivity = init.sensitivity ?? defaultSensitivity;
    this.capabilities = new Set(init.capabilities ?? ['read_state']);
    this.meta = init.meta ?? {};
    this.icons = init.icons;
  }

  /** `_meta` of the definition: category, sensitivity, sorted tags (when any), then the spec's own keys. */
  protected wireMeta(): JsonObject {
    const meta: JsonObject = { [MetaKey.category]: this.category, [MetaKey.sensitivity]: this.sensitivity };
    if (this.tags.size > 0) meta[MetaKey.tags] = [...this.tags].sort();
    for (const [key, value] of Object.entries(this.meta)) meta[key] = value as JsonValue;
    return meta;
  }

  protected addCommonWire(wire: JsonObject): JsonObject {
    if (this.title !== undefined) wire.title = this.title;
    if (this.icons && this.icons.length > 0) wire.icons = this.icons as unknown as JsonValue;
    wire._meta = this.wireMeta();
    return wire;
  }
}

export function assertValidName(name: string, what: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new TypeError(`Invalid ${what} name: must be 1 to 128 of A-Z a-z 0-9 _ . -`);
  }
}
