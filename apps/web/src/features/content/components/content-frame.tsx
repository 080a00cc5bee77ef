import {
  Alert,
  Container,
  type ContainerProps,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from '../../../components/prose.module.css';
import { usePageMeta } from '../../../hooks/use-page-meta';

interface ContentFrameProps {
  /** The h1; a skeleton while it is empty (the content is loading). */
  title: string;
  lead?: string;
  /** The title and description to show until the SEO call answers. */
  fallbackTitle: string;
  fallbackDescription: string;
  size?: ContainerProps['size'];
  /** The content could not be loaded on the page's default route. */
  failed?: boolean;
  children?: ReactNode;
}

/** The frame of a content page: metadata (SPEC §7 /seo/meta), the h1 and lead, the content. */
export function ContentFrame({
  title,
  lead,
  fallbackTitle,
  fallbackDescription,
  size = 'lg',
  failed = false,
  children,
}: ContentFrameProps) {
  const { t } = useTranslation();
  usePageMeta({ title: title || fallbackTitle, description: lead || fallbackDescription });
  return (
    <Container size={size} py={{ base: 'lg', md: 'xl' }}>
      <Stack gap="xs" mb="xl">
        {title ? (
          <Title order={1} fz={{ base: 28, md: 36 }} className={classes.heading}>
            {title}
          </Title>
        ) : (
          <>
            <Title order={1}>
              <VisuallyHidden>{fallbackTitle}</VisuallyHidden>
            </Title>
            <Skeleton height={40} width="60%" aria-hidden />
          </>
        )}
        {lead ? (
          <Text fz="lg" c="dimmed" maw="68ch">
            {lead}
          </Text>
        ) : (
          !failed && <Skeleton height={20} width="80%" aria-hidden />
        )}
      </Stack>
      {failed ? (
        <Alert color="red" variant="light" role="alert" title={t('content.pageFailed')}>
          {t('content.tryAgain')}
        </Alert>
      ) : (
        children
      )}
    </Container>
  );
}
