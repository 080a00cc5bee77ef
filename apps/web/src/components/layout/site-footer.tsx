import {
  Anchor,
  Box,
  Container,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { COMPANY, PRODUCT_DESCRIPTION } from '../../lib/company';
import { localizePath } from '../../lib/languages';
import { MailIcon, MapPinIcon, PhoneIcon, SocialIcon } from '../icons';
import { Logo } from '../logo';

function FooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} c="var(--mantine-color-text)" fz="sm" py={4} underline="hover">
      {children}
    </Anchor>
  );
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-label={title}>
      <Title order={2} fz="md" mb={4}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** SPEC §2 "Footer": contact, Company and Services links, description, social, legal line. */
export function SiteFooter({ language }: { language: string }) {
  const year = new Date().getFullYear();
  const to = (path: string) => localizePath(path, language);
  return (
    <Box
      component="footer"
      mt="xl"
      py="xl"
      bg="var(--mantine-color-default-hover)"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Container size="xl">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
          <Stack gap="sm">
            <Logo size={28} />
            <Text fz="sm" c="dimmed" maw={320}>
              {PRODUCT_DESCRIPTION}
            </Text>
            <Group gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {COMPANY.social.map((social) => (
                <li key={social.name}>
                  <Anchor
                    href={social.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${COMPANY.name} on ${social.name}`}
                    c="var(--mantine-color-text)"
                    display="inline-flex"
                    w={44}
                    h={44}
                    style={{ alignItems: 'center', justifyContent: 'center' }}
                  >
                    <SocialIcon letter={social.name.charAt(0)} size={24} />
                  </Anchor>
                </li>
              ))}
            </Group>
          </Stack>

          <Column title="Company">
            <FooterLink to={to('/convertor')}>Home</FooterLink>
            <FooterLink to={to('/blog')}>Blog</FooterLink>
            <FooterLink to="/sitemap">Sitemap</FooterLink>
            <FooterLink to={to('/pricing')}>Pricing</FooterLink>
            <FooterLink to={to('/contact')}>Contact Us</FooterLink>
            <FooterLink to="/auth/login">Get Started</FooterLink>
          </Column>

          <Column title="Services">
            <FooterLink to={to('/convertor')}>Convertor</FooterLink>
            <FooterLink to={to('/convertor/text')}>Text Editor</FooterLink>
            <FooterLink to={to('/convertor/ssml')}>SSML Editor</FooterLink>
          </Column>

          <Column title="Contact">
            <Box component="address" style={{ fontStyle: 'normal' }}>
              <Stack gap="xs">
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <MapPinIcon size={18} />
                  <Text fz="sm">
                    {COMPANY.name}, {COMPANY.street}, {COMPANY.city} {COMPANY.postcode},{' '}
                    {COMPANY.country}
                  </Text>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <PhoneIcon size={18} />
                  <Anchor href={`tel:${COMPANY.phone.replace(/\s/g, '')}`} fz="sm">
                    {COMPANY.phone}
                  </Anchor>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <MailIcon size={18} />
                  <Anchor href={`mailto:${COMPANY.email}`} fz="sm">
                    {COMPANY.email}
                  </Anchor>
                </Group>
              </Stack>
            </Box>
          </Column>
        </SimpleGrid>

        <Divider my="lg" />

        <Group justify="space-between" gap="sm">
          <Text fz="sm" c="dimmed">
            © {year} {COMPANY.name}. {COMPANY.registration}. All rights reserved.
          </Text>
          <Group gap="md" component="nav" aria-label="Legal">
            <FooterLink to={to('/terms-of-services')}>Terms of Services</FooterLink>
            <FooterLink to={to('/privacy-policy')}>Privacy Policy</FooterLink>
            <FooterLink to={to('/contact')}>Support Centre</FooterLink>
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
