/**
 * Large JSON files the server writes for a shared workspace (live collections, scan results),
 * written without holding the event loop for the whole serialisation.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/** Elements serialised at a time by `writeJsonYielding`. */
const CHUNK = 2000;

/**
 * Write `body` as JSON (what `JSON.stringify` gives, keys of undefined values left out) with its
 * large arrays serialised a chunk at a time, the event loop turning between chunks: one
 * `JSON.stringify` of a 150,000-asset collection blocks it for seconds, long enough to delay the
 * renewal of a lease another call of this replica holds (issue 20, second review).
 */
export async function writeJsonYielding(
  path: string,
  body: Record<string, unknown>,
  mode: number,
): Promise<void> {
  const handle = await open(path, 'w', mode);
  try {
    let separator = '{';
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined) continue;
      await handle.write(`${separator}${JSON.stringify(key)}:`);
      separator = ',';
      if (!Array.isArray(value) || value.length <= CHUNK) {
        await handle.write(JSON.stringify(value));
        continue;
      }
      let open = '[';
      for (let i = 0; i < value.length; i += CHUNK) {
        // Each chunk as an array, without its brackets: the elements as one stringify gives them.
        const part = JSON.stringify(value.slice(i, i + CHUNK));
        await handle.write(`${open}${part.slice(1, -1)}`);
        open = ',';
      }
      await handle.write(']');
    }
    await handle.write(separator === '{' ? '{}' : '}');
  } finally {
    await handle.close();
  }
}

/**
 * Write `body` (as `writeJsonYielding`, mode 0600) to a temporary file of this write's own, then
 * rename it over `path`, so a crash mid-write never leaves half a file. Two writes of one path at
 * once (two scans of a live dataset) are written in chunks with waits between, and one shared
 * temporary file would get both interleaved (final review of issue 20): the later rename wins,
 * whole. A failed write removes its temporary file. `protect` is called with the temporary path
 * before anything is written (the caller's workspace keeps tools from reading it).
 */
export async function replaceJsonFile(
  path: string,
  body: Record<string, unknown>,
  protect: (path: string) => void,
): Promise<void> {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  protect(temp);
  try {
    await writeJsonYielding(temp, body, 0o600);
    await rename(temp, path);
  } catch (error) {
    await removeQuietly(temp);
    throw error;
  }
}

/** Delete a file the server wrote and no one will read, if it is there; a failure is ignored. */
export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => {});
}
