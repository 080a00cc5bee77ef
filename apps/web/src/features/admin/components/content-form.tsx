import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { ContentKind } from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The front matter as the form edits it: the YAML of content/README.md, as JSON. */
export type FrontMatter = Record<string, unknown>;

interface Tag {
  type: string;
  content?: string | null;
  label?: string | null;
  link?: string | null;
  alt?: string | null;
  list?: string[] | null;
}

interface Section {
  id: string;
  visibility?: 'hidden' | 'visible';
  tags: Tag[];
}

/** The kinds of a section's element (content/README.md). */
export const TAG_TYPES = [
  'title',
  'text',
  'list',
  'link',
  'tile',
  'step',
  'question',
  'html',
  'image',
];

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** An empty field leaves the key out: the file then has no such line. */
function withField(front: FrontMatter, key: string, value: unknown): FrontMatter {
  const next = { ...front };
  if (value === '' || value === undefined || value === null) delete next[key];
  else next[key] = value;
  return next;
}

/** Tags of an article as typed: comma-separated. */
export const tagsFromText = (value: string) =>
  value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

const input = { minHeight: 44 };

/** A field's message from the server's 4xx, when it names this field. */
export type FieldErrors = Record<string, string>;

function SectionsForm({
  sections,
  onChange,
}: {
  sections: Section[];
  onChange: (sections: Section[]) => void;
}) {
  const { t } = useTranslation('admin');
  const setSection = (index: number, section: Section) =>
    onChange(sections.map((old, i) => (i === index ? section : old)));
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        {t('content.form.sections')}
      </Title>
      {sections.map((section, index) => {
        const setTag = (tagIndex: number, tag: Tag) =>
          setSection(index, {
            ...section,
            tags: section.tags.map((old, i) => (i === tagIndex ? tag : old)),
          });
        return (
          <Card
            // biome-ignore lint/suspicious/noArrayIndexKey: sections are edited in place, by position
            key={index}
            withBorder
            padding="sm"
            component="fieldset"
            aria-label={t('content.form.section', { id: section.id })}
          >
            <Stack gap="xs">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput
                  label={t('content.form.sectionId')}
                  value={section.id}
                  onChange={(event) =>
                    setSection(index, { ...section, id: event.currentTarget.value })
                  }
                  styles={{ input }}
                />
                <Switch
                  label={t('content.form.visible')}
                  checked={section.visibility !== 'hidden'}
                  onChange={(event) =>
                    setSection(index, {
                      ...section,
                      visibility: event.currentTarget.checked ? 'visible' : 'hidden',
                    })
                  }
                />
                <Button
                  variant="outline"
                  color="red.9"
                  h={44}
                  onClick={() => onChange(sections.filter((_, i) => i !== index))}
                >
                  {t('content.form.removeSection')}
                </Button>
              </Group>
              {section.tags.map((tag, tagIndex) => (
                <Group
                  // biome-ignore lint/suspicious/noArrayIndexKey: elements are edited in place, by position
                  key={tagIndex}
                  align="flex-start"
                  gap="xs"
                  wrap="wrap"
                >
                  <Select
                    label={t('content.form.tagType')}
                    data={TAG_TYPES}
                    value={tag.type}
                    allowDeselect={false}
                    onChange={(value) => setTag(tagIndex, { ...tag, type: value ?? 'text' })}
                    w={130}
                    styles={{ input }}
                  />
                  {['link', 'tile', 'step', 'question'].includes(tag.type) && (
                    <TextInput
                      label={t('content.form.tagLabel')}
                      value={text(tag.label)}
                      onChange={(event) =>
                        setTag(tagIndex, { ...tag, label: event.currentTarget.value })
                      }
                      miw={200}
                      styles={{ input }}
                    />
                  )}
                  {tag.type === 'link' && (
                    <TextInput
                      label={t('content.form.tagLink')}
                      value={text(tag.link)}
                      onChange={(event) =>
                        setTag(tagIndex, { ...tag, link: event.currentTarget.value })
                      }
                      styles={{ input }}
                    />
                  )}
                  {tag.type === 'list' ? (
                    <Textarea
                      label={t('content.form.tagList')}
                      value={(tag.list ?? []).join('\n')}
                      onChange={(event) =>
                        setTag(tagIndex, { ...tag, list: event.currentTarget.value.split('\n') })
                      }
                      rows={2}
                      flex={1}
                      miw={240}
                    />
                  ) : (
                    tag.type !== 'link' && (
                      <Textarea
                        label={t('content.form.tagContent')}
                        value={text(tag.content)}
                        onChange={(event) =>
                          setTag(tagIndex, { ...tag, content: event.currentTarget.value })
                        }
                        rows={2}
                        flex={1}
                        miw={240}
                      />
                    )
                  )}
                  <Button
                    variant="outline"
                    color="red.9"
                    mt={24}
                    h={44}
                    aria-label={t('content.form.removeTagOf', { id: section.id, n: tagIndex + 1 })}
                    onClick={() =>
                      setSection(index, {
                        ...section,
                        tags: section.tags.filter((_, i) => i !== tagIndex),
                      })
                    }
                  >
                    {t('content.form.removeTag')}
                  </Button>
                </Group>
              ))}
              <Button
                variant="default"
                h={44}
                w="fit-content"
                onClick={() =>
                  setSection(index, {
                    ...section,
                    tags: [...section.tags, { type: 'text', content: '' }],
                  })
                }
              >
                {t('content.form.addTag')}
              </Button>
            </Stack>
          </Card>
        );
      })}
      <Button
        variant="default"
        h={44}
        w="fit-content"
        onClick={() => onChange([...sections, { id: `section-${sections.length + 1}`, tags: [] }])}
      >
        {t('content.form.addSection')}
      </Button>
    </Stack>
  );
}

