/** Shared test helpers: silent loggers, principals and a fake clock. */
import { createLogger, type Logger, Principal } from '@cloudg/core';
import { Policy, type PolicyOptions, type PolicySourceValue } from '../src/index.js';

export const silent: Logger = createLogger({ level: 'silent' });

export function load(source?: PolicySourceValue, options: PolicyOptions = {}): Policy {
  return Policy.load(source, { logger: silent, ...options });
}

export const local = Principal.local();
export const as = (role: string, id = role) => new Principal({ id, roles: ['default', role] });

/** A clock the test moves by hand (seconds). */
export function fakeClock(start = 1000): { now: () => number; advance: (seconds: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (s) => {
      t += s;
    },
  };
}

export const PROFILE_NAMES = [
  'open',
  'standard',
  'strict',
  'read_only',
  'airgapped',
  'audit',
  'soc-analyst',
] as const;
