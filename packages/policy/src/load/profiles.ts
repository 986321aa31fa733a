/**
 * The built-in profiles: YAML files shipped in the package's `profiles/` directory, found
 * relative to this module so they work from the sources and from `dist/` alike.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PROFILES_DIR = fileURLToPath(new URL('../../profiles/', import.meta.url));

/** Hyphens and underscores are interchangeable in profile names. */
function normalize(name: string): string {
  return name.trim().toLowerCase().replaceAll('-', '_');
}

let cache: Map<string, { name: string; path: string }> | undefined;

function index(): Map<string, { name: string; path: string }> {
  if (cache) return cache;
  cache = new Map();
  if (existsSync(PROFILES_DIR)) {
    for (const file of readdirSync(PROFILES_DIR).sort()) {
      const match = /^(.+)\.ya?ml$/.exec(file);
      if (match?.[1]) cache.set(normalize(match[1]), { name: match[1], path: PROFILES_DIR + file });
    }
  }
  return cache;
}

/** Names of the built-in profiles, as their files spell them. */
export function listProfiles(): string[] {
  return [...index().values()].map((p) => p.name);
}

/** The file of a built-in profile, or undefined when no profile has that name. */
export function findProfile(name: string): { name: string; path: string } | undefined {
  return index().get(normalize(name));
}
