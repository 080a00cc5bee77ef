import { Anchor, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { Page } from '../../components/page';
import { useRouteLanguage } from '../../hooks/use-route-language';

/** 'how-to-use-ssml' reads 'How to use ssml' until the article itself is loaded. */
function titleFromSlug(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Article';
}

/** One article; its body, author and translations arrive with the content feature. */
export default function BlogArticlePage() {
  const { article = '' } = useParams();
  const { to } = useRouteLanguage();
  const heading = titleFromSlug(article);
  return (
    <Page
      size="md"
      title={heading}
      heading={heading}
      description={`${heading}: an article of the Parla blog.`}
    >
      <Text>
        <Anchor component={Link} to={to('/blog')}>
          Back to all articles
        </Anchor>
      </Text>
    </Page>
  );
}
