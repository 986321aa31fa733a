/**
 * The report's graph layout, computed at export time so the browser only draws: nodes are
 * grouped (by account and region, the way people read an estate), each group is a sunflower
 * disc with its nodes sorted by type so like sits near like, and the discs are packed in rows,
 * largest first. Linear in the number of nodes and deterministic, so 50,000 assets lay out in
 * milliseconds and two exports of the same data draw the same picture (a force layout would
 * take seconds at that size and move on every export).
 */

export interface LayoutInput {
  /** Which group a node belongs to. */
  group: string;
  /** Sort key inside its group (the asset type). */
  order: string;
}

export interface Layout {
  /** x, y per node, flattened: [x0, y0, x1, y1, ...], whole numbers. */
  positions: number[];
  /** Each group's label and centre, for the drawing's captions. */
  groups: { label: string; x: number; y: number; radius: number }[];
}

/** Distance between neighbouring nodes inside a disc. */
const SPACING = 28;
/** Gap between discs. */
const GAP = 80;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

export function layoutNodes(nodes: readonly LayoutInput[], signal?: AbortSignal): Layout {
  const byGroup = new Map<string, number[]>();
  nodes.forEach((n, i) => {
    const list = byGroup.get(n.group);
    if (list) list.push(i);
    else byGroup.set(n.group, [i]);
  });
  const groups = [...byGroup.entries()]
    .map(([label, members]) => ({ label, members, radius: SPACING * Math.sqrt(members.length) + SPACING }))
    .sort((a, b) => b.members.length - a.members.length || (a.label < b.label ? -1 : 1));
  // Rows about as wide as the total area is tall, so the picture comes out roughly square.
  const area = groups.reduce((sum, g) => sum + (2 * g.radius + GAP) ** 2, 0);
  const rowWidth = Math.max(Math.sqrt(area), 2 * (groups[0]?.radius ?? 0) + GAP);
  const positions = new Array<number>(nodes.length * 2).fill(0);
  const placed: Layout['groups'] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const g of groups) {
    signal?.throwIfAborted();
    const size = 2 * g.radius + GAP;
    if (x > 0 && x + size > rowWidth) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const cx = x + size / 2;
    const cy = y + size / 2;
    g.members.sort((a, b) => {
      const ka = nodes[a]?.order ?? '';
      const kb = nodes[b]?.order ?? '';
      return ka < kb ? -1 : ka > kb ? 1 : a - b;
    });
    g.members.forEach((node, k) => {
      const r = SPACING * Math.sqrt(k + 0.5);
      const theta = k * GOLDEN_ANGLE;
      positions[2 * node] = Math.round(cx + r * Math.cos(theta));
      positions[2 * node + 1] = Math.round(cy + r * Math.sin(theta));
    });
    placed.push({ label: g.label, x: Math.round(cx), y: Math.round(y), radius: Math.round(g.radius) });
    x += size;
    rowHeight = Math.max(rowHeight, size);
  }
  return { positions, groups: placed };
}
