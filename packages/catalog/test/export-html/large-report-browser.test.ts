import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEstate } from '../../bench/estate/index.js';
import { createCatalogLayer, Dataset, Workspace } from '../../src/index.js';
import { hasChromium, launchChromium } from './browser.js';

/**
 * A generated 1,000-asset estate (some 2,800 edges): past the size where the report draws plain
 * edges on its canvas underlay instead of as Cytoscape elements.
 */
describe.runIf(hasChromium())('report.html of a larger estate in headless Chromium', () => {
  let out: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'cloudg-large-report-'));
    const estate = generateEstate({ seed: 3, assets: 1000, scans: false });
    const ws = new Workspace({ allowedRoots: [out], outputDir: out, cwd: out });
    ws.add(
      new Dataset({
        name: 'estate',
        kind: 'inventory',
        source: 'inline',
        assets: estate.assets,
        edges: estate.edges,
        findings: estate.findings,
      }),
    );
    const result = await createCatalogLayer({ workspace: ws }).callTool('export_report', { format: 'html' });
    expect(result.isError).toBe(false);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    await page.waitForFunction(() => performance.getEntriesByName('cloudg:painted').length > 0, null, {
      timeout: 20_000,
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await rm(out, { recursive: true, force: true });
  });

  it('opens without console errors, with the plain edges on the underlay and the nodes as elements', async () => {
    expect(problems).toEqual([]);
    const counts = await page.evaluate(() => {
      type Cy = { nodes(): { length: number }; edges(): { length: number } };
      const cy = (window as unknown as { cloudgReport: { cy: Cy } }).cloudgReport.cy;
      const underlay = document.querySelector<HTMLCanvasElement>('#graph > canvas');
      let painted = 0;
      const g = underlay?.getContext('2d');
      if (underlay && g) {
        const pixels = g.getImageData(0, 0, underlay.width, underlay.height).data;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) painted += 1;
      }
      return { nodes: cy.nodes().length, edges: cy.edges().length, painted };
    });
    expect(counts.nodes).toBeGreaterThanOrEqual(1000);
    // Only attack-path edges are elements.
    expect(counts.edges).toBeLessThan(100);
    expect(counts.painted).toBeGreaterThan(1000);
  });

  it('redraws the underlay when the view zooms', async () => {
    const before = await page.evaluate(() =>
      document.querySelector<HTMLCanvasElement>('#graph > canvas')?.toDataURL(),
    );
    await page.evaluate(() => {
      type Cy = { zoom(level: number): void; zoom(): number };
      const cy = (window as unknown as { cloudgReport: { cy: Cy } }).cloudgReport.cy;
      cy.zoom(cy.zoom() * 2);
    });
    await expect
      .poll(() =>
        page.evaluate(() => document.querySelector<HTMLCanvasElement>('#graph > canvas')?.toDataURL()),
      )
      .not.toBe(before);
  });
});
