import {
  Accordion,
  Anchor,
  Card,
  Image,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { BlogArticleSummary } from '@parla/contract';
import { Link } from 'react-router';
import { useBlogTeasers } from '../api/get-blog-teasers';
import type { ConvertorTexts } from '../lib/page-sections';

/**
 * The convertor page's sections below its first screens: how it works, the FAQ and the blog
 * teasers. Loaded when a visitor scrolls near them (BelowFold), with the blog's list.
 */
export default function LowerSections({
  texts,
  language,
  to,
}: {
  texts: ConvertorTexts;
  language: string;
  to: (path: string) => string;
}) {
  const teasers = useBlogTeasers(language);
  return (
    <>
      <HowItWorks section={texts.howItWorks} />
      <Faq section={texts.faq} />
      <BlogTeasers section={texts.blog} articles={teasers.data ?? []} to={to} />
    </>
  );
}

function HowItWorks({ section }: { section: ConvertorTexts['howItWorks'] }) {
  return (
    <section aria-labelledby="how-it-works">
      <Title order={2} id="how-it-works" mb="md">
        {section.title}
      </Title>
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 4 }}
        spacing="lg"
        component="ol"
        style={{ listStyle: 'none', padding: 0 }}
      >
        {section.steps.map((step, index) => (
          <Stack key={step.label} component="li" gap="xs">
            <ThemeIcon radius="xl" size="lg" aria-hidden>
              {index + 1}
            </ThemeIcon>
            <Title order={3} fz="md">
              {step.label}
            </Title>
            <Text size="sm" c="dimmed">
              {step.content}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </section>
  );
}

function Faq({ section }: { section: ConvertorTexts['faq'] }) {
  if (section.questions.length === 0) return null;
  return (
    <section aria-labelledby="faq">
      <Title order={2} id="faq" mb="md">
        {section.title}
      </Title>
      <Accordion variant="separated">
        {section.questions.map((question) => (
          <Accordion.Item key={question.label} value={question.label}>
            <Accordion.Control>{question.label}</Accordion.Control>
            <Accordion.Panel>{question.content}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </section>
  );
}

function BlogTeasers({
  section,
  articles,
  to,
}: {
  section: ConvertorTexts['blog'];
  articles: BlogArticleSummary[];
  to: (path: string) => string;
}) {
  if (articles.length === 0) return null;
  return (
    <section aria-labelledby="blog-teasers">
      <Title order={2} id="blog-teasers" mb="md">
        {section.title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {articles.map((article) => (
          <Card key={article.link} withBorder padding="lg" component="article">
            {article.cover && (
              <Card.Section mb="sm">
                <Image src={article.cover.src} alt={article.cover.alt} h={140} fit="cover" />
              </Card.Section>
            )}
            <Title order={3} fz="md" mb="xs">
              <Anchor component={Link} to={article.link} underline="hover">
                {article.title}
              </Anchor>
            </Title>
            <Text size="sm" c="dimmed" lineClamp={3}>
              {article.preview}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      {section.link && (
        <Anchor component={Link} to={to(section.link.link)} mt="md" display="inline-block">
          {section.link.label}
        </Anchor>
      )}
    </section>
  );
}
