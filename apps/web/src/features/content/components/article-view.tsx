import { Anchor, Divider, Group, Image, List, Stack, Text, Title } from '@mantine/core';
import type { BlogArticle } from '@parla/contract';
import { Link } from 'react-router';
import { Prose } from '../../../components/prose';
import classes from '../../../components/prose.module.css';
import { formatLongDate } from '../../../hooks/use-format';
import { COMPANY } from '../../../lib/company';
import { describeLanguage, localizePath } from '../../../lib/languages';
import { tagLink } from '../lib/blog';
import type { ContentUiText } from '../lib/ui-text';
import { TagLinks } from './tag-links';
import { TranslationSwitcher } from './translation-switcher';

/**
 * SPEC §2 "Blog" article: title link, published time, author link to the company, the HTML
 * body, word count, reading time, tags, footer links and the translation switcher.
 */
export function ArticleView({
  article,
  language,
  text,
}: {
  article: BlogArticle;
  language: string;
  text: ContentUiText;
}) {
  return (
    <Stack component="article" gap="lg" maw="75ch" mx="auto">
      <Stack gap="sm">
        <Title order={1} fz={{ base: 28, md: 36 }} className={classes.heading}>
          <Anchor
            component={Link}
            to={article.link}
            c="inherit"
            fz="inherit"
            fw="inherit"
            underline="hover"
          >
            {article.title}
          </Anchor>
        </Title>
        <Group gap="xs" c="dimmed" fz="sm" wrap="wrap">
          <Text component="span" fz="sm">
            {text.publishedOn}{' '}
            <time dateTime={article.published_time}>
              {formatLongDate(article.published_time, describeLanguage(language).locale)}
            </time>{' '}
            {text.by}{' '}
            <Anchor component={Link} to={localizePath('/contact', language)} rel="author" fz="sm">
              {COMPANY.name}
            </Anchor>
          </Text>
          <Text component="span" fz="sm" aria-hidden>
            ·
          </Text>
          <Text component="span" fz="sm">
            {text.words(article.words_count)}
          </Text>
          <Text component="span" fz="sm" aria-hidden>
            ·
          </Text>
          <Text component="span" fz="sm">
            {text.minutesToRead(article.time_to_read)}
          </Text>
        </Group>
        <TranslationSwitcher translations={article.translations} label={text.readIn} />
      </Stack>
      {article.cover && (
        <Image src={article.cover.src} alt={article.cover.alt} radius="md" mah={320} fit="cover" />
      )}
      <Prose html={article.content} />
      <TagLinks tags={article.tags} language={language} label={text.tags} size="xs" />
      <Divider />
      <Stack component="footer" gap="xs">
        <Title order={2} fz="lg">
          {text.tryIt}
        </Title>
        <List spacing={4}>
          <List.Item>
            <Anchor component={Link} to="/auth/login">
              {text.login}
            </Anchor>
          </List.Item>
          <List.Item>
            <Anchor component={Link} to={localizePath('/pricing', language)}>
              {text.pricing}
            </Anchor>
          </List.Item>
          <List.Item>
            <Anchor component={Link} to={localizePath('/contact', language)}>
              {text.contact}
            </Anchor>
          </List.Item>
          {article.tags.map((tag) => (
            <List.Item key={tag}>
              <Anchor component={Link} to={localizePath(tagLink(tag), language)}>
                {text.moreAbout(tag)}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Stack>
  );
}
