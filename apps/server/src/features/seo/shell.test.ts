import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASE_KIND, testConfig } from '../../../test/test-app.js';

// A build as apps/web/static-shell.ts writes it: index.html with the English shell, and each
// language's shell in shell.json, the convertor's headline and lead's link marked.
const webRoot = mkdtempSync(path.join(tmpdir(), 'parla-web-'));
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));
writeFileSync(
  path.join(webRoot, 'index.html'),
  '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Parla</title>\n  </head>\n  <body>\n    <div id="static-shell"><header>en</header><main>built</main></div>\n    <div id="root"></div>\n  </body>\n</html>\n',
);
const shell = (locale: string) => ({
  header: `<header>${locale}</header>`,
  convertor: `<header>${locale}</header><main><h1><!--shell:headline--></h1><p>lead <!--shell:link--></p><section><!--shell:about--></section></main>`,
});
writeFileSync(
  path.join(webRoot, 'shell.json'),
  JSON.stringify({ en: shell('en'), fr: shell('fr'), ar: shell('ar') }),
);

const app = await createTestApp({ config: testConfig(), webRoot });
const page = async (url: string) => (await app.inject({ method: 'GET', url })).body;
const shellOf = (html: string) =>
  /<div id="static-shell">([\s\S]*?)<\/div>\s*<div id="root">/.exec(html)?.[1];

describe(`the static shell in the served HTML (issue 33 item 9, ${TEST_DATABASE_KIND})`, () => {
  it("draws the convertor in the page's language, with its content's headline and link", async () => {
    const french = shellOf(await page('/fr/convertor'));
    expect(french).toMatch(/^<header>fr<\/header><main><h1>[^<{]+<\/h1>/);
    // The headline is the content's, its catalogue sections resolved (no {{…}} left).
    expect(french).toMatch(/<h1>Transformez votre texte en voix( naturelle)?<\/h1>/);
    expect(french).toContain('<a href="/fr/pricing">');
    // The paragraph about Parla, the catalogue's numbers in it.
    expect(french).toMatch(
      /<section>Parla lit à voix haute du texte brut et du SSML dans [\d\s\u202f]+ langues/,
    );
    expect(french).not.toContain('{{');
    const english = shellOf(await page('/convertor?id=1'));
    expect(english).toContain('<header>en</header>');
    expect(english).toContain('<a href="/pricing">See the plans</a>');
    expect(shellOf(await page('/ar/convertor'))).toContain('<header>ar</header><main><h1>');
  });

  it('draws the header alone on any other page', async () => {
    expect(shellOf(await page('/fr/pricing'))).toBe('<header>fr</header>');
    expect(shellOf(await page('/account'))).toBe('<header>en</header>');
  });
});
