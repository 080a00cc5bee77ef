import { Alert, Grid, Skeleton, Stack, Text } from '@mantine/core';
import { ALL_TAGS } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { headerOf } from '../../components/content-sections';
import { blogListQueryOptions } from '../../features/content/api/get-blog-list';
import { ArticleCard } from '../../features/content/components/article-card';
import { BlogSidebar } from '../../features/content/components/blog-sidebar';
import { ContentFrame } from '../../features/content/components/content-frame';
import { TagLinks } from '../../features/content/components/tag-links';
import { useContentPage } from '../../features/content/hooks/use-content-page';
import { filterByTag, tagsByUse } from '../../features/content/lib/blog';
import { useContentUiText } from '../../features/content/lib/ui-text';
import { useRouteLanguage } from '../../hooks/use-route-language';

/** SPEC §2 "Blog": the articles of the route language, filtered by ?tag= (default All). */
export default function BlogPage() {
  const { language, path } = useRouteLanguage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tag = params.get('tag')?.trim() || ALL_TAGS;
  const { t } = useTranslation();
  const text = useContentUiText();
  const page = useContentPage('blog');
  const list = useQuery(blogListQueryOptions(language));
  const atDefault = language === 'default' && path === '/blog';

  // SPEC §4: a blog that does not load goes to /blog.
  useEffect(() => {
    if (list.isError && !atDefault) void navigate('/blog', { replace: true });
  }, [list.isError, atDefault, navigate]);

  const { title, lead } = headerOf(page.data);
  const articles = list.data?.articles ?? [];
  const shown = filterByTag(articles, tag);
  return (
    <ContentFrame
      title={title}
      lead={lead}
      fallbackTitle={t('blog.title')}
      fallbackDescription={t('blog.description')}
      failed={atDefault && list.isError}
    >
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <TagLinks
              tags={[ALL_TAGS, ...tagsByUse(articles)]}
              current={tag}
              language={language}
              label={text.filterByTag}
              labels={{ [ALL_TAGS]: text.all }}
            />
            {list.isPending ? (
              <Stack gap="lg" aria-hidden>
                {[1, 2, 3].map((n) => (
                  <Skeleton key={n} height={220} />
                ))}
              </Stack>
            ) : shown.length === 0 ? (
              <Alert variant="light">
                <Text>{text.noArticles}</Text>
              </Alert>
            ) : (
              shown.map((article) => (
                <ArticleCard key={article.link} article={article} language={language} text={text} />
              ))
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {list.data && (
            <BlogSidebar articles={articles} language={language} text={text} currentTag={tag} />
          )}
        </Grid.Col>
      </Grid>
    </ContentFrame>
  );
}
