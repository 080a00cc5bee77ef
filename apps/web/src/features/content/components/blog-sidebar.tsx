import { Anchor, List, Stack, Title } from '@mantine/core';
import type { BlogArticleSummary } from '@parla/contract';
import { Link } from 'react-router';
import { recentArticles, tagsByUse } from '../lib/blog';
import type { ContentUiText } from '../lib/ui-text';
import { ArticleMeta } from './article-meta';
import { TagLinks } from './tag-links';

/** SPEC §2 "Blog": the 3 most recent articles and the suggested tags. */
export function BlogSidebar({
  articles,
  language,
  text,
  currentTag,
}: {
  articles: BlogArticleSummary[];
  language: string;
  text: ContentUiText;
  currentTag?: string;
}) {
  return (
    <Stack component="aside" gap="xl" aria-label={text.recentArticles}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {text.recentArticles}
        </Title>
        <List listStyleType="none" spacing="md" p={0}>
          {recentArticles(articles).map((article) => (
            <List.Item key={article.link}>
              <Anchor component={Link} to={article.link} fw={600}>
                {article.title}
              </Anchor>
              <ArticleMeta article={article} language={language} text={text} />
            </List.Item>
          ))}
        </List>
      </Stack>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {text.suggestedTags}
        </Title>
        <TagLinks
          tags={tagsByUse(articles).slice(0, 8)}
          current={currentTag}
          language={language}
          label={text.suggestedTags}
          size="xs"
        />
      </Stack>
    </Stack>
  );
}
