import { Alert, Anchor, Badge, SegmentedControl, Table, Text, VisuallyHidden } from '@mantine/core';
import { type AdminContentItem, CONTENT_KINDS, type ContentKind } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { contentListQueryOptions, contentPath } from '../api/content';
import { AdminPage, ScrollTable } from './admin-page';
import { translationRows } from './content-model';

const STATE_COLORS = { published: 'teal.9', draft: 'gray.8', scheduled: 'grape.9' } as const;

/** The name of each kind of document, in the page's language. */
export function useKindNames(): Record<ContentKind, string> {
  const { t } = useTranslation('admin');
  return { pages: t('content.kinds.pages'), articles: t('content.kinds.articles') };
}

/** A document's state as a badge: published, draft or scheduled, and whether its draft changed. */
export function ContentStateBadge({ item }: { item: AdminContentItem }) {
  const { t } = useTranslation('admin');
  const names = {
    published: t('content.states.published'),
    draft: t('content.states.draft'),
    scheduled: t('content.states.scheduled'),
  };
  return (
    <>
      <Badge variant="light" color={STATE_COLORS[item.state]}>
        {names[item.state]}
      </Badge>
      {item.changed && item.state === 'published' && (
        <Badge variant="outline" color="orange.9" ms={4}>
          {t('content.states.changed')}
        </Badge>
      )}
    </>
  );
}

/**
 * Content: every page (or article) with its translations side by side, one column per
 * language; a missing translation is marked and opens an empty editor for it.
 */
export function ContentPage() {
  const { t } = useTranslation('admin');
  const kinds = useKindNames();
  const [kind, setKind] = useState<ContentKind>('pages');
  const list = useQuery(contentListQueryOptions);
  const languages = list.data?.languages ?? [];
  const rows = list.data ? translationRows(list.data, kind) : [];
  return (
    <AdminPage title={t('content.title')} description={t('content.description')}>
      <SegmentedControl
        value={kind}
        onChange={(value) => setKind(value as ContentKind)}
        data={CONTENT_KINDS.map((value) => ({ value, label: kinds[value] }))}
        w="fit-content"
        aria-label={t('content.kind')}
      />
      {list.isError && (
        <Alert color="red" role="alert">
          {list.error.message}
        </Alert>
      )}
      <ScrollTable label={kinds[kind]} minWidth={760}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('content.document')}</Table.Th>
              {languages.map((language) => (
                <Table.Th scope="col" key={language.code}>
                  {language.name}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.group}>
                <Table.Th scope="row" fw={500}>
                  <Text inherit>{row.title}</Text>
                  <Text size="xs" c="dimmed">
                    <Ltr>{row.group}</Ltr>
                  </Text>
                </Table.Th>
                {languages.map((language) => {
                  const item = row.cells[language.code];
                  const slug = item?.slug ?? row.group;
                  const to = contentPath({ kind, language: language.code, slug });
                  return (
                    <Table.Td key={language.code}>
                      {/* The cell's own words name the link; the page and language are its context. */}
                      <Anchor
                        component={Link}
                        to={to}
                        c={item ? undefined : 'red.9'}
                        display="inline-flex"
                        mih={44}
                        style={{ alignItems: 'center', position: 'relative' }}
                      >
                        <VisuallyHidden>{`${row.title}, ${language.name}: `}</VisuallyHidden>
                        {item ? <ContentStateBadge item={item} /> : t('content.missing')}
                      </Anchor>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </AdminPage>
  );
}
