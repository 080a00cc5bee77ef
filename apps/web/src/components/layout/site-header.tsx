import { Box, Burger, Button, Container, Group, Menu, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { type Session, useLogout, useSession } from '../../lib/auth';
import { localizePath } from '../../lib/languages';
import { ChevronDownIcon, FilesIcon, LogoutIcon, PlanIcon, UserIcon } from '../icons';
import { Logo } from '../logo';
import { ColorSchemeToggle } from './color-scheme-toggle';
import classes from './site-header.module.css';

const MOBILE_NAV_ID = 'site-mobile-navigation';

function mainLinks(language: string) {
  return [
    { label: 'Home', to: localizePath('/convertor', language) },
    { label: 'Pricing', to: localizePath('/pricing', language) },
    { label: 'Blog', to: localizePath('/blog', language) },
    { label: 'Contact', to: localizePath('/contact', language) },
  ];
}

function AccountMenu({ email }: { email: string }) {
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
          styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
        >
          {email}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/account" leftSection={<UserIcon size={16} />}>
          My Account
        </Menu.Item>
        <Menu.Item component={Link} to="/account/plan" leftSection={<PlanIcon size={16} />}>
          My Plan
        </Menu.Item>
        <Menu.Item component={Link} to="/file-history" leftSection={<FilesIcon size={16} />}>
          File History
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={logout} leftSection={<LogoutIcon size={16} />}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function AuthControls({ session, stacked = false }: { session: Session; stacked?: boolean }) {
  if (session.status === 'signed-in') return <AccountMenu email={session.profile.user.email} />;
  if (session.status === 'loading') return null;
  const Wrapper = stacked ? Stack : Group;
  return (
    <Wrapper gap="xs">
      <Button component={Link} to="/auth/login" variant="default" h={44}>
        Login
      </Button>
      <Button component={Link} to="/auth/register" h={44}>
        Register
      </Button>
    </Wrapper>
  );
}

/** SPEC §2 "Header": logo, main links, and the signed-out or signed-in controls. */
export function SiteHeader({ language }: { language: string }) {
  const session = useSession();
  const { pathname } = useLocation();
  // The mobile navigation is open for the page it was opened on: following a link closes it.
  const [openedOn, setOpenedOn] = useState<string | null>(null);
  const opened = openedOn === pathname;
  const toggle = () => setOpenedOn(opened ? null : pathname);
  const links = mainLinks(language);

  return (
    <Box component="header" className={classes.header}>
      <Container size="xl" className={classes.inner}>
        <Link
          to={localizePath('/convertor', language)}
          className={classes.logo}
          aria-label="Parla home"
        >
          <Logo />
        </Link>

        <Group component="nav" aria-label="Main" gap={4} visibleFrom="md">
          {links.map((link) => (
            <NavLink key={link.label} to={link.to} className={classes.link}>
              {link.label}
            </NavLink>
          ))}
        </Group>

        <Group gap="xs" wrap="nowrap">
          <ColorSchemeToggle />
          <Box visibleFrom="md">
            <AuthControls session={session} />
          </Box>
          <Burger
            opened={opened}
            onClick={toggle}
            hiddenFrom="md"
            size="sm"
            aria-label={opened ? 'Close navigation' : 'Open navigation'}
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
            <Stack component="nav" aria-label="Mobile" gap={4}>
              {links.map((link) => (
                <NavLink key={link.label} to={link.to} className={classes.mobileLink}>
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
