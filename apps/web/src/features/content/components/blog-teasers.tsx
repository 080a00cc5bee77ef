import { Anchor, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { localizePath } from '../../../lib/languages';
import { blogListQueryOptions } from '../api/get-blog-list';
import { contentUiText } from '../lib/ui-text';
import { ArticleCard } from './article-card';

/**
 * The home page's blog teasers (SPEC §2 Convertor, §3 "Only articles flagged for the main page
 * appear on home"): the newest flagged articles of the route language, at most `limit`.
 */
export function BlogTeasers({
  language,
  title,
  limit = 3,
}: {
  language: string;
  title?: string;
  limit?: number;
}) {
  const list = useQuery(blogListQueryOptions(language));
  const text = contentUiText(language);
  const articles = (list.data?.articles ?? []).filter((article) => article.is_on_main_page);
  if (articles.length === 0) return null;
  return (
    <Stack component="section" gap="md" aria-labelledby="blog-teasers-title">
      <Group justify="space-between" align="baseline">
        <Title order={2} fz="xl" id="blog-teasers-title">
          {title ?? text.allArticles}
        </Title>
        <Anchor component={Link} to={localizePath('/blog', language)}>
          {text.allArticles}
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {articles.slice(0, limit).map((article) => (
          <ArticleCard
            key={article.link}
            article={article}
            language={language}
            text={text}
            headingOrder={3}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
