import { Skeleton, Stack } from '@mantine/core';
import { ContentSections, headerOf } from '../../../components/content-sections';
import { useContentPage } from '../hooks/use-content-page';
import { ContentFrame } from './content-frame';

interface ContentPageProps {
  /** The page slug of the content service: privacy-policy, terms-of-services, … */
  page: string;
  fallbackTitle: string;
  fallbackDescription: string;
}

/** A page that is all content: the privacy policy, the terms of services. */
export function ContentPage({ page, fallbackTitle, fallbackDescription }: ContentPageProps) {
  const content = useContentPage(page);
  const { title, lead } = headerOf(content.data);
  return (
    <ContentFrame
      size="md"
      title={title}
      lead={lead}
      fallbackTitle={fallbackTitle}
      fallbackDescription={fallbackDescription}
      failed={content.showError}
    >
      {content.data ? (
        <ContentSections content={content.data} language={content.language} />
      ) : (
        <Stack gap="sm" aria-hidden>
          {[1, 2, 3, 4, 5].map((line) => (
            <Skeleton key={line} height={16} width={`${95 - line * 7}%`} />
          ))}
        </Stack>
      )}
    </ContentFrame>
  );
}
