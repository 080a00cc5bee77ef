import { Container, Skeleton, Stack } from '@mantine/core';
import { PRODUCT_NAME } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { articleTranslationQueryOptions } from '../../features/content/api/find-article-translation';
import { articleQueryOptions } from '../../features/content/api/get-article';
import { ArticleView } from '../../features/content/components/article-view';
import { useContentUiText } from '../../features/content/lib/ui-text';
import { usePageMeta } from '../../hooks/use-page-meta';
import { useRouteLanguage } from '../../hooks/use-route-language';

/** SPEC §2 "Blog": one article in the route language; on load failure, back to /blog. */
export default function BlogArticlePage() {
  const { article: slug = '' } = useParams();
  const { language } = useRouteLanguage();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const text = useContentUiText();
  const article = useQuery(articleQueryOptions(language, slug));
  // The address may be a translation's slug under this language's prefix (the language
  // switcher keeps the path): look for this language's own version before giving up.
  const translation = useQuery({
    ...articleTranslationQueryOptions(language, slug),
    enabled: article.isError,
  });

  useEffect(() => {
    if (!article.isError || translation.isPending) return;
    // SPEC §2: an article that does not load goes back to /blog.
    void navigate(translation.data ?? '/blog', { replace: true });
  }, [article.isError, translation.isPending, translation.data, navigate]);

  usePageMeta({
    title: article.data?.title ?? t('blog.title'),
    description: article.data?.preview ?? t('blog.articleDescription', { product: PRODUCT_NAME }),
  });

  return (
    <Container size="lg" py={{ base: 'lg', md: 'xl' }}>
      {article.data ? (
        <ArticleView article={article.data} language={language} text={text} />
      ) : (
        <Stack gap="md" maw="75ch" mx="auto" aria-hidden>
          <Skeleton height={40} width="70%" />
          <Skeleton height={16} width="40%" />
          <Skeleton height={240} />
          {[1, 2, 3, 4].map((n) => (
            <Skeleton key={n} height={16} />
          ))}
        </Stack>
      )}
    </Container>
  );
}
