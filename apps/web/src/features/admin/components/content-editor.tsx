import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Image,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type {
  AdminContentDocument,
  AdminContentPreviewInput,
  AdminContentRevision,
  ContentKind,
  ContentPageFrontMatter,
} from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ContentSections } from '../../../components/content-sections';
import { Ltr } from '../../../components/ltr';
import { Prose } from '../../../components/prose';
import { ApiError } from '../../../lib/api-client';
import {
  type ContentKey,
  contentDocumentQueryOptions,
  contentImagesQueryOptions,
  contentListQueryOptions,
  contentPath,
  previewQueryOptions,
  useContentChange,
  useImageUpload,
} from '../api/content';
import { AdminPage, ScrollTable, useDateTime } from './admin-page';
import { type FieldErrors, type FrontMatter, FrontMatterForm } from './content-form';
import { localInputToIso, revisionDiff, seoTitle, siteAddress } from './content-model';
import { ContentStateBadge } from './content-page';

/** The search result and the social card the page will have (what /api/seo/meta answers). */
export function SeoPreview({
  kind,
  language,
  slug,
  front,
}: {
  kind: ContentKind;
  language: string;
  slug: string;
  front: FrontMatter;
}) {
  const { t } = useTranslation('admin');
  const title = seoTitle(typeof front.title === 'string' ? front.title : '');
  const description = String((kind === 'pages' ? front.description : front.preview) ?? '');
  const address = `${window.location.origin}${siteAddress(kind, language, slug)}`;
  const cover = (front.cover as { image?: string; alt?: string } | undefined)?.image;
  const image = `/api/content/images/${cover ?? 'parla-share.svg'}`;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Card withBorder padding="md" component="section" aria-label={t('content.seo.search')}>
        <Text size="xs" c="dimmed" mb={4}>
          {t('content.seo.search')}
        </Text>
        <Text size="sm" c="dimmed">
          <Ltr>{address}</Ltr>
        </Text>
        <Text c="blue.9" fz={18} lineClamp={1}>
          {title}
        </Text>
        <Text size="sm" lineClamp={2}>
          {description}
        </Text>
      </Card>
      <Card withBorder padding={0} component="section" aria-label={t('content.seo.social')}>
        <Image src={image} alt="" h={140} fit="cover" />
        <Stack gap={2} p="sm">
          <Text size="xs" c="dimmed">
            <Ltr>{window.location.host}</Ltr>
          </Text>
          <Text fw={600} lineClamp={1}>
            {title}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={2}>
            {description}
          </Text>
        </Stack>
      </Card>
    </SimpleGrid>
  );
}

/** A picture's file name from an uploaded file's (lower case, dashes). */
export function imageNameOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  const stem = (dot > 0 ? fileName.slice(0, dot) : fileName)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  const extension = (dot > 0 ? fileName.slice(dot + 1) : '').toLowerCase();
  return `${stem || 'image'}.${extension}`;
}

