import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageMeta } from '../../../hooks/use-page-meta';

/** A console page: its title (the document's too), a lead sentence, then the content. */
export function AdminPage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  usePageMeta({ title, description });
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 26, md: 32 }}>
          {title}
        </Title>
        <Text c="dimmed">{description}</Text>
      </Stack>
      {children}
    </Stack>
  );
}

/** Previous and next page of a list, with where the list is. */
export function Pager({
  page,
  perPage,
  total,
  onPage,
}: {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation('admin');
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('common.found', { total })} · {t('common.page', { page, pages })}
      </Text>
      <Group gap="xs">
        <Button variant="default" h={44} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('common.previous')}
        </Button>
        <Button variant="default" h={44} disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t('common.next')}
        </Button>
      </Group>
    </Group>
  );
}

/** A date and time in the page's language ('27 Nov 2026, 14:05'). */
export function useDateTime() {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (value: string) => format.format(new Date(value));
}

/**
 * A table wider than a tablet, scrolled sideways inside its own region: a named, focusable
 * region, so a keyboard reaches what is off screen (WCAG 2.1.1).
 */
export function ScrollTable({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      type="native"
      minWidth={minWidth}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </Table.ScrollContainer>
  );
}
