import { access, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { type LiveClock, systemClock } from './clock.js';

/** One request to a cloud identity endpoint (instance metadata, container credentials). */
export interface IdentityProbe {
  url: string;
  method: 'GET' | 'PUT';
  headers: Record<string, string>;
}

/**
 * Where the credential preflight looks: the environment, the files, the identity endpoints and
 * the time. Everything is replaceable so tests run without a cloud, a home directory or waiting.
 */
export interface PreflightEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  exists(path: string): Promise<boolean>;
  /** The file's text, or null when it cannot be read. */
  readText(path: string): Promise<string | null>;
  /** The endpoint's body on a 2xx answer, null otherwise (refused, timed out, not found). */
  probe(request: IdentityProbe, signal: AbortSignal): Promise<string | null>;
  clock: LiveClock;
  /** The whole check's bound (25 s). */
  timeoutMs: number;
}

/** How long one metadata endpoint may take: off a cloud host, the address simply never answers. */
const PROBE_TIMEOUT_MS = 1000;

async function fetchProbe(request: IdentityProbe, signal: AbortSignal): Promise<string | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      redirect: 'error',
    });
    if (!response.ok) return null;
    return await response.text();
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

export function defaultPreflightEnvironment(
  overrides: Partial<PreflightEnvironment> = {},
): PreflightEnvironment {
  return {
    env: process.env,
    homeDir: homedir(),
    exists: async (path) => {
      try {
        await access(path);
        return true;
      } catch {
        return false;
      }
    },
    readText: async (path) => {
      try {
        return await readFile(path, 'utf8');
      } catch {
        return null;
      }
    },
    probe: fetchProbe,
    clock: systemClock,
    timeoutMs: 25_000,
    ...overrides,
  };
}
