/**
 * Token specs `TOKEN[:ROLES[:ID]]` (MCP.md 6.3), read from the right: the last two colon-separated
 * fields are ROLES and ID, so a token containing `:` needs both, possibly empty (`abc:def::`).
 * `env:VAR[:ROLES[:ID]]` takes the token from the environment.
 */
import { createHash } from 'node:crypto';
import { AuthConfigError } from './errors.js';

export interface TokenSpec {
  token: string;
  /** Sorted, always including `default`. */
  roles: string[];
  id: string;
}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** `token-` and the first 8 hex characters of the token's SHA-256. */
export function defaultTokenId(token: string): string {
  return `token-${sha256Hex(token).slice(0, 8)}`;
}

/** A comma list of roles plus `default`, sorted and without duplicates. */
export function parseRoles(roles: string | Iterable<string>): string[] {
  const list = typeof roles === 'string' ? roles.split(',') : [...roles];
  return [...new Set(['default', ...list.map((r) => r.trim()).filter((r) => r !== '')])].sort();
}

/** Split from the right at most twice, like Python's `rsplit(':', 2)`. */
function splitFromRight(spec: string): [string, string | undefined, string | undefined] {
  const last = spec.lastIndexOf(':');
  if (last === -1) return [spec, undefined, undefined];
  const head = spec.slice(0, last);
  const second = head.lastIndexOf(':');
  if (second === -1) return [head, spec.slice(last + 1), undefined];
  return [head.slice(0, second), head.slice(second + 1), spec.slice(last + 1)];
}

export function parseTokenSpec(spec: string, env: NodeJS.ProcessEnv = process.env): TokenSpec {
  let token: string;
  let roles: string | undefined;
  let id: string | undefined;
  if (spec.startsWith('env:')) {
    // Environment variable names cannot contain colons, so the fields split plainly.
    const fields = spec.slice(4).split(':');
    if (fields.length > 3) throw new AuthConfigError('Invalid auth token spec: use env:VAR[:ROLES[:ID]]');
    const [name = '', rolesField, idField] = fields;
    if (name === '') throw new AuthConfigError('Invalid auth token spec: env: needs a variable name');
    const value = env[name];
    if (!value) {
      throw new AuthConfigError(`Environment variable '${name}' for an auth token is empty`, {
        variable: name,
      });
    }
    token = value;
    roles = rolesField;
    id = idField;
  } else {
    [token, roles, id] = splitFromRight(spec);
  }
  if (token === '') throw new AuthConfigError('Invalid auth token spec: the token is empty');
  return { token, roles: parseRoles(roles ?? ''), id: id ? id : defaultTokenId(token) };
}
