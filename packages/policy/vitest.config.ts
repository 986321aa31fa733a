import { packageTestConfig } from '../../vitest.shared.ts';

// Files that need a fresh module graph say so with `@isolated` in their leading comment.
export default packageTestConfig();
