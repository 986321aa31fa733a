/** Longest text one docs topic returns; the rest is cut with a note saying so. */
export const MAX_SECTION_CHARS = 40_000;

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * The section of a Markdown page under a heading: from that heading to the next heading of the
 * same or a higher level. Lines inside code fences are never headings (a YAML comment such as
 * `# config.yaml` in an example would otherwise end the section). Undefined when no heading
 * has that text.
 */
export function sectionOf(markdown: string, heading: string): string | undefined {
  const lines = markdown.split('\n');
  let inFence = false;
  let start = -1;
  let level = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const match = HEADING.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length;
    if (start < 0) {
      if (match[2] === heading) {
        start = i;
        level = depth;
      }
    } else if (depth <= level) {
      return lines.slice(start, i).join('\n').trimEnd();
    }
  }
  return start < 0 ? undefined : lines.slice(start).join('\n').trimEnd();
}

/** Cut a text to the topic limit, saying where it was cut. */
export function capSection(text: string): string {
  if (text.length <= MAX_SECTION_CHARS) return text;
  return `${text.slice(0, MAX_SECTION_CHARS)}\n\n... (cut at ${MAX_SECTION_CHARS} characters)`;
}
