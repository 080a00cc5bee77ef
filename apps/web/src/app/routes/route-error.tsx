import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { usePageMeta } from '../../hooks/use-page-meta';

/** The root error boundary: something went wrong while loading or showing a page. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'An unexpected error stopped this page from loading.';
  usePageMeta({ title: 'Something went wrong', description: message });
  return (
    <Container size="sm" py="xl">
      <Stack gap="md" role="alert">
        <Title order={1}>Something went wrong</Title>
        <Text>{message} Please reload the page or start again from the home page.</Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button component={Link} to="/convertor" variant="default">
            Go to the convertor
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
