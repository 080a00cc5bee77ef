import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { i18nFor, loadLanguage, TRANSLATED_LOCALES } from './i18n';
import { SITE_LANGUAGES } from './languages';

const LOCALES_DIR = path.resolve(__dirname, '../locales');
/** The `lexicons` namespace: the pronunciation dialog's and page's words (issue 32). */
const LEXICONS_DIR = path.join(LOCALES_DIR, 'lexicons');
/** The words of the pages other than the convertor: a chunk of their own (issue 33 item 9). */
const PAGES_DIR = path.join(LOCALES_DIR, 'pages');
/** The operator console's words (namespace `admin`), loaded by /admin only. */
const ADMIN_DIR = path.join(LOCALES_DIR, 'admin');
const SRC_DIR = path.resolve(__dirname, '..');
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type Words = { [key: string]: string | Words };

function flatten(words: Words, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(words)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(name, value);
    else for (const [inner, text] of flatten(value, name)) flat.set(inner, text);
  }
  return flat;
}

const read = (locale: string, dir = LOCALES_DIR) =>
  flatten(JSON.parse(readFileSync(path.join(dir, `${locale}.json`), 'utf8')) as Words);

/** Keys without their plural suffix, with the plural categories each one has. */
function baseKeys(flat: Map<string, string>): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const key of flat.keys()) {
    const match = PLURAL_SUFFIX.exec(key);
    const base = match ? key.slice(0, match.index) : key;
    const forms = keys.get(base) ?? new Set<string>();
    if (match?.[1]) forms.add(match[1]);
    keys.set(base, forms);
  }
  return keys;
}

/** Every source file of the app but the tests. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const interpolations = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)/g)].map((match) => match[1]).sort();

describe('the words of the interface (issue 18 item 1)', () => {
  it('has a file for every language of the site, and no other', () => {
    const files = readdirSync(LOCALES_DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...TRANSLATED_LOCALES].sort());
    for (const dir of [LEXICONS_DIR, PAGES_DIR, ADMIN_DIR]) {
      const chunk = readdirSync(dir).map((file) => file.replace(/\.json$/, ''));
      expect(chunk.sort()).toEqual([...TRANSLATED_LOCALES].sort());
    }
    expect(SITE_LANGUAGES.map((language) => language.locale).sort()).toEqual(files.sort());
  });

  const others = TRANSLATED_LOCALES.filter((locale) => locale !== 'en');
  it.each(
    others.flatMap((locale) => [
      [locale, 'translation', LOCALES_DIR],
      [locale, 'lexicons', LEXICONS_DIR],
      [locale, 'translation of the other pages', PAGES_DIR],
      [locale, 'admin', ADMIN_DIR],
    ]),
  )(
    '%s has every key of English (%s), no other, and each plural form its language needs',
    (locale, _namespace, dir) => {
      const english = baseKeys(read('en', dir));
      const words = read(locale, dir);
      const keys = baseKeys(words);
      expect([...keys.keys()].sort()).toEqual([...english.keys()].sort());
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      for (const [key, forms] of keys) {
        if ((english.get(key)?.size ?? 0) === 0) {
          expect(forms.size, `${locale}: ${key} is not plural in English`).toBe(0);
          continue;
        }
        expect([...forms].sort(), `${locale}: plural forms of ${key}`).toEqual(
          [...categories].sort(),
        );
      }
      // The same placeholders as English, so nothing the page passes in is lost.
      const englishWords = read('en', dir);
      for (const [key, text] of words) {
        const base = key.replace(PLURAL_SUFFIX, '');
        const reference =
          englishWords.get(key) ??
          englishWords.get(`${base}_other`) ??
          englishWords.get(base) ??
          '';
        const own = interpolations(text).filter((name) => name !== 'count');
        expect(own, `${locale}: placeholders of ${key}`).toEqual(
          interpolations(reference).filter((name) => name !== 'count'),
        );
        expect(text.trim(), `${locale}: ${key} is empty`).not.toBe('');
      }
    },
  );

  it('uses every key somewhere in the app, written out in full', () => {
    const code = sources(SRC_DIR)
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    for (const dir of [LOCALES_DIR, LEXICONS_DIR, PAGES_DIR, ADMIN_DIR]) {
      const nested = [...read('en', dir).values()].join('\n');
      const unused = [...baseKeys(read('en', dir)).keys()].filter(
        (key) => !code.includes(`'${key}'`) && !code.includes(`"${key}"`) && !nested.includes(key),
      );
      expect(unused).toEqual([]);
    }
  });

  it("keeps the convertor's words and the other pages' apart: no key in both", () => {
    const pages = read('en', PAGES_DIR);
    expect([...read('en').keys()].filter((key) => pages.has(key))).toEqual([]);
  });

  it('writes numbers and plurals the way each language does', async () => {
    for (const locale of TRANSLATED_LOCALES) await loadLanguage(locale);
    expect(i18nFor('en').t('plans.characters', { count: 1000 })).toBe('1,000 characters');
    expect(i18nFor('en').t('plans.characters', { count: 1 })).toBe('1 character');
    expect(i18nFor('fr').t('plans.characters', { count: 1000 })).toBe('1\u202f000 caractères');
    expect(i18nFor('de').t('plans.characters', { count: 1000 })).toBe('1.000 Zeichen');
    expect(i18nFor('es').t('player.back', { count: 5 })).toBe('Retroceder 5 segundos');
    expect(i18nFor('ar').t('plans.voices', { count: 2 })).toBe('صوتان');
    const arabic = new Intl.NumberFormat('ar');
    expect(i18nFor('ar').t('plans.voices', { count: 5 })).toBe(`${arabic.format(5)} أصوات`);
    expect(i18nFor('ar').t('plans.voices', { count: 11 })).toBe(`${arabic.format(11)} صوتًا`);
    expect(i18nFor('en').t('toolbar.insert', { tag: 'Pause' })).toBe('Insert pause');
    expect(i18nFor('de').t('toolbar.insert', { tag: 'Pause' })).toBe('Pause einfügen');
    expect(
      i18nFor('en').t('footer.description', { product: 'Parla', voices: 1200, languages: 1 }),
    ).toContain('1,200 voices in 1 language,');
  });
});
