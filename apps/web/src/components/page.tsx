import { Container, type ContainerProps, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageMeta } from '../hooks/use-page-meta';

interface PageProps {
  /** The h1 of the page. */
  heading: ReactNode;
  /** The document title; the heading when it is plain text. */
  title: string;
  /** The meta description (and the lead sentence unless `lead` is given). */
  description: string;
  lead?: ReactNode;
  /** Beside the heading (the convertor's "Listen"). */
  aside?: ReactNode;
  size?: ContainerProps['size'];
  children?: ReactNode;
}

/** The frame of a page: its metadata, one h1 and a lead paragraph, then the content. */
export function Page({
  heading,
  title,
  description,
  lead,
  aside,
  size = 'lg',
  children,
}: PageProps) {
  usePageMeta({ title, description });
  return (
    <Container size={size} py={{ base: 'lg', md: 'xl' }}>
      <Stack gap="xs" mb="xl" pos="relative" data-drawn-first>
        <Group gap="sm" align="center" wrap="wrap">
          <Title order={1} fz={{ base: 28, md: 36 }}>
            {heading}
          </Title>
          {aside}
        </Group>
        <Text fz="lg" c="dimmed" maw="70ch">
          {lead ?? description}
        </Text>
      </Stack>
      {children}
    </Container>
  );
}
