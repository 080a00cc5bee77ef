import { chromium } from 'playwright-core';
const [,, base, ...paths] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-background-networking'] });
const ctx = await b.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light' });
const p = await ctx.newPage();
for (const path of paths) {
  await p.goto(base + path);
  await p.waitForTimeout(2500);
  const name = path.replace(/\W+/g, '_') || 'root';
  await p.screenshot({ path: `/tmp/shot${name}.png` });
  console.log(`/tmp/shot${name}.png`);
}
await b.close();
