import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { useRouteLanguage } from '../../hooks/use-route-language';

/** The blog list; articles, tags and the sidebar arrive with the content feature. */
export default function BlogPage() {
  const { to } = useRouteLanguage();
  return (
    <Page
      title="Blog"
      heading="The Parla blog"
      description="Guides to SSML, voice design and text to speech, with news about Parla."
    >
      <Text>
        New articles appear here as they are published. Meanwhile,{' '}
        <Anchor component={Link} to={to('/convertor')}>
          try the convertor
        </Anchor>
        .
      </Text>
    </Page>
  );
}
