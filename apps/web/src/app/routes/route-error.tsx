import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { RouteLanguageProvider } from '../../components/layout/app-layout';
import { usePageMeta } from '../../hooks/use-page-meta';
import { useRouteLanguage } from '../../hooks/use-route-language';

/** The root error boundary: something went wrong while loading or showing a page. */
export function RouteError() {
  return (
    <RouteLanguageProvider>
      <ErrorMessage />
    </RouteLanguageProvider>
  );
}

function ErrorMessage() {
  const { t } = useTranslation();
  const { to } = useRouteLanguage();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : t('error.unexpected');
  const title = t('error.title');
  usePageMeta({ title, description: message });
  return (
    <Container size="sm" py="xl">
      <Stack gap="md" role="alert">
        <Title order={1}>{title}</Title>
        <Text>
          {message} {t('error.advice')}
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>{t('error.reload')}</Button>
          <Button component={Link} to={to('/convertor')} variant="default">
            {t('error.toConvertor')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
