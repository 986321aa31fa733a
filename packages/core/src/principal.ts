/** Who is calling. Roles drive the policy; attributes are free-form and reach handlers and transforms. */
export class Principal {
  readonly id: string;
  readonly roles: ReadonlySet<string>;
  readonly attributes: Readonly<Record<string, unknown>>;
  private readonly sorted: readonly string[];

  constructor(init: { id?: string; roles?: Iterable<string>; attributes?: Record<string, unknown> } = {}) {
    this.id = init.id ?? 'anonymous';
    this.roles = new Set(init.roles ?? ['default']);
    this.attributes = Object.freeze({ ...(init.attributes ?? {}) });
    this.sorted = Object.freeze([...this.roles].sort());
    Object.freeze(this);
  }

  /** The operator on stdio or in-process: id `local`, roles `default` and `local`. */
  static local(): Principal {
    return LOCAL;
  }

  /** Nobody in particular: id `anonymous`, role `default`. */
  static anonymous(): Principal {
    return ANONYMOUS;
  }

  hasRole(role: string): boolean {
    return this.roles.has(role);
  }

  /** Roles in sorted order, the form logs and cache keys use. */
  sortedRoles(): string[] {
    return [...this.sorted];
  }

  toJSON(): { id: string; roles: string[] } {
    return { id: this.id, roles: this.sortedRoles() };
  }
}

const LOCAL = new Principal({ id: 'local', roles: ['default', 'local'] });
const ANONYMOUS = new Principal({ id: 'anonymous', roles: ['default'] });
