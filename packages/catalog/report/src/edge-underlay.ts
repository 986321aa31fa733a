import type cytoscape from 'cytoscape';

/**
 * The edges of a large estate drawn as one canvas path under Cytoscape's layers, redrawn on
 * every pan and zoom with Cytoscape's viewport transform. Thousands of edges as Cytoscape
 * elements cost seconds to create and style when the page opens; as lines on a canvas they cost
 * milliseconds per frame. Nodes, attack-path edges and everything clickable stay Cytoscape
 * elements; the nodes cannot be dragged, so the lines always meet them.
 */
export function drawEdgeUnderlay(cy: cytoscape.Core, lines: Float64Array): void {
  const container = cy.container();
  if (!container) return;
  const canvas = document.createElement('canvas');
  canvas.setAttribute('aria-hidden', 'true');
  canvas.style.position = 'absolute';
  canvas.style.left = '0';
  canvas.style.top = '0';
  canvas.style.pointerEvents = 'none';
  container.prepend(canvas);
  let pending = false;
  const draw = () => {
    pending = false;
    const ratio = window.devicePixelRatio || 1;
    const width = container.clientWidth;
    const height = container.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    const g = canvas.getContext('2d');
    if (!g) return;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    const zoom = cy.zoom();
    const pan = cy.pan();
    g.setTransform(zoom * ratio, 0, 0, zoom * ratio, pan.x * ratio, pan.y * ratio);
    g.strokeStyle = 'rgba(148, 163, 184, 0.55)';
    g.lineWidth = 1 / zoom;
    g.beginPath();
    for (let i = 0; i < lines.length; i += 4) {
      g.moveTo(lines[i] ?? 0, lines[i + 1] ?? 0);
      g.lineTo(lines[i + 2] ?? 0, lines[i + 3] ?? 0);
    }
    g.stroke();
  };
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(draw);
  };
  cy.on('viewport resize', schedule);
  schedule();
}
