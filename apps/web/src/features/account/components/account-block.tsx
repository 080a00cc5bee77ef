import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AccountBlockProps {
  title: string;
  description?: ReactNode;
  id?: string;
  children: ReactNode;
}

/** One block of My Account: a titled card, reachable by its id (#billingSettings). */
export function AccountBlock({ title, description, id, children }: AccountBlockProps) {
  const headingId = `${id ?? title.toLowerCase().replaceAll(' ', '-')}-heading`;
  return (
    <Card
      component="section"
      id={id}
      aria-labelledby={headingId}
      withBorder
      padding="lg"
      style={{ scrollMarginTop: 'calc(var(--mantine-spacing-xl) * 3)' }}
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="lg" id={headingId}>
            {title}
          </Title>
          {description && <Text c="dimmed">{description}</Text>}
        </Stack>
        {children}
      </Stack>
    </Card>
  );
}
