import { useTranslation } from 'react-i18next';

/**
 * The few words of the content screens that are not content (labels of the blog, the article
 * and the contact form), in the route language. The validation messages of the contact form
 * stay word for word as SPEC §5 gives them.
 */
export interface ContentUiText {
  all: string;
  filterByTag: string;
  recentArticles: string;
  suggestedTags: string;
  tags: string;
  noArticles: string;
  minutesToRead: (minutes: number) => string;
  words: (count: number) => string;
  publishedOn: string;
  by: string;
  readIn: string;
  readArticle: string;
  allArticles: string;
  tryIt: string;
  login: string;
  pricing: string;
  contact: string;
  moreAbout: (tag: string) => string;
  contactForm: {
    title: string;
    name: string;
    email: string;
    subject: string;
    message: string;
    send: string;
  };
}

/** The labels of the content screens in the page's language. */
export function useContentUiText(): ContentUiText {
  const { t } = useTranslation();
  return {
    all: t('blog.all'),
    filterByTag: t('blog.filterByTag'),
    recentArticles: t('blog.recentArticles'),
    suggestedTags: t('blog.suggestedTags'),
    tags: t('blog.tags'),
    noArticles: t('blog.noArticles'),
    minutesToRead: (minutes) => t('blog.minutesToRead', { count: minutes }),
    words: (count) => t('blog.words', { count }),
    publishedOn: t('blog.publishedOn'),
    by: t('blog.by'),
    readIn: t('blog.readIn'),
    readArticle: t('blog.readArticle'),
    allArticles: t('blog.allArticles'),
    tryIt: t('blog.tryIt'),
    login: t('blog.login'),
    pricing: t('blog.pricing'),
    contact: t('blog.contact'),
    moreAbout: (tag) => t('blog.moreAbout', { tag }),
    contactForm: {
      title: t('contactForm.title'),
      name: t('contactForm.name'),
      email: t('contactForm.email'),
      subject: t('contactForm.subject'),
      message: t('contactForm.message'),
      send: t('contactForm.send'),
    },
  };
}
