/**
 * The public API is chosen, not accumulated: the entry point exports exactly the names
 * `api-report.md` lists. On a difference this fails with the names added or removed and the
 * command that accepts the change (`pnpm api-report --update`).
 */
import { join } from 'node:path';
import { it } from 'vitest';
import { checkApiReport } from '../../../scripts/api-report.js';

it('exports exactly the names api-report.md lists', () => {
  const check = checkApiReport(join(import.meta.dirname, '..'));
  if (!check.ok) throw new Error(check.message);
});
