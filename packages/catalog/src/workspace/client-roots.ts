/**
 * The folders a desktop client says the user opened (MCP `roots/list`), as allowed roots: only
 * `file:` URIs, symlinks resolved, never a filesystem root or the home directory (or anything
 * containing it), and, when the operator named roots, only what lies inside them (the
 * intersection: a client folder inside an operator root stays; an operator root inside a client
 * folder is kept as the operator named it).
 */
import { fileURLToPath } from 'node:url';
import { isInside, opensEverything, realPathLenient } from './roots.js';

export function clientRootsWithin(
  uris: readonly string[],
  operatorRoots: readonly string[] | undefined,
): string[] {
  const dirs: string[] = [];
  for (const uri of uris) {
    if (!uri.startsWith('file:')) continue;
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      continue;
    }
    const real = realPathLenient(path);
    if (opensEverything(real)) continue;
    if (operatorRoots === undefined) dirs.push(real);
    else {
      for (const root of operatorRoots) {
        if (isInside(real, root)) dirs.push(real);
        else if (isInside(root, real)) dirs.push(root);
      }
    }
  }
  const out: string[] = [];
  for (const dir of dirs) if (!out.some((kept) => isInside(dir, kept))) out.push(dir);
  return out.filter((dir) => !out.some((other) => other !== dir && isInside(dir, other)));
}
