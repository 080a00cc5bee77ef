import { Anchor, Card, Grid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { headerOf, SectionView, sectionOf } from '../../components/content-sections';
import { Ltr } from '../../components/ltr';
import { ContactForm } from '../../features/content/components/contact-form';
import { ContentFrame } from '../../features/content/components/content-frame';
import { useContentPage } from '../../features/content/hooks/use-content-page';
import { useContentUiText } from '../../features/content/lib/ui-text';
import { useRouteLanguage } from '../../hooks/use-route-language';
import { COMPANY } from '../../lib/company';

/** SPEC §2 "Contact": the form, the page text from the content service, the company's details. */
export default function ContactPage() {
  const { language } = useRouteLanguage();
  const content = useContentPage('contact');
  const { title, lead } = headerOf(content.data);
  const { t } = useTranslation();
  const text = useContentUiText();
  const intro = sectionOf(content.data, 'intro');
  const topics = sectionOf(content.data, 'topics');
  return (
    <ContentFrame
      title={title}
      lead={lead}
      fallbackTitle={t('contact.title')}
      fallbackDescription={t('contact.description')}
    >
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder padding="lg">
            <Title order={2} fz="xl" mb="md">
              {text.contactForm.title}
            </Title>
            <ContactForm text={text.contactForm} />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="xl">
            {intro && <SectionView section={intro} language={language} />}
            {topics && <SectionView section={topics} language={language} />}
            <Stack gap={4}>
              <Text fw={600}>{COMPANY.name}</Text>
              <Text c="dimmed">
                <Ltr>
                  {COMPANY.street}, {COMPANY.city} {COMPANY.postcode}, {COMPANY.country}
                </Ltr>
              </Text>
              {/* Links on lines of their own: touch targets on a phone (global.css). */}
              <Anchor href={`mailto:${COMPANY.email}`} w="fit-content">
                <Ltr>{COMPANY.email}</Ltr>
              </Anchor>
              <Anchor href={`tel:${COMPANY.phone.replace(/\s/g, '')}`} w="fit-content">
                <Ltr>{COMPANY.phone}</Ltr>
              </Anchor>
            </Stack>
          </Stack>
        </Grid.Col>
      </Grid>
    </ContentFrame>
  );
}
