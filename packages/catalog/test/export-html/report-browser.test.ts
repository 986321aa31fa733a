import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLayer } from '../tools/export-support.js';
import { call } from '../tools/support.js';
import { hasChromium, launchChromium } from './browser.js';

/** Where the screenshot goes: the package's gitignored test output. */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-output');

/**
 * The interactive report of the sample estate opened in headless Chromium, from the file
 * export_report wrote (file://, so nothing it needs can come from a network).
 */
describe.runIf(hasChromium())('report.html in headless Chromium', () => {
  let estate: Awaited<ReturnType<typeof exportLayer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    estate = await exportLayer();
    const result = await call(estate.layer, 'export_report', { format: 'html', subdir: 'html' });
    const file = (result.files as { html: string }).html;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await estate?.cleanup();
  });

  it('opens without console errors and fetches nothing', () => {
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('draws the graph: Cytoscape holds the nodes and its canvas has painted pixels', async () => {
    const nodes = await page.evaluate(
      () =>
        (
          window as unknown as { cloudgReport: { cy: { nodes(): { length: number } } } }
        ).cloudgReport.cy.nodes().length,
    );
    expect(nodes).toBeGreaterThanOrEqual(44);
    const painted = await page.evaluate(() => {
      let count = 0;
      for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>('#graph canvas'))) {
        const g = canvas.getContext('2d');
        if (!g || canvas.width === 0) continue;
        const pixels = g.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) count += 1;
      }
      return count;
    });
    expect(painted).toBeGreaterThan(500);
  });

  it('highlights attack paths', async () => {
    const onPath = await page.evaluate(
      () =>
        (
          window as unknown as { cloudgReport: { cy: { $(s: string): { length: number } } } }
        ).cloudgReport.cy.$('node.attack').length,
    );
    expect(onPath).toBeGreaterThan(1);
    expect(await page.locator('#paths li').count()).toBeGreaterThan(0);
  });

  it('filters the findings table by severity and by text', async () => {
    const all = await page.locator('#findings-body tr').count();
    expect(all).toBeGreaterThan(1);
    await page.selectOption('#filter-severity', { label: 'CRITICAL' });
    const severities = await page
      .locator('#findings-body tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-severity')));
    expect(severities.length).toBeGreaterThan(0);
    expect(severities.length).toBeLessThan(all);
    expect(new Set(severities)).toEqual(new Set(['CRITICAL']));
    await page.click('#filter-clear');
    await page.fill('#filter-text', 'ssh');
    const titles = await page.locator('#findings-body tr').allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    for (const t of titles) expect(t.toLowerCase()).toContain('ssh');
    await page.click('#filter-clear');
    expect(await page.locator('#findings-body tr').count()).toBe(all);
  });

  it('answers a click on a node with its detail and its findings', async () => {
    // A node with findings, where the viewport shows it.
    const point = await page.evaluate(() => {
      type Node = { renderedPosition(): { x: number; y: number }; data(key: string): string };
      type Cy = { $(selector: string): { first(): Node }; container(): HTMLElement };
      const cy = (window as unknown as { cloudgReport: { cy: Cy } }).cloudgReport.cy;
      const node = cy.$('node.flagged').first();
      const box = cy.container().getBoundingClientRect();
      const p = node.renderedPosition();
      return { x: box.left + p.x, y: box.top + p.y, label: node.data('label') };
    });
    await page.mouse.click(point.x, point.y);
    await expect.poll(() => page.locator('#node-detail h3').textContent()).toBe(point.label);
    await expect.poll(() => page.locator('#findings-count').textContent()).toContain(`of ${point.label}`);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'report-sample.png'), fullPage: true });
  });
});
