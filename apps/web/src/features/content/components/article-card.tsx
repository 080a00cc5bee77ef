import { Anchor, Card, Image, Stack, Text, Title } from '@mantine/core';
import type { BlogArticleSummary } from '@parla/contract';
import { Link } from 'react-router';
import type { ContentUiText } from '../lib/ui-text';
import { ArticleMeta } from './article-meta';
import { TagLinks } from './tag-links';

/** One article of the blog list: cover, title link, date, reading time, preview, tags. */
export function ArticleCard({
  article,
  language,
  text,
  headingOrder = 2,
}: {
  article: BlogArticleSummary;
  language: string;
  text: ContentUiText;
  headingOrder?: 2 | 3;
}) {
  return (
    <Card withBorder padding="lg" component="article">
      {article.cover && (
        <Card.Section mb="md">
          <Image
            src={article.cover.src}
            alt={article.cover.alt}
            h={180}
            fit="cover"
            loading="lazy"
          />
        </Card.Section>
      )}
      <Stack gap="xs">
        <Title order={headingOrder} fz="xl">
          <Anchor component={Link} to={article.link} c="inherit" fz="inherit" fw="inherit">
            {article.title}
          </Anchor>
        </Title>
        <ArticleMeta article={article} language={language} text={text} />
        <Text maw="68ch">{article.preview}</Text>
        <TagLinks tags={article.tags} language={language} label={text.tags} size="xs" />
      </Stack>
    </Card>
  );
}
