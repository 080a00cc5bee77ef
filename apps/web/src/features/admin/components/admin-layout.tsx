import { Box, Button, Container, Flex, NavLink, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePageMeta } from '../../../hooks/use-page-meta';
import { useSession } from '../../../lib/auth';

const SECTIONS = [
  { to: '/admin', key: 'nav.overview' },
  { to: '/admin/users', key: 'nav.users' },
  { to: '/admin/messages', key: 'nav.messages' },
  { to: '/admin/audit', key: 'nav.audit' },
  { to: '/admin/payments', key: 'nav.payments' },
  { to: '/admin/plans', key: 'nav.plans' },
  { to: '/admin/voices', key: 'nav.voices' },
  { to: '/admin/content', key: 'nav.content' },
] as const;

/** What a signed-in account that is not an administrator sees at /admin. */
function Forbidden() {
  const { t } = useTranslation('admin');
  usePageMeta({ title: t('forbidden.title'), description: t('forbidden.text') });
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>{t('forbidden.title')}</Title>
        <Text>{t('forbidden.text')}</Text>
        <Button component={Link} to="/convertor" variant="default" w="fit-content" h={44}>
          {t('forbidden.back')}
        </Button>
      </Stack>
    </Container>
  );
}

/**
 * The operator's console (issue 31, decision 044): for ADMIN accounts only (the server checks
 * every call again), a navigation beside the page on a wide screen, above it on a tablet.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const session = useSession();
  const { pathname } = useLocation();
  // The app's own startup loader covers the profile's first answer.
  if (session.status === 'loading') return null;
  if (session.status !== 'signed-in' || session.profile.user.role !== 'ADMIN') {
    return <Forbidden />;
  }
  const current = (to: string) =>
    to === '/admin' ? pathname === '/admin' : pathname.startsWith(to);
  return (
    <Container size="xl" py={{ base: 'md', md: 'xl' }}>
      <Flex direction={{ base: 'column', md: 'row' }} gap="xl" align="flex-start">
        <Box component="nav" aria-label={t('nav.label')} w={{ base: '100%', md: 220 }}>
          <Text fw={700} mb="xs">
            {t('title')}
          </Text>
          <Flex direction={{ base: 'row', md: 'column' }} gap={4} wrap="wrap">
            {SECTIONS.map((section) => (
              <NavLink
                key={section.to}
                component={Link}
                to={section.to}
                label={t(section.key)}
                active={current(section.to)}
                aria-current={current(section.to) ? 'page' : undefined}
                mih={44}
                w={{ base: 'auto', md: '100%' }}
                style={{ borderRadius: 'var(--mantine-radius-sm)' }}
              />
            ))}
          </Flex>
        </Box>
        <Box flex={1} miw={0} w="100%">
          {children}
        </Box>
      </Flex>
    </Container>
  );
}