/** An article's tags, typed comma-separated (the text is kept while typing a comma). */
function TagsField({
  tags,
  error,
  onChange,
}: {
  tags: string[];
  error: string | undefined;
  onChange: (tags: string[]) => void;
}) {
  const { t } = useTranslation('admin');
  const [typed, setTyped] = useState(tags.join(', '));
  return (
    <TextInput
      label={t('content.form.tags')}
      description={t('content.form.tagsHint')}
      required
      value={typed}
      onChange={(event) => {
        setTyped(event.currentTarget.value);
        onChange(tagsFromText(event.currentTarget.value));
      }}
      error={error}
      styles={{ input }}
    />
  );
}

/**
 * The front matter's fields as a form: a page's title, description, category, order and
 * sections; an article's title, preview, tags, dates, translation key, main-page flag and cover.
 */
export function FrontMatterForm({
  kind,
  value,
  errors,
  onChange,
}: {
  kind: ContentKind;
  value: FrontMatter;
  errors: FieldErrors;
  onChange: (value: FrontMatter) => void;
}) {
  const { t } = useTranslation('admin');
  const field = (key: string) => ({
    value: text(value[key]),
    error: errors[`front_matter.${key}`],
    onChange: (event: { currentTarget: { value: string } }) =>
      onChange(withField(value, key, event.currentTarget.value)),
    styles: { input },
  });
  if (kind === 'pages') {
    return (
      <Stack gap="sm">
        <TextInput label={t('content.form.title')} required {...field('title')} />
        <Textarea
          label={t('content.form.description')}
          required
          rows={2}
          {...field('description')}
        />
        <Group gap="sm" wrap="wrap">
          <TextInput label={t('content.form.category')} required {...field('category')} />
          <NumberInput
            label={t('content.form.order')}
            value={typeof value.order === 'number' ? value.order : ''}
            onChange={(order) =>
              onChange(withField(value, 'order', typeof order === 'number' ? order : undefined))
            }
            allowDecimal={false}
            error={errors['front_matter.order']}
            w={140}
            styles={{ input }}
          />
        </Group>
        <SectionsForm
          sections={(value.sections as Section[] | undefined) ?? []}
          onChange={(sections) =>
            onChange(withField(value, 'sections', sections.length ? sections : undefined))
          }
        />
      </Stack>
    );
  }
  const cover = (value.cover as { image?: string; alt?: string } | undefined) ?? {};
  const setCover = (next: { image?: string; alt?: string }) =>
    onChange(
      withField(
        value,
        'cover',
        next.image ? { image: next.image, alt: next.alt ?? '' } : undefined,
      ),
    );
  return (
    <Stack gap="sm">
      <TextInput label={t('content.form.title')} required {...field('title')} />
      <Textarea label={t('content.form.preview')} required rows={2} {...field('preview')} />
      <TagsField
        tags={Array.isArray(value.tags) ? (value.tags as string[]) : []}
        error={errors['front_matter.tags']}
        onChange={(tags) => onChange(withField(value, 'tags', tags))}
      />
      <Group gap="sm" wrap="wrap">
        <TextInput label={t('content.form.published')} required {...field('published')} />
        <TextInput label={t('content.form.modified')} {...field('modified')} />
        <TextInput
          label={t('content.form.translation')}
          description={t('content.form.translationHint')}
          {...field('translation')}
        />
      </Group>
      <Switch
        label={t('content.form.mainPage')}
        checked={value.main_page === true}
        onChange={(event) =>
          onChange(withField(value, 'main_page', event.currentTarget.checked || undefined))
        }
      />
      <Group gap="sm" wrap="wrap">
        <TextInput
          label={t('content.form.coverImage')}
          value={cover.image ?? ''}
          onChange={(event) => setCover({ ...cover, image: event.currentTarget.value })}
          error={errors['front_matter.cover.image']}
          styles={{ input }}
        />
        <TextInput
          label={t('content.form.coverAlt')}
          value={cover.alt ?? ''}
          onChange={(event) => setCover({ ...cover, alt: event.currentTarget.value })}
          flex={1}
          miw={240}
          styles={{ input }}
        />
      </Group>
    </Stack>
  );
}
