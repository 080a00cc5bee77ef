import type { PageContent, PageTag } from '@parla/contract';

/**
 * The convertor page's texts. They come from the content call (GET /content/pages/{language}/
 * convertor, content/pages/default/convertor.md); these are used while it loads or if it fails,
 * so the page is never empty.
 */
export interface ConvertorTexts {
  intro: { title: string; text: string; link: { label: string; link: string } | null };
  tiles: { label: string; content: string }[];
  howItWorks: { title: string; steps: { label: string; content: string }[] };
  faq: { title: string; questions: { label: string; content: string }[] };
  blog: { title: string; link: { label: string; link: string } | null };
}

export const FALLBACK_TEXTS: ConvertorTexts = {
  intro: {
    title: 'Turn your text into natural speech',
    text: 'Type or paste plain text or SSML, choose a voice, and listen in your browser: Parla speaks every language of its voice catalogue.',
    link: { label: 'See the plans', link: '/pricing' },
  },
  tiles: [
    {
      label: 'Every language',
      content: 'From Arabic to Welsh: pick a language and hear your text in it.',
    },
    {
      label: 'Every voice',
      content: 'Neural and standard voices, each with the effects it supports.',
    },
    {
      label: 'Full SSML control',
      content: 'Pauses, speed, volume, pitch, say-as and emphasis, by hand or from the toolbar.',
    },
  ],
  howItWorks: {
    title: 'How it works',
    steps: [
      {
        label: 'Write or paste your text',
        content: 'Use the Text tab for prose or the SSML tab for precise control.',
      },
      {
        label: 'Choose a voice',
        content: 'Pick the engine, language and voice, then set speed, volume and pitch.',
      },
      { label: 'Convert and listen', content: 'Press Convert and play the audio straight away.' },
    ],
  },
  faq: { title: 'Frequently asked questions', questions: [] },
  blog: { title: 'From the blog', link: { label: 'All articles', link: '/blog' } },
};

const labelled = (tag: PageTag) => ({ label: tag.label ?? '', content: tag.content ?? '' });

export function convertorTexts(content: PageContent | undefined): ConvertorTexts {
  if (!content) return FALLBACK_TEXTS;
  const section = (id: string) => {
    const found = content.sections.find((s) => s.id === id);
    return found && found.visibility !== 'hidden' ? found.tags : null;
  };
  const first = (tags: PageTag[] | null, type: string) => tags?.find((t) => t.type === type);
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
          title: first(intro, 'title')?.content ?? FALLBACK_TEXTS.intro.title,
          text: first(intro, 'text')?.content ?? FALLBACK_TEXTS.intro.text,
          link: linkOf(first(intro, 'link')),
        }
      : FALLBACK_TEXTS.intro,
    tiles: tiles ? all(tiles, 'tile').map(labelled) : FALLBACK_TEXTS.tiles,
    howItWorks: how
      ? {
          title: first(how, 'title')?.content ?? 'How it works',
          steps: all(how, 'step').map(labelled),
        }
      : FALLBACK_TEXTS.howItWorks,
    faq: faq
      ? {
          title: first(faq, 'title')?.content ?? 'FAQ',
          questions: all(faq, 'question').map(labelled),
        }
      : FALLBACK_TEXTS.faq,
    blog: blog
      ? {
          title: first(blog, 'title')?.content ?? 'From the blog',
          link: linkOf(first(blog, 'link')),
        }
      : FALLBACK_TEXTS.blog,
  };
}
