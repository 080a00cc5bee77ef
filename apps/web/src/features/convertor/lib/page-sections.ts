import {
  firstTag,
  type PageContent,
  type PageTag,
  PRODUCT_NAME,
  visibleSection,
} from '@parla/contract';
import type { TFunction } from 'i18next';

/**
 * The convertor page's texts. They come from the content call (GET /content/pages/{language}/
 * convertor, content/pages/default/convertor.md); `fallbackTexts` are used while it loads or if
 * it fails, so the page is never empty.
 */
export interface ConvertorTexts {
  intro: { title: string; text: string; link: { label: string; link: string } | null };
  tiles: { label: string; content: string }[];
  howItWorks: { title: string; steps: { label: string; content: string }[] };
  faq: { title: string; questions: { label: string; content: string }[] };
  blog: { title: string; link: { label: string; link: string } | null };
}

/**
 * The texts shown while the content loads or if it fails, in the page's language, with the
 * catalogue's own counts when known (never a claimed number), and natural speech named only
 * when the catalogue has natural voices.
 */
export function fallbackTexts(
  t: TFunction,
  counts: { voices: number; languages: number; natural?: number } | undefined,
): ConvertorTexts {
  // No claim of natural speech unless the catalogue has natural voices (issue 29).
  const natural = (counts?.natural ?? 0) > 0;
  return {
    intro: {
      title: t(natural ? 'fallback.title' : 'fallback.titlePlain'),
      text: t('fallback.text', { product: PRODUCT_NAME }),
      link: { label: t('blog.pricing'), link: '/pricing' },
    },
    tiles: [
      {
        label: counts
          ? t('plans.languages', { count: counts.languages })
          : t('plans.everyLanguage'),
        content: t('fallback.languagesTile'),
      },
      {
        label: counts ? t('plans.voices', { count: counts.voices }) : t('plans.everyVoice'),
        content: t(natural ? 'fallback.voicesTile' : 'fallback.voicesTilePlain'),
      },
      { label: t('fallback.ssmlTitle'), content: t('fallback.ssmlTile') },
    ],
    howItWorks: {
      title: t('fallback.howItWorks'),
      steps: [
        { label: t('fallback.writeTitle'), content: t('fallback.write') },
        { label: t('fallback.chooseTitle'), content: t('fallback.choose') },
        { label: t('fallback.listenTitle'), content: t('fallback.listen') },
      ],
    },
    faq: { title: t('fallback.faq'), questions: [] },
    blog: { title: t('fallback.blog'), link: { label: t('blog.allArticles'), link: '/blog' } },
  };
}

const labelled = (tag: PageTag) => ({ label: tag.label ?? '', content: tag.content ?? '' });

export function convertorTexts(
  content: PageContent | undefined,
  fallback: ConvertorTexts,
): ConvertorTexts {
  if (!content) return fallback;
  const section = (id: string) => visibleSection(content, id);
  const all = (tags: PageTag[] | null, type: string) => (tags ?? []).filter((t) => t.type === type);
  const linkOf = (tag: PageTag | undefined) =>
    tag?.link ? { label: tag.label ?? tag.link, link: tag.link } : null;

  const intro = section('intro');
  const tiles = section('info-tiles');
  const how = section('how-it-works');
  const faq = section('faq');
  const blog = section('blog-teasers');
  return {
    intro: intro
      ? {
          title: firstTag(intro, 'title')?.content ?? fallback.intro.title,
          text: firstTag(intro, 'text')?.content ?? fallback.intro.text,
          link: linkOf(firstTag(intro, 'link')),
        }
      : fallback.intro,
    tiles: tiles ? all(tiles, 'tile').map(labelled) : fallback.tiles,
    howItWorks: how
      ? {
          title: firstTag(how, 'title')?.content ?? fallback.howItWorks.title,
          steps: all(how, 'step').map(labelled),
        }
      : fallback.howItWorks,
    faq: faq
      ? {
          title: firstTag(faq, 'title')?.content ?? fallback.faq.title,
          questions: all(faq, 'question').map(labelled),
        }
      : fallback.faq,
    blog: blog
      ? {
          title: firstTag(blog, 'title')?.content ?? fallback.blog.title,
          link: linkOf(firstTag(blog, 'link')),
        }
      : fallback.blog,
  };
}
