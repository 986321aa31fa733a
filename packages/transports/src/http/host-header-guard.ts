/**
 * The DNS-rebinding check every HTTP path shares (MCP.md 7): `Host` against an allow-list (by
 * default only on loopback binds, where a missing `Host` is refused too), then `Origin`, when
 * present, against allowed origins or the request's own host (same-origin).
 *
 * Patterns are matched case-insensitively; `*` matches any run of characters and `?` one. Unlike
 * fnmatch there are no `[...]` classes, so IPv6 literals such as `[::1]:*` mean what they say.
 */

export interface GuardRejection {
  status: 403 | 421;
  message: string;
}

export interface OriginHostGuardOptions {
  /** The address the server binds; a loopback bind turns the Host check on. */
  bindHost: string;
  /** Replaces the default loopback origins. `*` allows any. */
  allowedOrigins?: Iterable<string>;
  /** Turns the Host check on with these patterns, whatever the bind. */
  allowedHosts?: Iterable<string>;
  /** Added to the allowed origins (the CORS origins). */
  extraOrigins?: Iterable<string>;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
export const LOOPBACK_HOSTS: readonly string[] = LOOPBACK_NAMES.flatMap((n) => [n, `${n}:*`]);
export const LOOPBACK_ORIGINS: readonly string[] = ['http', 'https'].flatMap((scheme) =>
  LOOPBACK_NAMES.flatMap((n) => [`${scheme}://${n}`, `${scheme}://${n}:*`]),
);

export function isLoopbackAddress(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function compilePattern(pattern: string): RegExp {
  const body = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/** `host:port` of an origin such as `http://127.0.0.1:8799`, or undefined for `null` and garbage. */
function originAuthority(origin: string): string | undefined {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)$/i.exec(origin.trim());
  return match?.[1];
}

export class OriginHostGuard {
  private readonly hostPatterns: RegExp[] | undefined;
  private readonly originPatterns: RegExp[];

  constructor(options: OriginHostGuardOptions) {
    const hosts = options.allowedHosts ? [...options.allowedHosts] : undefined;
    if (hosts && hosts.length > 0) this.hostPatterns = hosts.map(compilePattern);
    else if (isLoopbackAddress(options.bindHost)) this.hostPatterns = LOOPBACK_HOSTS.map(compilePattern);
    const origins = options.allowedOrigins ? [...options.allowedOrigins] : [...LOOPBACK_ORIGINS];
    this.originPatterns = [...origins, ...(options.extraOrigins ?? [])].map(compilePattern);
  }

  /** Undefined when the request may pass, else the status and message to refuse it with. */
  check(host: string | undefined, origin: string | undefined): GuardRejection | undefined {
    if (this.hostPatterns) {
      if (!host || !this.hostPatterns.some((p) => p.test(host))) {
        return { status: 421, message: 'Invalid Host header' };
      }
    }
    if (origin === undefined) return undefined;
    if (this.originPatterns.some((p) => p.test(origin))) return undefined;
    const authority = originAuthority(origin);
    if (authority !== undefined && host !== undefined && authority.toLowerCase() === host.toLowerCase()) {
      return undefined;
    }
    return { status: 403, message: 'Forbidden: invalid Origin' };
  }
}
