import { Box, Burger, Button, Container, Group, Menu, Stack } from '@mantine/core';
import { PRODUCT_NAME } from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { type Session, useLogout, useSession } from '../../lib/auth';
import { localizePath } from '../../lib/languages';
import {
  BookIcon,
  ChevronDownIcon,
  FilesIcon,
  LogoutIcon,
  PlanIcon,
  ShieldIcon,
  SpeechIcon,
  UserIcon,
} from '../icons';
import { Logo } from '../logo';
import { Ltr } from '../ltr';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { LanguageSwitcher } from './language-switcher';
import classes from './site-header.module.css';

const MOBILE_NAV_ID = 'site-mobile-navigation';

function useMainLinks(language: string, signedIn: boolean) {
  const { t } = useTranslation();
  return [
    { label: t('nav.home'), to: localizePath('/convertor', language) },
    // Where signed-in people look for their long texts (issue 33, item 7).
    ...(signedIn ? [{ label: t('nav.documents'), to: '/documents' }] : []),
    { label: t('nav.pricing'), to: localizePath('/pricing', language) },
    { label: t('nav.blog'), to: localizePath('/blog', language) },
    { label: t('nav.contact'), to: localizePath('/contact', language) },
  ];
}

function AccountMenu({ email, admin }: { email: string; admin: boolean }) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    // Mantine's Menu closes on an outside click and on Escape (SPEC §2).
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          rightSection={<ChevronDownIcon size={16} />}
          leftSection={<UserIcon size={18} />}
          h={44}
          maw={{ base: 200, sm: 280 }}
          // The whole address on hover when it is cut (issue 33, item 8).
          title={email}
          styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
        >
          <Ltr>{email}</Ltr>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/account" leftSection={<UserIcon size={16} />}>
          {t('nav.myAccount')}
        </Menu.Item>
        <Menu.Item component={Link} to="/account/plan" leftSection={<PlanIcon size={16} />}>
          {t('nav.myPlan')}
        </Menu.Item>
        <Menu.Item component={Link} to="/file-history" leftSection={<FilesIcon size={16} />}>
          {t('nav.fileHistory')}
        </Menu.Item>
        <Menu.Item component={Link} to="/documents" leftSection={<BookIcon size={16} />}>
          {t('nav.documents')}
        </Menu.Item>
        <Menu.Item component={Link} to="/pronunciations" leftSection={<SpeechIcon size={16} />}>
          {t('nav.pronunciations')}
        </Menu.Item>
        {admin && (
          <Menu.Item component={Link} to="/admin" leftSection={<ShieldIcon size={16} />}>
            {t('nav.admin')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item
          onClick={logout}
          leftSection={<LogoutIcon size={16} className="mirror-in-rtl" />}
        >
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function AuthControls({ session, stacked = false }: { session: Session; stacked?: boolean }) {
  const { t } = useTranslation();
  if (session.status === 'signed-in') {
    const { user } = session.profile;
    return <AccountMenu email={user.email} admin={user.role === 'ADMIN'} />;
  }
  if (session.status === 'loading') return null;
  const Wrapper = stacked ? Stack : Group;
  return (
    <Wrapper gap="xs" wrap="nowrap">
      <Button component={Link} to="/auth/login" variant="default" h={44}>
        {t('nav.login')}
      </Button>
      <Button component={Link} to="/auth/register" h={44}>
        {t('nav.register')}
      </Button>
    </Wrapper>
  );
}

interface SiteHeaderProps {
  language: string;
  /** On the multi-language pages: the path and query the language switcher keeps. */
  switcher?: { path: string; search: string } | undefined;
}

/**
 * SPEC §2 "Header": logo, main links, the language switcher on multi-language pages, and the
 * signed-out or signed-in controls.
 */
export function SiteHeader({ language, switcher }: SiteHeaderProps) {
  const { t } = useTranslation();
  const session = useSession();
  const { pathname } = useLocation();
  // The mobile navigation is open for the page it was opened on: following a link closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const opened = openedOn === pathname;
  const toggle = () => setOpenedOn(opened ? null : pathname);
  const links = useMainLinks(language, session.status === 'signed-in');

  return (
    <Box component="header" className={classes.header} data-drawn-first>
      <Container size="xl" className={classes.inner}>
        <Link
          to={localizePath('/convertor', language)}
          className={classes.logo}
          aria-label={t('nav.logoHome', { product: PRODUCT_NAME })}
        >
          <Logo />
        </Link>

        <Group component="nav" aria-label={t('nav.main')} gap={4} visibleFrom="md" wrap="nowrap">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className={classes.link}>
              {link.label}
            </NavLink>
          ))}
        </Group>

        <Group gap="xs" wrap="nowrap">
          {switcher && <LanguageSwitcher language={language} {...switcher} />}
          <ColorSchemeToggle />
          <Box visibleFrom="md">
            <AuthControls session={session} />
          </Box>
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="md"
            size="sm"
            aria-label={opened ? t('nav.closeNavigation') : t('nav.openNavigation')}
            aria-expanded={opened}
            aria-controls={opened ? MOBILE_NAV_ID : undefined}
            w={44}
            h={44}
          />
        </Group>
      </Container>

      {opened && (
        <Box id={MOBILE_NAV_ID} className={classes.mobilePanel} hiddenFrom="md">
          <Container size="xl">
            <Stack component="nav" aria-label={t('nav.mobile')} gap={4}>
              {links.map((link) => (
                <NavLink key={link.to} to={link.to} className={classes.mobileLink}>
                  {link.label}
                </NavLink>
              ))}
              <Box pt="sm">
                <AuthControls session={session} stacked />
              </Box>
            </Stack>
          </Container>
        </Box>
      )}
    </Box>
  );
}
