import { Group, Text } from '@mantine/core';
import type { BlogArticleSummary } from '@parla/contract';
import { formatLongDate } from '../../../hooks/use-format';
import { describeLanguage } from '../../../lib/languages';
import type { ContentUiText } from '../lib/ui-text';

/** Published date and reading time of an article, as one quiet line. */
export function ArticleMeta({
  article,
  language,
  text,
}: {
  article: Pick<BlogArticleSummary, 'published_time' | 'time_to_read'>;
  language: string;
  text: ContentUiText;
}) {
  return (
    <Group gap="xs" c="dimmed" fz="sm">
      <Text component="time" dateTime={article.published_time} fz="sm">
        {formatLongDate(article.published_time, describeLanguage(language).locale)}
      </Text>
      <Text component="span" fz="sm" aria-hidden>
        ·
      </Text>
      <Text component="span" fz="sm">
        {text.minutesToRead(article.time_to_read)}
      </Text>
    </Group>
  );
}
