import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Workspace } from '../../src/index.js';

function tree() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cloudg-roots-')));
  for (const dir of ['op', 'op/project', 'elsewhere', 'out']) mkdirSync(join(base, dir), { recursive: true });
  return base;
}
const uri = (path: string) => pathToFileURL(path).href;

describe('Workspace.useClientRoots', () => {
  it("makes the client's folders the roots, keeps the output directory, never / or the home directory", () => {
    const base = tree();
    const ws = new Workspace({ cwd: join(base, 'elsewhere'), outputDir: join(base, 'out'), env: {} });
    const roots = ws.useClientRoots([
      uri(join(base, 'op/project')),
      uri('/'),
      uri(homedir()),
      'https://example.com/x',
    ]);
    expect(roots).toEqual([join(base, 'op/project'), join(base, 'out')]);
    expect(() => ws.checkPath(join(base, 'elsewhere/file.json'), { mustExist: false })).toThrow(
      /outside the allowed roots/,
    );
  });

  it("keeps only what lies inside the operator's roots", () => {
    const base = tree();
    const ws = new Workspace({
      cwd: base,
      allowedRoots: [join(base, 'op')],
      outputDir: join(base, 'out'),
      env: {},
    });
    expect(ws.useClientRoots([uri(join(base, 'op/project')), uri(join(base, 'elsewhere'))])).toEqual([
      join(base, 'op/project'),
      join(base, 'out'),
    ]);
    // A client folder that contains the operator's root narrows to that root.
    expect(ws.useClientRoots([uri(base)])).toEqual([join(base, 'op'), join(base, 'out')]);
  });

  it('falls back to the configured roots when nothing usable is left', () => {
    const base = tree();
    const ws = new Workspace({
      cwd: base,
      allowedRoots: [join(base, 'op')],
      outputDir: join(base, 'out'),
      env: {},
    });
    const configured = ws.allowedRoots;
    expect(ws.useClientRoots([uri('/')])).toEqual(configured);
  });
});
