// Renders media/icon.png (128×128, the Marketplace/Extensions icon) from the mark in media/datagrok.svg:
// the mark's strokes in white on a rounded tile of the gallery banner's colour. Run once by hand after
// changing the mark: `node .ci/render-icon.mjs` (needs Chromium: /usr/bin/chromium or DATAGROK_TEST_CHROMIUM).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const tile = manifest.galleryBanner.color;
const mark = fs.readFileSync(path.join(root, 'media', 'datagrok.svg'), 'utf8')
  .replace('width="24" height="24"', 'width="96" height="96"')
  .replace('stroke="currentColor"', 'stroke="#ffffff"');
const html = `<body style="margin:0;background:transparent"><div id="icon" style="width:128px;height:128px;border-radius:24px;background:${tile};display:flex;align-items:center;justify-content:center">${mark}</div></body>`;

const browser = await chromium.launch({ executablePath: process.env.DATAGROK_TEST_CHROMIUM || '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.locator('#icon').screenshot({ path: path.join(root, 'media', 'icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