/** The pictures of the content: upload one, put one in the text or make it the cover. */
function ImagesPanel({
  kind,
  onInsert,
  onCover,
}: {
  kind: ContentKind;
  onInsert: (markdown: string) => void;
  onCover: (name: string) => void;
}) {
  const { t } = useTranslation('admin');
  const images = useQuery(contentImagesQueryOptions);
  const upload = useImageUpload();
  return (
    <Stack gap="sm">
      <Box>
        <Text component="label" htmlFor="content-image-upload" fw={500} size="sm" display="block">
          {t('content.images.upload')}
        </Text>
        <Text size="xs" c="dimmed" id="content-image-hint">
          {t('content.images.uploadHint')}
        </Text>
        <input
          id="content-image-upload"
          type="file"
          accept=".png,.jpg,.jpeg,.webp,.svg"
          aria-describedby="content-image-hint"
          style={{ minHeight: 44 }}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) upload.mutate({ name: imageNameOf(file.name), file });
            event.currentTarget.value = '';
          }}
        />
      </Box>
      {upload.isError && (
        <Alert color="red" role="alert">
          {upload.error.message}
        </Alert>
      )}
      {upload.isSuccess && (
        <Alert color="green" role="status">
          {t('content.images.uploaded', { name: upload.variables.name })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {(images.data?.images ?? []).map((image) => (
          <Card key={image.name} withBorder padding="xs">
            <Image src={image.src} alt="" h={80} fit="contain" />
            <Text size="xs" mt={4} style={{ overflowWrap: 'anywhere' }}>
              <Ltr>{image.name}</Ltr>
            </Text>
            <Button
              variant="default"
              size="xs"
              mt={4}
              mih={44}
              aria-label={t('content.images.insertOf', { name: image.name })}
              onClick={() => onInsert(`![](${image.src})`)}
            >
              {t('content.images.insert')}
            </Button>
            {kind === 'articles' && (
              <Button
                variant="default"
                size="xs"
                mt={4}
                mih={44}
                aria-label={t('content.images.coverOf', { name: image.name })}
                onClick={() => onCover(image.name)}
              >
                {t('content.images.cover')}
              </Button>
            )}
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** A revision against the draft: lines taken away in red, lines added in green. */
function RevisionDiff({
  revision,
  draft,
}: {
  revision: AdminContentRevision;
  draft: AdminContentDocument['draft'];
}) {
  const { t } = useTranslation('admin');
  const lines = revisionDiff(revision.source, draft);
  return (
    <Box
      component="pre"
      dir="ltr"
      aria-label={t('content.revisions.diff')}
      tabIndex={0}
      fz="sm"
      p="sm"
      style={{
        overflowX: 'auto',
        whiteSpace: 'pre-wrap',
        border: '1px solid var(--mantine-color-gray-4)',
      }}
    >
      {lines.map((line, index) => (
        <Box
          // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity of their own
          key={index}
          component={line.kind === 'added' ? 'ins' : line.kind === 'removed' ? 'del' : 'span'}
          display="block"
          bg={line.kind === 'added' ? 'teal.0' : line.kind === 'removed' ? 'red.0' : undefined}
          c={line.kind === 'same' ? 'dimmed' : undefined}
          style={{ textDecoration: 'none' }}
        >
          {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
          {line.text}
        </Box>
      ))}
    </Box>
  );
}

function Revisions({
  document,
  contentKey,
  onRestored,
}: {
  document: AdminContentDocument;
  contentKey: ContentKey;
  onRestored: (document: AdminContentDocument) => void;
}) {
  const { t } = useTranslation('admin');
  const dateTime = useDateTime();
  const change = useContentChange(contentKey);
  const [shown, setShown] = useState<string | null>(null);
  const actions = {
    seed: t('content.revisions.actions_.seed'),
    save: t('content.revisions.actions_.save'),
    publish: t('content.revisions.actions_.publish'),
    restore: t('content.revisions.actions_.restore'),
  };
  const revision = document.revisions.find((candidate) => candidate.id === shown);
  return (
    <Stack gap="sm">
      <ScrollTable label={t('content.revisions.title')} minWidth={560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('content.revisions.date')}</Table.Th>
              <Table.Th scope="col">{t('content.revisions.action')}</Table.Th>
              <Table.Th scope="col">{t('content.revisions.by')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('content.revisions.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {document.revisions.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{dateTime(row.date)}</Table.Td>
                <Table.Td>{actions[row.action]}</Table.Td>
                <Table.Td>{row.actor_email ?? t('content.revisions.files')}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      variant="default"
                      h={44}
                      aria-pressed={shown === row.id}
                      onClick={() => setShown(shown === row.id ? null : row.id)}
                    >
                      {t('content.revisions.compare')}
                    </Button>
                    <Button
                      variant="default"
                      h={44}
                      loading={
                        change.isPending &&
                        change.variables?.action === 'restore' &&
                        change.variables.revision === row.id
                      }
                      onClick={() =>
                        change.mutate(
                          { action: 'restore', revision: row.id },
                          { onSuccess: onRestored },
                        )
                      }
                    >
                      {t('content.revisions.restore')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {change.isError && (
        <Alert color="red" role="alert">
          {change.error.message}
        </Alert>
      )}
      {revision && <RevisionDiff revision={revision} draft={document.draft} />}
    </Stack>
  );
}

/** What a new translation starts from: another language's draft, its text to translate. */
function startingPoint(kind: ContentKind, from: AdminContentDocument | undefined, group: string) {
  if (!from) return { front: {}, body: '' };
  const front = { ...from.draft.front_matter };
  if (kind === 'articles') front.translation = group;
  return { front, body: from.draft.body };
}

/**
 * One page or article in one language: the front matter as a form, the Markdown with its live
 * preview as the site shows it, another language beside it, publication (now or at a time),
 * revisions and the SEO preview. A language without the document starts a new translation.
 */
export function ContentEditor({ kind, language, slug }: ContentKey) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const key = { kind, language, slug };
  const document = useQuery(contentDocumentQueryOptions(key));
  const list = useQuery(contentListQueryOptions);
  const languages = list.data?.languages ?? [];
  const current = list.data?.items.find(
    (item) => item.kind === kind && item.language === language && item.slug === slug,
  );
  const group = current?.group ?? slug;
  // The other languages of the document, in the content's order (the default language first).
  const order = languages.map((candidate) => candidate.code);
  const siblings = (list.data?.items ?? [])
    .filter((item) => item.kind === kind && item.group === group && item.language !== language)
    .sort((a, b) => order.indexOf(a.language) - order.indexOf(b.language));
  const [compare, setCompare] = useState<string | null>(null);
  const other = siblings.find((item) => item.language === compare) ?? siblings[0];
  const otherDocument = useQuery({
    ...contentDocumentQueryOptions(other ?? key),
    enabled: Boolean(other),
  });
  const isNew =
    document.isError && document.error instanceof ApiError && document.error.status === 404;

  const [front, setFront] = useState<FrontMatter | null>(null);
  const [body, setBody] = useState('');
  const [newSlug, setNewSlug] = useState(slug);
  const [at, setAt] = useState('');
  const [done, setDone] = useState('');
  // The form starts from the draft, or for a new translation from the other language's.
  useEffect(() => {
    if (front !== null) return;
    if (document.data) {
      setFront(document.data.draft.front_matter);
      setBody(document.data.draft.body);
    } else if (isNew && (otherDocument.data || siblings.length === 0) && list.data) {
      const start = startingPoint(kind, otherDocument.data, group);
      setFront(start.front);
      setBody(start.body);
    }
  }, [front, document.data, isNew, otherDocument.data, siblings.length, list.data, kind, group]);

  const target = { ...key, slug: isNew ? newSlug : slug };
  const change = useContentChange(target);
  const errors: FieldErrors = Object.fromEntries(
    (change.error instanceof ApiError ? change.error.fields : []).map((field) => [
      field.path,
      field.message,
    ]),
  );
  // The body and a page's sections as the site shows them, once typing pauses (as a string: a
  // new object at each render would never settle).
  const sections = kind === 'pages' ? (front as ContentPageFrontMatter | undefined)?.sections : [];
  const [typed] = useDebouncedValue(
    JSON.stringify({ body, sections: sections ?? [], language }),
    300,
  );
  const preview = useQuery(previewQueryOptions(JSON.parse(typed) as AdminContentPreviewInput));
  const languageName = languages.find((candidate) => candidate.code === language)?.name ?? language;
  const direction = languages.find((candidate) => candidate.code === language)?.direction ?? 'ltr';
  const source = { front_matter: front ?? {}, body };

  const save = () =>
    change.mutate(
      { action: 'save', source },
      {
        onSuccess: () => {
          setDone(t('content.done.saved'));
          if (isNew) navigate(contentPath(target), { replace: true });
        },
      },
    );
  const publish = (when: string | null) =>
    change.mutate(
      { action: 'publish', at: when },
      { onSuccess: () => setDone(t(when ? 'content.done.scheduled' : 'content.done.published')) },
    );
  const changed =
    document.data !== undefined && JSON.stringify(source) !== JSON.stringify(document.data.draft);

  return (
    <AdminPage
      title={t('content.editor.title', {
        title: typeof front?.title === 'string' && front.title ? front.title : slug,
        language: languageName,
      })}
      description={
        kind === 'pages'
          ? t('content.editor.description_pages')
          : t('content.editor.description_articles')
      }
    >
      <Group gap="sm" wrap="wrap">
        <Anchor component={Link} to="/admin/content">
          {t('content.back')}
        </Anchor>
        {current && <ContentStateBadge item={current} />}
        {isNew && (
          <Badge color="red.9" variant="light">
            {t('content.missing')}
          </Badge>
        )}
        <Text size="sm" c="dimmed">
          <Ltr>{siteAddress(kind, language, target.slug)}</Ltr>
        </Text>
      </Group>
      {document.isError && !isNew && (
        <Alert color="red" role="alert">
          {document.error.message}
        </Alert>
      )}
      {front !== null && (
        <Stack gap="lg">
          {isNew && (
            <TextInput
              label={t('content.editor.slug')}
              description={t('content.editor.slugHint')}
              value={newSlug}
              onChange={(event) => setNewSlug(event.currentTarget.value)}
              error={errors.slug}
              maw={400}
              styles={{ input: { minHeight: 44 } }}
            />
          )}
          <SimpleGrid cols={{ base: 1, lg: other ? 2 : 1 }} spacing="lg">
            <Card withBorder padding="md" component="section" aria-labelledby="front-matter">
              <Title order={2} size="h4" id="front-matter" mb="sm">
                {t('content.editor.fields', { language: languageName })}
              </Title>
              <FrontMatterForm kind={kind} value={front} errors={errors} onChange={setFront} />
            </Card>
            {other && (
              <Card
                withBorder
                padding="md"
                component="section"
                aria-labelledby="translation"
                bg="gray.0"
              >
                <Group justify="space-between" mb="sm" wrap="wrap">
                  <Title order={2} size="h4" id="translation">
                    {t('content.editor.beside')}
                  </Title>
                  <Select
                    aria-label={t('content.editor.compareWith')}
                    data={siblings.map((item) => ({
                      value: item.language,
                      label: languages.find((l) => l.code === item.language)?.name ?? item.language,
                    }))}
                    value={other.language}
                    onChange={setCompare}
                    allowDeselect={false}
                    w={180}
                    styles={{ input: { minHeight: 44 } }}
                  />
                </Group>
                {otherDocument.data && (
                  <Stack gap="xs" dir={languages.find((l) => l.code === other.language)?.direction}>
                    {Object.entries(otherDocument.data.draft.front_matter)
                      .filter(([, value]) => typeof value === 'string')
                      .map(([name, value]) => (
                        <Text key={name} size="sm">
                          <Text span fw={600} dir="ltr">
                            {name}:
                          </Text>{' '}
                          {String(value)}
                        </Text>
                      ))}
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {otherDocument.data.draft.body}
                    </Text>
                  </Stack>
                )}
              </Card>
            )}
          </SimpleGrid>
          <Group gap={4} wrap="wrap">
            <Text size="sm">{t('content.editor.languages')}</Text>
            {languages.map((candidate) => {
              const has =
                candidate.code === language
                  ? !isNew
                  : siblings.some((item) => item.language === candidate.code);
              return (
                <Badge
                  key={candidate.code}
                  me={4}
                  variant={has ? 'light' : 'outline'}
                  color={has ? 'teal.9' : 'red.9'}
                >
                  {candidate.name}
                  {has ? '' : ` · ${t('content.missing')}`}
                </Badge>
              );
            })}
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Textarea
              label={t('content.editor.body')}
              description={t('content.editor.bodyHint')}
              value={body}
              onChange={(event) => setBody(event.currentTarget.value)}
              rows={14}
              dir={direction}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <Card withBorder padding="md" component="section" aria-labelledby="preview">
              <Title order={2} size="h4" id="preview" mb="sm">
                {t('content.editor.preview')}
              </Title>
              <Stack gap="xl" dir={direction} lang={language === 'default' ? 'en' : language}>
                {preview.data && preview.data.sections.length > 0 && (
                  <ContentSections content={preview.data} language={language} />
                )}
                <Prose html={preview.data?.html ?? ''} />
              </Stack>
            </Card>
          </SimpleGrid>
          {errors.body && (
            <Alert color="red" role="alert">
              {errors.body}
            </Alert>
          )}
          {change.isError && (
            <Alert color="red" role="alert">
              {change.error.message}
            </Alert>
          )}
          {done && !change.isError && (
            <Alert color="green" role="status">
              {done}
            </Alert>
          )}
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Button
              h={44}
              variant="default"
              onClick={save}
              loading={change.isPending && change.variables?.action === 'save'}
            >
              {t('content.editor.save')}
            </Button>
            <Button
              h={44}
              disabled={isNew || changed}
              onClick={() => publish(null)}
              loading={
                change.isPending && change.variables?.action === 'publish' && !change.variables.at
              }
            >
              {t('content.editor.publish')}
            </Button>
            <TextInput
              type="datetime-local"
              label={t('content.editor.publishAt')}
              value={at}
              onChange={(event) => setAt(event.currentTarget.value)}
              styles={{ input: { minHeight: 44 } }}
              error={errors.at}
            />
            <Button
              h={44}
              variant="default"
              disabled={isNew || changed || !localInputToIso(at)}
              onClick={() => publish(localInputToIso(at))}
            >
              {t('content.editor.schedule')}
            </Button>
          </Group>
          {changed && (
            <Text size="sm" c="dimmed">
              {t('content.editor.saveFirst')}
            </Text>
          )}
          <Tabs defaultValue="seo" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="seo" mih={44}>
                {t('content.seo.title')}
              </Tabs.Tab>
              <Tabs.Tab value="images" mih={44}>
                {t('content.images.title')}
              </Tabs.Tab>
              <Tabs.Tab value="revisions" mih={44} disabled={!document.data}>
                {t('content.revisions.title')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="seo" pt="md">
              <SeoPreview kind={kind} language={language} slug={target.slug} front={front} />
            </Tabs.Panel>
            <Tabs.Panel value="images" pt="md">
              <ImagesPanel
                kind={kind}
                onInsert={(markdown) =>
                  setBody((text) => `${text.replace(/\n*$/, '')}\n\n${markdown}\n`)
                }
                onCover={(name) => {
                  const cover = front.cover as { alt?: string } | undefined;
                  setFront({ ...front, cover: { image: name, alt: cover?.alt ?? '' } });
                }}
              />
            </Tabs.Panel>
            <Tabs.Panel value="revisions" pt="md">
              {document.data && (
                <Revisions
                  document={document.data}
                  contentKey={key}
                  onRestored={(restored) => {
                    setFront(restored.draft.front_matter);
                    setBody(restored.draft.body);
                    setDone(t('content.done.restored'));
                  }}
                />
              )}
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </AdminPage>
  );
}
