import { Alert, Anchor, Group, List, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DEFAULT_LANGUAGE, PRODUCT_NAME, sitemapCategory } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeLanguage } from '../../../lib/languages';
import { type SitemapLanguage, useSitemap } from '../hooks/use-sitemap';

/** The categories of a language's pages in their first-seen order, 'Main' shown as 'Company'. */
function groups(section: SitemapLanguage) {
  const byCategory = new Map<string, { title: string; link: string }[]>();
  for (const page of section.pages) {
    const category = sitemapCategory(page.category);
    byCategory.set(category, [...(byCategory.get(category) ?? []), page]);
  }
  const blog = byCategory.get('Blog') ?? [];
  byCategory.delete('Blog');
  return { categories: [...byCategory.entries()], blog };
}

/** 'English' for the default language (SPEC §2: default is treated as English). */
function languageName(section: SitemapLanguage): string {
  return section.language.code === DEFAULT_LANGUAGE ? 'English' : section.language.name;
}

function LanguageSection({ section }: { section: SitemapLanguage }) {
  const { categories, blog } = groups(section);
  const locale = describeLanguage(section.language.code);
  const headingId = `sitemap-${section.language.code}`;
  return (
    <Stack component="section" gap="md" aria-labelledby={headingId}>
      <Title order={2} fz="xl" id={headingId}>
        {PRODUCT_NAME} for {languageName(section)} speakers
      </Title>
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 4 }}
        spacing="lg"
        lang={locale.locale}
        dir={locale.dir}
      >
        {categories.map(([category, pages]) => (
          <Stack key={category} gap="xs">
            <Title order={3} fz="md">
              {category}
            </Title>
            <List listStyleType="none" spacing={4} p={0}>
              {pages.map((page) => (
                <List.Item key={page.link}>
                  <Anchor component={Link} to={page.link}>
                    {page.title}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </Stack>
        ))}
        <Stack gap="xs">
          <Title order={3} fz="md">
            Blog
          </Title>
          <List listStyleType="none" spacing={4} p={0}>
            {blog.map((page) => (
              <List.Item key={page.link}>
                <Anchor component={Link} to={page.link}>
                  {page.title}
                </Anchor>
              </List.Item>
            ))}
            {section.articles.map((article) => (
              <List.Item key={article.link}>
                <Anchor component={Link} to={article.link}>
                  {article.title}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

/** SPEC §2 "Sitemap": a section per language, loaded in two stages, with a loading indicator. */
export function SitemapView() {
  const { t } = useTranslation();
  const { sections, complete, failed } = useSitemap();
  return (
    <Stack gap="xl" aria-busy={!complete}>
      {sections.map((section) => (
        <LanguageSection key={section.language.code} section={section} />
      ))}
      {failed ? (
        <Alert color="red" variant="light" role="alert" title={t('sitemap.failed')}>
          {t('content.tryAgain')}
        </Alert>
      ) : (
        !complete && (
          <Group gap="sm" role="status">
            <Loader size="sm" />
            <Text c="dimmed">{t('sitemap.loading')}</Text>
          </Group>
        )
      )}
    </Stack>
  );
}
