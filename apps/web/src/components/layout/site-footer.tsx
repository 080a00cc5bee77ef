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
import { PRODUCT_NAME } from '@parla/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCatalogueCounts } from '../../lib/catalogue-counts';
import { COMPANY } from '../../lib/company';
import { localizePath } from '../../lib/languages';
import { MailIcon, MapPinIcon, PhoneIcon, SocialIcon } from '../icons';
import { Logo } from '../logo';
import { Ltr } from '../ltr';

function FooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} c="var(--mantine-color-text)" fz="sm" py={4} underline="hover">
      {children}
    </Anchor>
  );
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-label={title} align="flex-start">
      <Title order={2} fz="md" mb={4}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * What Parla does, with the catalogue's own counts once they are known; "natural speech" only
 * while natural voices exist (issue 29).
 */
function ProductDescription() {
  const { t } = useTranslation();
  const counts = useCatalogueCounts();
  return (
    <Text fz="sm" c="dimmed" maw={320}>
      {counts.data
        ? t(counts.data.natural > 0 ? 'footer.description' : 'footer.descriptionPlain', {
            product: PRODUCT_NAME,
            languages: counts.data.languages,
            voices: counts.data.voices,
          })
        : t('footer.descriptionWithoutCounts', { product: PRODUCT_NAME })}
    </Text>
  );
}

/** SPEC §2 "Footer": contact, Company and Services links, description, social, legal line. */
export function SiteFooter({ language }: { language: string }) {
  const { t } = useTranslation();
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
            <ProductDescription />
            <Group gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {COMPANY.social.map((social) => (
                <li key={social.name}>
                  <Anchor
                    href={social.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={t('footer.socialLink', {
                      company: COMPANY.name,
                      network: social.name,
                    })}
                    c="var(--mantine-color-text)"
                    display="inline-flex"
                    w={44}
                    h={44}
                    style={{ alignItems: 'center', justifyContent: 'center' }}
                  >
                    <SocialIcon network={social.name} size={22} />
                  </Anchor>
                </li>
              ))}
            </Group>
          </Stack>

          <Column title={t('footer.company')}>
            <FooterLink to={to('/convertor')}>{t('nav.home')}</FooterLink>
            <FooterLink to={to('/blog')}>{t('nav.blog')}</FooterLink>
            <FooterLink to="/sitemap">{t('footer.sitemap')}</FooterLink>
            <FooterLink to={to('/pricing')}>{t('nav.pricing')}</FooterLink>
            <FooterLink to={to('/contact')}>{t('footer.contactUs')}</FooterLink>
            <FooterLink to="/auth/login">{t('footer.getStarted')}</FooterLink>
          </Column>

          <Column title={t('footer.services')}>
            <FooterLink to={to('/convertor')}>{t('footer.convertor')}</FooterLink>
            <FooterLink to={to('/convertor/text')}>{t('footer.textEditor')}</FooterLink>
            <FooterLink to={to('/convertor/ssml')}>{t('footer.ssmlEditor')}</FooterLink>
          </Column>

          <Column title={t('footer.contact')}>
            <Box component="address" style={{ fontStyle: 'normal' }}>
              <Stack gap="xs">
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <MapPinIcon size={18} />
                  <Text fz="sm">
                    <Ltr>
                      {COMPANY.name}, {COMPANY.street}, {COMPANY.city} {COMPANY.postcode},{' '}
                      {COMPANY.country}
                    </Ltr>
                  </Text>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <PhoneIcon size={18} />
                  <Anchor href={`tel:${COMPANY.phone.replace(/\s/g, '')}`} fz="sm">
                    <Ltr>{COMPANY.phone}</Ltr>
                  </Anchor>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <MailIcon size={18} />
                  <Anchor href={`mailto:${COMPANY.email}`} fz="sm">
                    <Ltr>{COMPANY.email}</Ltr>
                  </Anchor>
                </Group>
              </Stack>
            </Box>
          </Column>
        </SimpleGrid>

        <Divider my="lg" />

        <Group justify="space-between" gap="sm">
          <Text fz="sm" c="dimmed">
            {t('footer.copyright', { year: String(year), company: COMPANY.name })}
          </Text>
          <Group gap="md" component="nav" aria-label={t('footer.legal')}>
            <FooterLink to={to('/terms-of-services')}>{t('footer.terms')}</FooterLink>
            <FooterLink to={to('/privacy-policy')}>{t('footer.privacy')}</FooterLink>
            <FooterLink to={to('/contact')}>{t('footer.support')}</FooterLink>
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
