/** Plain-text tables for the listing commands: a title, a header row and aligned columns. */
export function renderTable(
  title: string,
  headers: string[],
  rows: string[][],
  maxWidths: number[] = [],
): string {
  const cut = (text: string, max: number | undefined) =>
    max !== undefined && text.length > max ? `${text.slice(0, Math.max(0, max - 3))}...` : text;
  const cells = rows.map((row) => row.map((cell, i) => cut(cell.replace(/\s+/g, ' ').trim(), maxWidths[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    ` ${row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()}`;
  const body = [line(headers), ...cells.map(line)];
  const width = Math.max(...body.map((l) => l.length));
  const pad = Math.max(0, Math.floor((width - title.length) / 2));
  return `${' '.repeat(pad)}${title}\n${body.join('\n')}\n`;
}
