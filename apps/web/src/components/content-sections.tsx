import {
  Accordion,
  Anchor,
  Card,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { PageContent, PageSection, PageTag } from '@parla/contract';
import { Link } from 'react-router';
import { localizePath } from '../lib/languages';
import { Prose } from './prose';

/** The page's own title and lead, from its 'header' section. */
export function headerOf(content: PageContent | undefined): { title: string; lead: string } {
  const header = content?.sections.find((section) => section.id === 'header');
  const title = header?.tags.find((tag) => tag.type === 'title')?.content ?? '';
  const lead = header?.tags.find((tag) => tag.type === 'text')?.content ?? '';
  return { title, lead };
}

/** One section by id (the contact page places its intro beside the form). */
export function sectionOf(content: PageContent | undefined, id: string): PageSection | undefined {
  return content?.sections.find((section) => section.id === id && section.visibility === 'visible');
}

function InternalLink({ tag, language }: { tag: PageTag; language: string }) {
  const link = tag.link ?? '/';
  if (/^https?:\/\//.test(link)) {
    return (
      <Anchor href={link} target="_blank" rel="noopener noreferrer">
        {tag.label ?? link}
      </Anchor>
    );
  }
  return (
    <Anchor component={Link} to={localizePath(link, language)}>
      {tag.label ?? link}
    </Anchor>
  );
}

/**
 * The dynamic elements of a section, in order (SPEC §3 "Tags fill the elements marked dynamic,
 * in order"). Tiles, steps and questions that follow each other are laid out together.
 */
export function SectionView({ section, language }: { section: PageSection; language: string }) {
  const blocks: React.ReactNode[] = [];
  const tags = section.tags;
  for (let index = 0; index < tags.length; ) {
    const tag = tags[index] as PageTag;
    const run: PageTag[] = [];
    while (index < tags.length && (tags[index] as PageTag).type === tag.type) {
      run.push(tags[index] as PageTag);
      index += 1;
      if (!['tile', 'step', 'question'].includes(tag.type)) break;
    }
    const key = `${section.id}-${index}`;
    switch (tag.type) {
      case 'title':
        blocks.push(
          <Title key={key} order={2} fz="xl">
            {tag.content}
          </Title>,
        );
        break;
      case 'text':
        blocks.push(
          <Text key={key} maw="68ch">
            {tag.content}
          </Text>,
        );
        break;
      case 'html':
        blocks.push(<Prose key={key} html={tag.content ?? ''} />);
        break;
      case 'list':
        blocks.push(
          <List key={key} spacing={6} maw="68ch">
            {(tag.list ?? []).map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
          </List>,
        );
        break;
      case 'link':
        blocks.push(
          <Text key={key}>
            <InternalLink tag={tag} language={language} />
          </Text>,
        );
        break;
      case 'tile':
        blocks.push(
          <SimpleGrid key={key} cols={{ base: 1, sm: 2, md: Math.min(run.length, 4) }}>
            {run.map((tile) => (
              <Card key={tile.label} withBorder padding="lg">
                <Title order={3} fz="lg" mb="xs">
                  {tile.label}
                </Title>
                <Text c="dimmed">{tile.content}</Text>
              </Card>
            ))}
          </SimpleGrid>,
        );
        break;
      case 'step':
        blocks.push(
          <Stack key={key} component="ol" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
            {run.map((step, number) => (
              <li key={step.label}>
                <Stack gap={4}>
                  <Title order={3} fz="md">
                    <ThemeIcon component="span" radius="xl" size="sm" me="xs" aria-hidden>
                      {number + 1}
                    </ThemeIcon>
                    {step.label}
                  </Title>
                  <Text maw="68ch">{step.content}</Text>
                </Stack>
              </li>
            ))}
          </Stack>,
        );
        break;
      case 'question':
        blocks.push(
          <Accordion key={key} variant="separated" maw="75ch">
            {run.map((question) => (
              <Accordion.Item key={question.label} value={question.label ?? ''}>
                <Accordion.Control>{question.label}</Accordion.Control>
                <Accordion.Panel>{question.content}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>,
        );
        break;
      default:
        if (tag.content) blocks.push(<Text key={key}>{tag.content}</Text>);
    }
  }
  return (
    <Stack component="section" gap="md" aria-label={undefined}>
      {blocks}
    </Stack>
  );
}

/** Every visible section but the header (the page shows that as its h1 and lead). */
export function ContentSections({
  content,
  language,
  skip = [],
}: {
  content: Pick<PageContent, 'sections'>;
  language: string;
  skip?: string[];
}) {
  return (
    <Stack gap="xl">
      {content.sections
        .filter(
          (section) =>
            section.visibility === 'visible' &&
            section.id !== 'header' &&
            !skip.includes(section.id),
        )
        .map((section) => (
          <SectionView key={section.id} section={section} language={language} />
        ))}
    </Stack>
  );
}
