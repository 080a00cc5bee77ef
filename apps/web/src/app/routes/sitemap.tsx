import { Anchor, List, SimpleGrid, Stack, Title } from '@mantine/core';
import { PRODUCT_NAME } from '@parla/contract';
import { Link } from 'react-router';
import { Page } from '../../components/page';

const SECTIONS = [
  {
    category: 'Company',
    pages: [
      { title: 'Home', link: '/convertor' },
      { title: 'Pricing', link: '/pricing' },
      { title: 'Contact', link: '/contact' },
      { title: 'Privacy Policy', link: '/privacy-policy' },
      { title: 'Terms of Services', link: '/terms-of-services' },
    ],
  },
  {
    category: 'Services',
    pages: [
      { title: 'Text Editor', link: '/convertor/text' },
      { title: 'SSML Editor', link: '/convertor/ssml' },
    ],
  },
  {
    category: 'Account',
    pages: [
      { title: 'Login', link: '/auth/login' },
      { title: 'Register', link: '/auth/register' },
      { title: 'My Account', link: '/account' },
      { title: 'File History', link: '/file-history' },
    ],
  },
  { category: 'Blog', pages: [{ title: 'All articles', link: '/blog' }] },
];

/** /sitemap and /sitemap.html; the per-language sections arrive with the content feature. */
export default function SitemapPage() {
  return (
    <Page
      title="Sitemap"
      heading="Sitemap"
      description={`Every page of ${PRODUCT_NAME}, grouped by what you came to do.`}
    >
      <Title order={2} fz="xl" mb="md">
        {PRODUCT_NAME} for English speakers
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
        {SECTIONS.map((section) => (
          <Stack key={section.category} gap="xs">
            <Title order={3} fz="md">
              {section.category}
            </Title>
            <List listStyleType="none" spacing={4}>
              {section.pages.map((page) => (
                <List.Item key={page.link}>
                  <Anchor component={Link} to={page.link}>
                    {page.title}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          </Stack>
        ))}
      </SimpleGrid>
    </Page>
  );
}
